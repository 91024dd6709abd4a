/** Outgoing mail (the Mailer port): SMTP with nodemailer, or the data folder's outbox. */
export * from './smtp-mailer.js';
export * from './outbox-mailer.js';
export * from './mailer-from-env.js';
