/** A WAL position as PostgreSQL prints it (`16/B374D848`), as a number that orders. */
export function parseLsn(text: string): bigint {
  const m = /^([0-9A-Fa-f]{1,8})\/([0-9A-Fa-f]{1,8})$/.exec(text.trim());
  if (!m) throw new Error(`not a WAL position: ${JSON.stringify(text)}`);
  return (BigInt(`0x${m[1]}`) << 32n) | BigInt(`0x${m[2]}`);
}

/** Samples kept while the replica stays behind: enough for an hour at one a second. */
const MAX_SAMPLES = 4_000;

/**
 * How far, in time, a replica is behind its primary. Each probe reads the primary's WAL
 * position (`pg_current_wal_lsn()`) first, then the replica's replay position
 * (`pg_last_wal_replay_lsn()`); the replica is behind by the age of the oldest primary
 * position it has not replayed yet. Unlike `now() - pg_last_xact_replay_timestamp()`, this
 * does not grow while the primary is idle (nothing to replay is no lag), and it needs no
 * clock shared by the two servers: both times are this process's. Its resolution is the
 * probe interval.
 */
export class ReplayLag {
  readonly #samples: { at: number; lsn: bigint }[] = [];

  /** The primary was at `lsn` at time `at` (ms). */
  primaryAt(at: number, lsn: bigint): void {
    const last = this.#samples.at(-1);
    if (last && last.lsn >= lsn) return; // nothing written since: the older sample says more
    if (this.#samples.length >= MAX_SAMPLES) this.#samples.splice(1, 1); // keep the oldest: it is the lag
    this.#samples.push({ at, lsn });
  }

  /** The replica has replayed up to `lsn`; returns its lag at time `now` (ms). */
  replayedTo(lsn: bigint, now: number): number {
    while (this.#samples.length && this.#samples[0].lsn <= lsn) this.#samples.shift();
    const oldest = this.#samples[0];
    return oldest ? Math.max(0, now - oldest.at) : 0;
  }
}
