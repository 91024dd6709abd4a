import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SMTPServer } from 'smtp-server';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { MailMessage, Mailer } from '@tessera/core/internal';
import { OutboxMailer, SmtpMailer } from '@tessera/adapters-graph';
import { MemoryMailer } from '../http/http-harness.js';

/**
 * The Mailer port's contract (core/src/ports/mailer.ts), the same body for every implementation:
 * SMTP (nodemailer) against a real SMTP server on loopback, the data folder's outbox, and the
 * in-memory mailer of the HTTP tests. Each fixture reads back what was delivered, as text: the
 * recipient, the subject and the body (with its link) must arrive.
 */
type Fixture = { mailer: Mailer; delivered(): Promise<string[]>; close(): Promise<void> };

/** Undoes the transfer encodings of a raw message enough to read its text (quoted-printable soft breaks, =XX bytes). */
const readable = (raw: string): string =>
  Buffer.from(raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_m, h: string) => String.fromCharCode(parseInt(h, 16))), 'latin1').toString('utf8');

const smtpFixture = async (): Promise<Fixture> => {
  const received: string[] = [];
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onData(stream, _session, done) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        received.push(Buffer.concat(chunks).toString('latin1'));
        done();
      });
    },
  });
  await new Promise<void>((ok) => smtp.listen(0, '127.0.0.1', () => ok()));
  const port = (smtp.server.address() as AddressInfo).port;
  const mailer = new SmtpMailer({ host: '127.0.0.1', port, secure: false, from: 'tessera@contract.test' });
  return {
    mailer,
    // send() resolves once the server accepted the message; its onData has run by then.
    delivered: async () => received.map(readable),
    close: async () => {
      mailer.close();
      await new Promise<void>((ok) => smtp.close(() => ok()));
    },
  };
};

const outboxFixture = async (): Promise<Fixture> => {
  const dir = mkdtempSync(join(tmpdir(), 'tessera-outbox-'));
  const folder = join(dir, 'outbox');
  return {
    mailer: new OutboxMailer(folder, () => undefined),
    delivered: async () => readdirSync(folder).sort().map((f) => readFileSync(join(folder, f), 'utf8')),
    close: async () => rmSync(dir, { recursive: true, force: true }),
  };
};

const memoryFixture = async (): Promise<Fixture> => {
  const mailer = new MemoryMailer();
  return {
    mailer,
    delivered: async () => mailer.sent.map((m) => `To: ${m.to}\r\nSubject: ${m.subject}\r\n\r\n${m.text}`),
    close: async () => undefined,
  };
};

const IMPLEMENTATIONS: Array<[string, () => Promise<Fixture>]> = [
  ['SmtpMailer against a real SMTP server on loopback', smtpFixture],
  ['OutboxMailer (the data folder)', outboxFixture],
  ['MemoryMailer (the HTTP tests)', memoryFixture],
];

const message = (n: number): MailMessage => ({
  to: `user${n}@contract.test`,
  subject: `Sign in ${n}`,
  text: `Prihlásenie do organizácie Žilina ${n}: https://tessera.test/magic?o=acme&q=ml_${n}`,
  link: `https://tessera.test/magic?o=acme&q=ml_${n}`,
});

describe.each(IMPLEMENTATIONS)('Mailer contract: %s', (_name, make) => {
  let f: Fixture;
  beforeAll(async () => {
    f = await make();
  });
  afterAll(async () => f?.close());

  it('each message sent is delivered once, to its recipient, with its subject and its text (link and non-ASCII letters intact)', async () => {
    await f.mailer.send(message(1));
    await f.mailer.send(message(2));
    const delivered = await f.delivered();
    expect(delivered).toHaveLength(2);
    delivered.forEach((text, i) => {
      const m = message(i + 1);
      expect(text).toContain(`To: ${m.to}`);
      expect(text).toContain(`Subject: ${m.subject}`);
      expect(text).toContain(m.link!);
      expect(text).toContain('Prihlásenie do organizácie Žilina');
    });
  });
});
