import fs from 'node:fs';
import path from 'node:path';
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export interface UploadToken {
  /** The last segment of the storage key: the id of the upload (and of the file it becomes). */
  id: string;
  expiresAt: Date;
  mac: string;
}

/**
 * Signed, expiring direct-upload tokens for the local backend: `<id>.<expiry>.<HMAC-SHA256 over
 * the full storage key and the expiry>`. The route that accepts them is public (the PUT is made
 * without a bearer token, like a presigned S3 URL), so the signature is the authorisation. The
 * token stays short enough for a path parameter; the key it is bound to comes from the database.
 */
export class UploadTokenSigner {
  constructor(private readonly secret: Buffer) {}

  /**
   * The key lives beside the stored objects: every process that can write the local folder shares
   * it, and it survives restarts (a token handed out before a restart still works).
   */
  static forDir(dir: string): UploadTokenSigner {
    const file = path.join(dir, '.upload-signing-key');
    fs.mkdirSync(dir, { recursive: true });
    try {
      fs.writeFileSync(file, randomBytes(32).toString('base64'), { flag: 'wx', mode: 0o600 });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    return new UploadTokenSigner(Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'base64'));
  }

  sign(key: string, expiresAt: Date): string {
    const id = key.split('/').pop()!;
    const expiry = Math.floor(expiresAt.getTime() / 1000);
    return `${id}.${expiry}.${this.mac(key, expiry)}`;
  }

  /** The token's parts, or null when it cannot be one of ours. Check it with `verify`. */
  parse(token: string): UploadToken | null {
    const match = /^([0-9a-zA-Z-]{1,64})\.(\d{1,12})\.([\w-]{43})$/.exec(token);
    return match ? { id: match[1], expiresAt: new Date(Number(match[2]) * 1000), mac: match[3] } : null;
  }

  /** 'ok' when we signed this token for this key; 'expired' after its time; else 'invalid'. */
  verify(token: UploadToken, key: string, now = new Date()): 'ok' | 'expired' | 'invalid' {
    const expected = Buffer.from(this.mac(key, Math.floor(token.expiresAt.getTime() / 1000)));
    const given = Buffer.from(token.mac);
    if (key.split('/').pop() !== token.id || expected.length !== given.length || !timingSafeEqual(expected, given)) return 'invalid';
    return token.expiresAt.getTime() < now.getTime() ? 'expired' : 'ok';
  }

  private mac(key: string, expiry: number): string {
    return createHmac('sha256', this.secret).update(`${key}\n${expiry}`).digest('base64url');
  }
}
