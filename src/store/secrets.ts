import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Config } from '../config.js';
import type { Store } from './index.js';
import { generateWebhookSecret } from '../lib/crypto.js';

/**
 * SECRET_KEY encrypts stored keys and webhook secrets. Server mode requires it (config
 * refuses to start without); the embedded store generates one into DATA_DIR once.
 */
export function resolveSecretKey(config: Config): string {
  if (config.secretKey) return config.secretKey;
  if (config.memoryStore) return crypto.randomBytes(32).toString('hex');
  const file = path.join(config.dataDir, 'secret.key');
  try {
    return fs.readFileSync(file, 'utf8').trim();
  } catch {
    fs.mkdirSync(config.dataDir, { recursive: true });
    const secret = crypto.randomBytes(32).toString('hex');
    fs.writeFileSync(file, `${secret}\n`, { mode: 0o600, flag: 'wx' });
    return secret;
  }
}

export const ADMIN_TOKEN_FILE = 'admin.token';

/**
 * The operator API's bearer token: ADMIN_TOKEN when set. The embedded service (one
 * machine, one DATA_DIR) without it generates one into DATA_DIR once, as it does
 * SECRET_KEY, so `npm run admin` works out of the box by reading that file. Server mode
 * never generates one: several machines would each invent their own; there the operator
 * API stays off until ADMIN_TOKEN is set.
 */
export function resolveAdminToken(config: Config): { token?: string; file?: string } {
  if (config.adminToken) return { token: config.adminToken };
  if (config.databaseUrl || config.memoryStore) return {};
  const file = path.resolve(config.dataDir, ADMIN_TOKEN_FILE);
  try {
    const token = fs.readFileSync(file, 'utf8').trim();
    if (token.length >= 16) return { token, file };
  } catch {
    // not there yet: made below
  }
  fs.mkdirSync(config.dataDir, { recursive: true });
  const token = `adm_${crypto.randomBytes(24).toString('base64url')}`;
  fs.writeFileSync(file, `${token}\n`, { mode: 0o600 });
  return { token, file };
}

/**
 * The secret that signs bootstrap callbacks: CALLBACK_SIGNING_SECRET when set, else one
 * generated at first start and kept in the store (so every process signs alike).
 * `created` tells the caller to print it once.
 */
export async function resolveCallbackSecret(config: Config, store: Store): Promise<{ secret: string; created: boolean }> {
  if (config.callbackSigningSecret) return { secret: config.callbackSigningSecret, created: false };
  const candidate = generateWebhookSecret();
  const inserted = await store.query<{ value: string }>(
    `insert into settings (key, value) values ('callback_signing_secret', $1)
     on conflict (key) do nothing returning value`,
    [candidate],
  );
  if (inserted.rows.length) return { secret: candidate, created: true };
  const row = await store.query<{ value: string }>(`select value from settings where key = 'callback_signing_secret'`);
  return { secret: row.rows[0].value, created: false };
}
