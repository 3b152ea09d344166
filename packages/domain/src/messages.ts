/** Kept apart from the schemas: the web's storefront bundle reads these without pulling zod in. */

/** Messages of docs/product.md §5 and §8, word for word (the API's `message`). */
export const AUTH_MESSAGES = {
  operationNotAllowed: 'Email/Password sign-in is not enabled. Please contact support.',
  userDisabled: 'This account has been disabled.',
  invalidCredential: 'Invalid email or password.',
  loginFailed: 'Login failed. Please try again.',
  backendAuthFailed: 'Backend authentication failed',
  registrationFailed: 'Registration failed',
  invalidRole: 'Invalid role specified',
  adminFieldsRequired: 'Email, password, and name are required',
  userFieldsRequired: 'All fields are required for bakery user registration',
  invalidBakeryRole: 'Invalid role for bakery user',
  systemAdminNotImplemented: 'System admin registration is not implemented',
} as const;

/** File storage errors of docs/product.md §8 (the API's English `message`; the web reads the code's Spanish text). */
export const STORAGE_MESSAGES = {
  quotaExceeded: 'Storage quota exceeded for this company',
  fileTooLarge: 'File is too large (limit 5 MB)',
  imageTooLarge: 'Image is too large (limit 40 megapixels)',
  unsupportedType: 'File is not a supported image (JPEG, PNG, WebP, GIF or AVIF)',
  objectNotFound: 'File not found',
  fileRequired: 'A file is required in the multipart field "file"',
} as const;
