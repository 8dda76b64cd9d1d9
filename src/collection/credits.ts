import { planOf } from '../lib/plans.js';
import { utcMonth } from '../lib/time.js';
import type { Tx } from '../store/index.js';

export interface AnswerKey {
  promptId: string;
  provider: string;
  day: string;
  /** Which sample of the day (1 to the project's samples_per_run). */
  sample: number;
  /** The market asked in, `US-en` (lib/markets.ts). */
  market: string;
}

/** The identity of one answer: a response is one (prompt, provider, UTC day, sample, market). */
export const answerKeyOf = (k: AnswerKey) => `${k.promptId}|${k.provider}|${k.day}|${k.sample}|${k.market}`;

/**
 * Credits (docs/decisions.md): one per stored answer, monthly allowance per plan.
 * Before a provider is asked, a hold is taken for the answer; storing the answer turns the
 * hold into a spent credit in the same transaction, a failed call releases it. Holds are
 * taken under a lock on the team row, so concurrent runs can never overspend, and a hold
 * left by a crashed run is reused when the run is retried.
 */
export async function creditState(tx: Tx, teamId: string, month = utcMonth()) {
  const { rows } = await tx.query<{ plan: string; used: number | null; held: number }>(
    `select t.plan,
            (select used from credit_usage where team_id = t.id and month = $2) as used,
            (select count(*)::int from credit_holds where team_id = t.id and month = $2) as held
       from teams t where t.id = $1`,
    [teamId, month],
  );
  const r = rows[0];
  const allowance = planOf(r?.plan ?? 'skip_trial').credits;
  const used = Number(r?.used ?? 0);
  const held = Number(r?.held ?? 0);
  return { allowance, used, held, available: Math.max(0, allowance - used - held) };
}

/** Takes holds for as many of `keys` (in order) as the team's credits allow; returns those granted. */
export async function reserveCredits(tx: Tx, teamId: string, keys: AnswerKey[]): Promise<AnswerKey[]> {
  if (keys.length === 0) return [];
  const month = utcMonth();
  await tx.query(`select id from teams where id = $1 for update`, [teamId]);
  const existing = await tx.query<{ prompt_id: string; provider: string; day: string; sample: number; market: string }>(
    `select prompt_id, provider, to_char(day, 'YYYY-MM-DD') as day, sample, market from credit_holds
      where prompt_id = any($1::uuid[]) and team_id = $2`,
    [[...new Set(keys.map((k) => k.promptId))], teamId],
  );
  const held = new Set(existing.rows.map((r) => answerKeyOf({ promptId: r.prompt_id, provider: r.provider, day: r.day, sample: r.sample, market: r.market })));
  const { available } = await creditState(tx, teamId, month);
  const granted: AnswerKey[] = [];
  const fresh: AnswerKey[] = [];
  for (const k of keys) {
    if (held.has(answerKeyOf(k))) granted.push(k);
    else if (fresh.length < available) {
      fresh.push(k);
      granted.push(k);
    }
  }
  if (fresh.length) {
    await tx.query(
      `insert into credit_holds (team_id, month, prompt_id, provider, day, sample, market)
       select $1, $2, p, v, d::date, s, m from unnest($3::uuid[], $4::text[], $5::text[], $6::int[], $7::text[]) as x(p, v, d, s, m)
       on conflict do nothing`,
      [teamId, month, fresh.map((k) => k.promptId), fresh.map((k) => k.provider), fresh.map((k) => k.day), fresh.map((k) => k.sample), fresh.map((k) => k.market)],
    );
  }
  return granted;
}

/** Drops the holds of `keys`; `spent` of them become used credits of the current month. */
export async function settleCredits(tx: Tx, teamId: string, keys: AnswerKey[], spent: number): Promise<void> {
  if (keys.length) {
    await tx.query(
      `delete from credit_holds h using unnest($1::uuid[], $2::text[], $3::text[], $4::int[], $5::text[]) as x(p, v, d, s, m)
        where h.prompt_id = x.p and h.provider = x.v and h.day = x.d::date and h.sample = x.s and h.market = x.m`,
      [keys.map((k) => k.promptId), keys.map((k) => k.provider), keys.map((k) => k.day), keys.map((k) => k.sample), keys.map((k) => k.market)],
    );
  }
  if (spent > 0) {
    await tx.query(
      `insert into credit_usage (team_id, month, used) values ($1, $2, $3)
       on conflict (team_id, month) do update set used = credit_usage.used + excluded.used`,
      [teamId, utcMonth(), spent],
    );
  }
}
