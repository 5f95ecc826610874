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
  /** Resolves once every message asked for so far is sent or has failed (callers may not await send). */
  settled(): Promise<void>;
  /** Waits for the messages still being sent, then lets go of the connection. */
  close(): Promise<void>;
}

/**
 * Keeps count of the messages being sent: a password reset is sent after its answer, so without this
 * closing the app (a deploy, a test) could cut a message off.
 */
function tracked(send: (email: Email) => Promise<void>, closeTransport: () => void): Mailer {
  const sending = new Set<Promise<void>>();
  const settled = async () => {
    while (sending.size) await Promise.allSettled([...sending]);
  };
  return {
    send(email) {
      const message = send(email);
      const entry = message.then(
        () => undefined,
        () => undefined,
      );
      sending.add(entry);
      void entry.then(() => sending.delete(entry));
      return message;
    },
    settled,
    async close() {
      await settled();
      closeTransport();
    },
  };
}

/**
 * With SMTP_URL set, mail goes out over SMTP. Without it (the embedded default) each message is
 * written as a complete RFC 822 file to DATA_DIR/outbox and logged, so a single-machine install
 * can still hand a reset link to its user, and nothing is silently dropped.
 */
export function createMailer(options: { smtpUrl: string | null; from: string; outboxDir: string; log: Log }): Mailer {
  if (options.smtpUrl) {
    const transport: Transporter = nodemailer.createTransport(options.smtpUrl);
    return tracked(
      async (email) => {
        await transport.sendMail({ from: options.from, ...email });
      },
      () => transport.close(),
    );
  }
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return tracked(
    async (email) => {
      const info = await transport.sendMail({ from: options.from, ...email });
      await fs.mkdir(options.outboxDir, { recursive: true });
      const file = path.join(options.outboxDir, `${new Date().toISOString().replace(/[:.]/g, '-')}-${info.messageId.replace(/[^\w.-]/g, '')}.eml`);
      await fs.writeFile(file, info.message as Buffer);
      options.log.info({ to: email.to, subject: email.subject, file }, 'email written to outbox (set SMTP_URL to send it)');
    },
    () => transport.close(),
  );
}
