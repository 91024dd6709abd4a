import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { MailMessage, Mailer } from '@tessera/core/internal';

/**
 * The embedded default Mailer: each message becomes a file in the data folder's `outbox/`, and
 * the link it carries is logged, so a newcomer signs in by magic link with no mail server.
 */
export class OutboxMailer implements Mailer {
  private sequence = 0;

  constructor(
    private readonly folder: string,
    private readonly log: (line: string, link?: string) => void,
  ) {}

  async send(message: MailMessage): Promise<void> {
    await mkdir(this.folder, { recursive: true });
    const stamp = new Date().toISOString().replace(/[:.]/g, '-');
    const file = join(this.folder, `${stamp}-${process.pid}-${++this.sequence}.eml`);
    const body = [`To: ${message.to}`, `Subject: ${message.subject}`, `Date: ${new Date().toUTCString()}`, '', message.text, ''].join('\r\n');
    await writeFile(file, body, { mode: 0o600 });
    this.log(`mail to ${message.to} written to ${file}`, message.link);
  }
}
