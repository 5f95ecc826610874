import fs from 'node:fs';
import path from 'node:path';

/** Quoted-printable as nodemailer writes it: soft line breaks and =XX bytes of UTF-8. */
const decodeQuotedPrintable = (text: string) =>
  Buffer.from(
    text.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_all, hex: string) => String.fromCharCode(parseInt(hex, 16))),
    'latin1',
  ).toString('utf8');

/** The .eml files written to DATA_DIR/outbox for this address (no SMTP_URL in tests), bodies decoded. */
export function mailsTo(dataDir: string, email: string): string[] {
  const dir = path.join(dataDir, 'outbox');
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .map((f) => fs.readFileSync(path.join(dir, f), 'utf8'))
    .filter((text) => text.includes(`To: ${email}`))
    .map(decodeQuotedPrintable);
}
