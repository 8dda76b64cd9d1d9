import type { Store } from '../store/index.js';
import { utcMonth } from '../lib/time.js';

export interface KeyRecord {
  keyId: string;
  teamId: string;
  scope: 'admin' | 'viewer';
  isActive: boolean;
  expiresAt: number;
  tier: string;
  plan: string;
  creditsUsed: number;
}

/**
 * Key records by key hash, read once and trusted for `ttlMs`: the hot path of every
 * request. Changes made through this process invalidate at once; another API process
 * sees them within `ttlMs` (AUTH_CACHE_MS, 2 s by default).
 */
export class AuthCache {
  readonly #entries = new Map<string, { record: KeyRecord; until: number }>();

  constructor(
    private readonly store: Store,
    private readonly ttlMs: number,
  ) {}

  async lookup(hash: string): Promise<KeyRecord | null> {
    const now = Date.now();
    const hit = this.#entries.get(hash);
    if (hit && hit.until > now) return hit.record;
    const { rows } = await this.store.query<{
      id: string;
      team_id: string;
      scope: 'admin' | 'viewer';
      is_active: boolean;
      expires_at: Date;
      rate_limit_tier: string;
      plan: string;
      used: number | null;
    }>(
      `select k.id, k.team_id, k.scope, k.is_active, k.expires_at, t.rate_limit_tier, t.plan, c.used
         from api_keys k
         join teams t on t.id = k.team_id
         left join credit_usage c on c.team_id = k.team_id and c.month = $2
        where k.key_hash = $1`,
      [hash, utcMonth()],
    );
    const row = rows[0];
    if (!row) {
      this.#entries.delete(hash);
      return null;
    }
    const record: KeyRecord = {
      keyId: row.id,
      teamId: row.team_id,
      scope: row.scope,
      isActive: row.is_active,
      expiresAt: new Date(row.expires_at).getTime(),
      tier: row.rate_limit_tier,
      plan: row.plan,
      creditsUsed: Number(row.used ?? 0),
    };
    if (this.ttlMs > 0) {
      if (this.#entries.size > 50_000) this.#entries.clear();
      this.#entries.set(hash, { record, until: now + this.ttlMs });
    }
    return record;
  }

  /** Forget every cached key of a team (plan, tier, credits or a key changed). */
  invalidateTeam(teamId: string): void {
    for (const [hash, e] of this.#entries) if (e.record.teamId === teamId) this.#entries.delete(hash);
  }

  clear(): void {
    this.#entries.clear();
  }
}
