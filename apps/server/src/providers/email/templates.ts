/** The e-mails Hornada sends, in Spanish (es-CO), as HTML and plain text, signed with the bakery's name. */

export const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

export interface Mail {
  subject: string;
  text: string;
  html: string;
}

/**
 * Who a mail speaks as: a bakery (its name, and its logo's absolute URL on its shop when it has one) or
 * Hornada (no logo: the platform's mails keep the platform's identity).
 */
export interface MailVoice {
  name: string;
  logoUrl: string | null;
}

/**
 * The mail's heading: the bakery's logo (alt: its name, so a client that blocks images still says who writes)
 * above its name. No logo, no img: never a broken picture.
 */
export function mailHeading(voice: MailVoice): string {
  const logo = voice.logoUrl
    ? `<p style="margin:0 0 8px"><img src="${escapeHtml(voice.logoUrl)}" alt="${escapeHtml(voice.name)}" height="56" style="display:block;height:56px;width:auto;max-width:200px;border:0;border-radius:8px"></p>\n`
    : '';
  return `${logo}<h1 style="font-size:20px">${escapeHtml(voice.name)}</h1>`;
}

/** One call to action: a greeting, what happened, the button and its link in words, and the fine print. */
function actionMail(o: {
  voice: MailVoice;
  name: string;
  subject: string;
  lead: string;
  button: string;
  link: string;
  note: string;
}): Mail {
  const hello = o.name ? `Hola, ${o.name}:` : 'Hola:';
  const bakery = o.voice.name;
  const text = [hello, '', o.lead, '', `${o.button}: ${o.link}`, '', o.note, '', bakery].join('\n');
  const html = `<!doctype html>
<html lang="es-CO"><head><meta charset="utf-8"><title>${escapeHtml(o.subject)}</title></head>
<body style="font-family:system-ui,sans-serif;color:#1c1917;max-width:560px;margin:0 auto;padding:24px">
${mailHeading(o.voice)}
<p>${escapeHtml(hello)}</p>
<p>${escapeHtml(o.lead)}</p>
<p><a href="${escapeHtml(o.link)}" style="display:inline-block;background:#92400e;color:#fff;padding:12px 20px;border-radius:8px;text-decoration:none;font-weight:600">${escapeHtml(o.button)}</a></p>
<p style="font-size:14px">Si el botón no funciona, copia este enlace en tu navegador:<br><span style="word-break:break-all">${escapeHtml(o.link)}</span></p>
<p style="font-size:14px;color:#57534e">${escapeHtml(o.note)}</p>
<p>${escapeHtml(bakery)}</p>
</body></html>`;
  return { subject: o.subject, text, html };
}

export function passwordResetMail(voice: MailVoice, name: string, link: string): Mail {
  const bakery = voice.name;
  return actionMail({
    voice,
    name,
    subject: `Restablece tu contraseña de ${bakery}`,
    lead: 'Recibimos una solicitud para restablecer la contraseña de tu cuenta. Usa este enlace para elegir una nueva.',
    button: 'Restablecer contraseña',
    link,
    note: 'El enlace sirve una sola vez y vence en 30 minutos. Si no pediste este cambio, ignora este correo: tu contraseña sigue igual.',
  });
}

/** An invitation from the bakery: a new account that chooses its own password through the link. */
export function invitationMail(voice: MailVoice, _name: string, link: string): Mail {
  // As for verification: the address is not proven, so no words the inviter typed are carried to it.
  const bakery = voice.name;
  return actionMail({
    voice,
    name: '',
    subject: `${bakery} te invita a crear tu contraseña`,
    lead: `${bakery} te creó una cuenta con este correo. Usa este enlace para elegir tu contraseña y entrar.`,
    button: 'Crear mi contraseña',
    link,
    note: 'El enlace sirve una sola vez y vence en 7 días. Si no esperabas esta invitación, ignora este correo.',
  });
}

/**
 * To an address nobody has proven yet: nothing the registrant chose (their "name") is written in it,
 * or the message would carry a stranger's words to whoever owns the address.
 */
export function verifyEmailMail(voice: MailVoice, _name: string, link: string): Mail {
  const bakery = voice.name;
  return actionMail({
    voice,
    name: '',
    subject: `Confirma tu correo en ${bakery}`,
    lead: 'Confirma que este es tu correo electrónico para terminar de configurar tu cuenta.',
    button: 'Confirmar correo',
    link,
    note: 'El enlace sirve una sola vez y vence en 30 minutos. Si no creaste una cuenta, ignora este correo.',
  });
}

/**
 * Sign-in with Google took over an account whose e-mail was never verified (identity/google.service.ts):
 * its password was cleared and its sessions ended. No name: the account's was not chosen by this owner.
 */
export function googleOwnerMail(voice: MailVoice): Mail {
  const bakery = voice.name;
  const subject = `Tu cuenta de ${bakery} ahora se abre con Google`;
  const lines = [
    'Hola:',
    '',
    'Iniciaste sesión con Google en una cuenta que usaba tu correo y que nunca se había verificado.',
    'Como Google confirmó que el correo es tuyo, ahora eres la única persona con acceso a esa cuenta: borramos su contraseña y cerramos todas las sesiones que estaban abiertas.',
    '',
    'Revisa los datos de la cuenta (teléfono y direcciones). Si quieres entrar también con contraseña, usa "¿Olvidaste tu contraseña?" en la página de inicio de sesión.',
    '',
    bakery,
  ];
  const html = `<!doctype html>
<html lang="es-CO"><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head>
<body style="font-family:system-ui,sans-serif;color:#1c1917;max-width:560px;margin:0 auto;padding:24px">
${mailHeading(voice)}
${lines
  .slice(0, -1)
  .filter(Boolean)
  .map((l) => `<p>${escapeHtml(l)}</p>`)
  .join('\n')}
<p>${escapeHtml(bakery)}</p>
</body></html>`;
  return { subject, text: lines.join('\n'), html };
}
