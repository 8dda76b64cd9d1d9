import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { replicaUnavailable } from './read-replica.js';
import { parseLsn, ReplayLag } from './replica-lag.js';

describe('WAL positions', () => {
  it('reads PostgreSQL’s text form into numbers that order as the positions do', () => {
    expect(parseLsn('0/0')).toBe(0n);
    expect(parseLsn('0/16B3748')).toBe(0x16b3748n);
    expect(parseLsn('16/B374D848')).toBe((0x16n << 32n) | 0xb374d848n);
    expect(parseLsn('1/0') > parseLsn('0/FFFFFFFF')).toBe(true);
    for (const bad of ['', '16', '16/', '/1', 'G/1', '1/2/3', '123456789/0']) expect(() => parseLsn(bad), bad).toThrow(/not a WAL position/);
  });
});

describe('replay lag', () => {
  it('is the age of the oldest primary position not replayed yet, and zero once replayed', () => {
    const lag = new ReplayLag();
    lag.primaryAt(1_000, 100n);
    expect(lag.replayedTo(100n, 1_200)).toBe(0);
    lag.primaryAt(2_000, 150n);
    lag.primaryAt(3_000, 200n);
    expect(lag.replayedTo(100n, 3_500)).toBe(1_500); // 150 (written at 2 000) is missing
    expect(lag.replayedTo(160n, 3_600)).toBe(600); // 150 is there, 200 (at 3 000) is not
    expect(lag.replayedTo(200n, 3_700)).toBe(0);
  });

  it('does not grow while the primary writes nothing, and keeps the first time a position was seen', () => {
    const lag = new ReplayLag();
    lag.primaryAt(1_000, 100n);
    lag.primaryAt(2_000, 100n); // idle: the same position again
    lag.primaryAt(3_000, 100n);
    expect(lag.replayedTo(90n, 3_000)).toBe(2_000);
    expect(lag.replayedTo(100n, 60_000)).toBe(0);
    lag.primaryAt(61_000, 100n);
    expect(lag.replayedTo(100n, 90_000)).toBe(0);
  });

  it('stays bounded while the replica never catches up, and still measures from the oldest position', () => {
    const lag = new ReplayLag();
    for (let i = 1; i <= 10_000; i++) lag.primaryAt(i * 1_000, BigInt(i));
    expect(lag.replayedTo(0n, 10_001_000)).toBe(10_000_000);
    expect(lag.replayedTo(10_000n, 10_001_000)).toBe(0);
  });
});

describe('which replica errors open the breaker', () => {
  it('unreachable, shutting down, refusing, too slow or misconfigured: yes; one query’s own trouble: no', () => {
    const coded = (code: string) => Object.assign(new pg.DatabaseError(code, 0, 'error'), { code });
    for (const err of [
      Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5433'), { code: 'ECONNREFUSED' }),
      Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }),
      new Error('Connection terminated unexpectedly'),
      new Error('timeout exceeded when trying to connect'),
      new Error('Query read timeout'),
      coded('57P01'), // admin_shutdown (pg_ctl stop -m fast)
      coded('57P03'), // cannot_connect_now (starting up)
      coded('57014'), // statement timeout
      coded('08006'),
      coded('53300'), // too many connections
      coded('3D000'), // no such database on the replica
      coded('28P01'),
    ]) {
      expect(replicaUnavailable(err), err.message).toBe(true);
    }
    for (const code of ['40001', '22P02', '42P01']) expect(replicaUnavailable(coded(code)), code).toBe(false);
  });
});
