import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/**
 * Encrypts secrets at rest with AES-256-GCM (authenticated: a tampered value fails to open).
 * Stored form: "v1:<iv>:<tag>:<ciphertext>", base64url parts.
 */
export class SecretBox {
  constructor(private readonly key: Buffer) {
    if (key.length !== 32) throw new Error('The secrets key must be 32 bytes (base64 in SECRETS_KEY)');
  }

  seal(plain: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return ['v1', iv, cipher.getAuthTag(), data].map((p) => (typeof p === 'string' ? p : p.toString('base64url'))).join(':');
  }

  /**
   * A key for one purpose (e.g. the test checkout's webhook secret), derived from this one: every
   * process with the same SECRETS_KEY derives the same, and it reveals nothing of the key itself.
   */
  derive(purpose: string): Buffer {
    return createHmac('sha256', this.key).update(`stepwise:${purpose}`).digest();
  }

  open(sealed: string): string {
    const [version, iv, tag, data] = sealed.split(':');
    if (version !== 'v1' || !iv || !tag || data === undefined) throw new Error('Not a sealed secret');
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8');
  }
}

/** SECRETS_KEY when set; otherwise the key in DATA_DIR/secrets.key, made on first use. */
export function loadSecretBox(secretsKey: string | null, dataDir: string): SecretBox {
  if (secretsKey) return new SecretBox(Buffer.from(secretsKey, 'base64'));
  const file = path.join(dataDir, 'secrets.key');
  if (!fs.existsSync(file)) {
    fs.mkdirSync(dataDir, { recursive: true });
    try {
      fs.writeFileSync(file, randomBytes(32).toString('base64'), { mode: 0o600, flag: 'wx' });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
  }
  return new SecretBox(Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'base64'));
}
