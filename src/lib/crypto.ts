import crypto from 'node:crypto';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** Uniform random base62 string (rejection sampling: no modulo bias). */
export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of crypto.randomBytes(length * 2)) {
      if (byte < 248) out += BASE62[byte % 62];
      if (out.length === length) break;
    }
  }
  return out;
}

export const KEY_PREFIX = 'tk_live_';

export function generateApiKey(): { key: string; prefix: string; hash: string } {
  const key = KEY_PREFIX + randomBase62(32);
  return { key, prefix: key.slice(0, 12), hash: hashApiKey(key) };
}

// crypto.hash, not createHash: these run on every request (the key) and for every domain
// or brand of an answer (stableUuid), and each createHash leaves a native object that the
// young generation's collection must finalise one by one (docs/analytics.md, "The
// embedded store's pauses"). The one-shot hash makes none; the digest is the same.
export function hashApiKey(key: string): string {
  return crypto.hash('sha256', key, 'hex');
}

export function generatePassword(): string {
  return randomBase62(24);
}

const SCRYPT = { N: 16384, r: 8, p: 1, keylen: 32 };

export async function hashPassword(password: string): Promise<string> {
  const salt = crypto.randomBytes(16);
  const hash = await scrypt(password, salt);
  return `scrypt$${SCRYPT.N}$${SCRYPT.r}$${SCRYPT.p}$${salt.toString('base64')}$${hash.toString('base64')}`;
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [alg, n, r, p, salt, hash] = stored.split('$');
  if (alg !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64');
  const actual = await scrypt(password, Buffer.from(salt, 'base64'), { N: +n, r: +r, p: +p });
  return expected.length === actual.length && crypto.timingSafeEqual(expected, actual);
}

function scrypt(password: string, salt: Buffer, o: { N: number; r: number; p: number } = SCRYPT): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    crypto.scrypt(password, salt, SCRYPT.keylen, { N: o.N, r: o.r, p: o.p }, (err, key) =>
      err ? reject(err) : resolve(key),
    ),
  );
}

/** AES-256-GCM under a key derived from SECRET_KEY; output `v1:<iv>:<tag>:<data>` base64url. */
export class SecretBox {
  readonly #key: Buffer;

  constructor(secret: string) {
    this.#key = Buffer.from(crypto.hkdfSync('sha256', secret, 'sightline', 'secret-box-v1', 32));
  }

  seal(plain: string): string {
    const iv = crypto.randomBytes(12);
    const cipher = crypto.createCipheriv('aes-256-gcm', this.#key, iv);
    const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return ['v1', iv, cipher.getAuthTag(), data].map((x) => (typeof x === 'string' ? x : x.toString('base64url'))).join(':');
  }

  open(sealed: string): string {
    const [v, iv, tag, data] = sealed.split(':');
    if (v !== 'v1') throw new Error('Unknown sealed-secret version');
    const decipher = crypto.createDecipheriv('aes-256-gcm', this.#key, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8');
  }
}

/** A Standard Webhooks style secret: `whsec_` + base64 of 24 random bytes. */
export function generateWebhookSecret(): string {
  return `whsec_${crypto.randomBytes(24).toString('base64')}`;
}

/** Name-based UUID (v5 layout over SHA-1): the same inputs always give the same id. */
export function stableUuid(...parts: string[]): string {
  const h = crypto.hash('sha1', parts.join('\u0000'), 'buffer');
  h[6] = (h[6] & 0x0f) | 0x50;
  h[8] = (h[8] & 0x3f) | 0x80;
  const x = h.subarray(0, 16).toString('hex');
  return `${x.slice(0, 8)}-${x.slice(8, 12)}-${x.slice(12, 16)}-${x.slice(16, 20)}-${x.slice(20)}`;
}
