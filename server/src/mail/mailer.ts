import fs from 'node:fs/promises';
import path from 'node:path';
import nodemailer, { type Transporter } from 'nodemailer';
import type { Log } from '../lib/logger';

export interface Email {
  to: string;
  subject: string;
  text: string;
  html: string;
}

export interface Mailer {
  send(email: Email): Promise<void>;
  close(): void;
}

/**
 * With SMTP_URL set, mail goes out over SMTP. Without it (the embedded default) each message is
 * written as a complete RFC 822 file to DATA_DIR/outbox and logged, so a single-machine install
 * can still hand a reset link to its user, and nothing is silently dropped.
 */
export function createMailer(options: { smtpUrl: string | null; from: string; outboxDir: string; log: Log }): Mailer {
  if (options.smtpUrl) {
    const transport: Transporter = nodemailer.createTransport(options.smtpUrl);
    return {
      async send(email) {
        await transport.sendMail({ from: options.from, ...email });
      },
      close: () => transport.close(),
    };
  }
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    async send(email) {
      const info = await transport.sendMail({ from: options.from, ...email });
      await fs.mkdir(options.outboxDir, { recursive: true });
      const file = path.join(options.outboxDir, `${new Date().toISOString().replace(/[:.]/g, '-')}-${info.messageId.replace(/[^\w.-]/g, '')}.eml`);
      await fs.writeFile(file, info.message as Buffer);
      options.log.info({ to: email.to, subject: email.subject, file }, 'email written to outbox (set SMTP_URL to send it)');
    },
    close: () => transport.close(),
  };
}
