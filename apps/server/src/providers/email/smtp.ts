import nodemailer from 'nodemailer';
import type { EmailDriver, EmailMessage } from './email';

/** nodemailer over SMTP_URL (`smtp://user:pass@host:587`, `smtps://…` for implicit TLS). */
export function smtpDriver(url: string, from: string): EmailDriver {
  const transport = nodemailer.createTransport(url);
  return {
    kind: 'smtp',
    async send(m: EmailMessage) {
      await transport.sendMail({
        from: { name: m.fromName, address: from },
        to: m.to,
        subject: m.subject,
        text: m.text,
        html: m.html,
      });
    },
    async close() {
      transport.close();
    },
  };
}
