/** An outgoing e-mail message (sign-in links, invitations). */
export type MailMessage = {
  to: string;
  subject: string;
  text: string;
  /** The link the message carries, when it carries one: the embedded outbox logs it. */
  link?: string;
};

/** Sends mail: SMTP in production, a folder of messages in the embedded default. */
export interface Mailer {
  send(message: MailMessage): Promise<void>;
}
