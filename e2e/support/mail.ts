import fs from 'node:fs';
import path from 'node:path';

// Without SMTP_URL the server writes every message as an .eml file into DATA_DIR/outbox. The
// sending is not awaited by the request, so the file may appear a moment after the response.

/** Soft line breaks (`=` at a line end) removed and `=XX` escapes decoded: the readable text of
 *  a quoted-printable message. Harmless on the parts that are not encoded. */
export function decodeQuotedPrintable(raw: string): string {
  const unfolded = raw.replace(/=\r?\n/g, '');
  const bytes: number[] = [];
  for (let i = 0; i < unfolded.length; i++) {
    const escape = unfolded[i] === '=' ? /^[0-9A-F]{2}$/.exec(unfolded.slice(i + 1, i + 3)) : null;
    if (escape) {
      bytes.push(parseInt(escape[0], 16));
      i += 2;
    } else {
      bytes.push(...Buffer.from(unfolded[i], 'utf8'));
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

/** Waits for the first message to `to` in the outbox and answers its decoded text. */
export async function waitForEmail(dataDir: string, to: string, timeoutMs = 10_000): Promise<string> {
  const outbox = path.join(dataDir, 'outbox');
  const deadline = Date.now() + timeoutMs;
  const recipient = new RegExp(`^To:.*${to.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`, 'im');
  for (;;) {
    const files = fs.existsSync(outbox)
      ? fs
          .readdirSync(outbox)
          .filter((f) => f.endsWith('.eml'))
          .sort()
      : [];
    for (const file of files) {
      const raw = fs.readFileSync(path.join(outbox, file), 'utf8');
      if (recipient.test(raw)) return decodeQuotedPrintable(raw);
    }
    if (Date.now() > deadline) throw new Error(`No email to ${to} in ${outbox} after ${timeoutMs} ms (files: ${files.join(', ') || 'none'})`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The password reset link in a decoded message. */
export function resetLinkIn(message: string): string {
  const match = /https?:\/\/[^\s"'<>]+\/reset-password\?token=[^\s"'<>&]+/.exec(message);
  if (!match) throw new Error(`No reset link in the email:\n${message}`);
  return match[0];
}
