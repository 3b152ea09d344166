/** One e-mail, already written (templates.ts): Spanish, HTML and plain text. */
export interface EmailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** The sender's display name: the bakery's. */
  fromName: string;
}

/**
 * Where e-mail goes (docs/design.md §1): over SMTP when SMTP_URL is set (smtp.ts), else into the outbox table
 * (outbox.ts). A driver throws when the message could not be handed over.
 */
export interface EmailDriver {
  readonly kind: 'smtp' | 'outbox';
  send(message: EmailMessage): Promise<void>;
  close(): Promise<void>;
}
