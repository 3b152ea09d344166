/** The error texts of sign-in, sign-up, recovery and the account (see errors-storefront.ts for the split). */
export const AUTH_ERROR_TEXTS_ES = {
  'auth/invalid-credential': 'Correo o contraseña incorrectos.',
  'auth/user-disabled': 'Esta cuenta está deshabilitada.',
  'auth/operation-not-allowed': 'El inicio de sesión con correo y contraseña no está habilitado. Contacta a soporte.',
  'auth/invalid-token': 'Tu sesión expiró. Inicia sesión de nuevo.',
  'auth/email-mismatch': 'El correo no coincide con la sesión.',
  'auth/weak-password': 'Esa contraseña es muy común. Elige otra.',
  'auth/email-in-use': 'Ya existe una cuenta con ese correo.',
  'auth/wrong-password': 'La contraseña actual no es correcta.',
  'auth/invalid-action-code': 'Este enlace no es válido o ya se usó. Pide uno nuevo.',
  'auth/expired-action-code': 'Este enlace venció. Pide uno nuevo.',
  'auth/google-failed': 'No pudimos iniciar sesión con Google. Intenta de nuevo.',
  'auth/google-other-browser':
    'Este inicio de sesión con Google se empezó en otro navegador. Vuelve a intentarlo desde este.',
  'auth/email-not-verified': 'Primero confirma tu correo con el enlace que te enviamos. Luego intenta de nuevo.',
} as const;
