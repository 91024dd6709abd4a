import { join } from 'node:path';
import type { Mailer } from '@tessera/core/internal';
import { OutboxMailer } from './outbox-mailer.js';
import { SmtpMailer } from './smtp-mailer.js';

/**
 * Chooses the mailer from the environment (documented in docs/api.md, "Mail"):
 * TESSERA_SMTP_HOST set: SMTP with TESSERA_SMTP_PORT (587), TESSERA_SMTP_SECURE (false),
 * TESSERA_SMTP_USER, TESSERA_SMTP_PASSWORD, TESSERA_MAIL_FROM (tessera@localhost).
 * Otherwise the outbox folder DATA/outbox.
 */
export const mailerFromEnv = (
  env: Record<string, string | undefined>,
  dataDir: string,
  log: (line: string, link?: string) => void,
): Mailer => {
  const host = env.TESSERA_SMTP_HOST;
  if (!host) return new OutboxMailer(join(dataDir, 'outbox'), log);
  return new SmtpMailer({
    host,
    port: Number(env.TESSERA_SMTP_PORT ?? 587),
    secure: env.TESSERA_SMTP_SECURE === 'true',
    user: env.TESSERA_SMTP_USER,
    password: env.TESSERA_SMTP_PASSWORD,
    from: env.TESSERA_MAIL_FROM ?? 'tessera@localhost',
    allowInvalidCertificates: env.TESSERA_SMTP_ALLOW_INVALID_CERT === 'true',
  });
};
