import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openPglite } from './pglite.js';
import type { Store } from './types.js';

// The embedded store checkpoints after its transactions once enough log is written: PGlite
// has no checkpointer, and without one the write-ahead log grows with every write.
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

/** Writes about 5 × 4 MB of log in five transactions; returns the log written since the last checkpoint, in MB. */
async function writeAndMeasure(store: Store): Promise<number> {
  await store.query(`create table filler (x int, y text)`);
  for (let i = 0; i < 5; i++) {
    await store.tx(async (tx) => {
      await tx.query(`insert into filler select g, repeat('x', 200) from generate_series(1, 15000) g`);
    });
  }
  const { rows } = await store.query<{ n: number }>(`select pg_wal_lsn_diff(pg_current_wal_lsn(), checkpoint_lsn)::float8 / 1048576 as n from pg_control_checkpoint()`);
  return rows[0].n;
}

async function open(walBytes: number): Promise<Store> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sightline-wal-'));
  dirs.push(dir);
  return openPglite({ dataDir: dir, checkpoint: { everyMs: 0, walBytes } });
}

describe.skipIf(process.env.TEST_STORE === 'postgres')('embedded store log', () => {
  it('checkpoints after a transaction once the log since the last checkpoint passes the limit', async () => {
    const never = await open(Number.POSITIVE_INFINITY);
    const unbounded = await writeAndMeasure(never).finally(() => never.close());
    expect(unbounded).toBeGreaterThan(15);

    const store = await open(4 * 1024 * 1024);
    const bounded = await writeAndMeasure(store).finally(() => store.close());
    // at most one transaction's log past the limit
    expect(bounded).toBeLessThan(4 + 5);
  });
});
