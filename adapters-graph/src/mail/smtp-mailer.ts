import nodemailer, { type Transporter } from 'nodemailer';
import type { MailMessage, Mailer } from '@tessera/core/internal';

export type SmtpSettings = {
  host: string;
  port: number;
  /** true: TLS from the first byte (port 465); false: STARTTLS when the server offers it. */
  secure: boolean;
  user?: string;
  password?: string;
  from: string;
  /** Accept self-signed certificates (a test or internal relay). */
  allowInvalidCertificates?: boolean;
};

/** The Mailer port over SMTP (nodemailer). */
export class SmtpMailer implements Mailer {
  private readonly transport: Transporter;

  constructor(private readonly settings: SmtpSettings) {
    this.transport = nodemailer.createTransport({
      host: settings.host,
      port: settings.port,
      secure: settings.secure,
      auth: settings.user ? { user: settings.user, pass: settings.password ?? '' } : undefined,
      tls: settings.allowInvalidCertificates ? { rejectUnauthorized: false } : undefined,
    });
  }

  async send(message: MailMessage): Promise<void> {
    await this.transport.sendMail({ from: this.settings.from, to: message.to, subject: message.subject, text: message.text });
  }

  close(): void {
    this.transport.close();
  }
}
