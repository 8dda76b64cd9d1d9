import { Writable } from 'node:stream';
import pino from 'pino';
import { describe, expect, it, vi } from 'vitest';
import { lazyChildLoggerFactory } from './lazy-logger.js';

function capture(level: string) {
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk, _enc, done) {
      for (const l of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(l));
      done();
    },
  });
  return { lines, log: pino({ level, redact: ['token'] }, sink) };
}

describe('the lazy request logger', () => {
  it('makes no child while nothing is written at an enabled level', () => {
    const { log } = capture('warn');
    const child = vi.spyOn(log, 'child');
    const req = lazyChildLoggerFactory(log, { request_id: 'r1' }, {});
    req.info({ a: 1 }, 'below the level');
    req.debug('below too');
    expect((req as unknown as { isLevelEnabled(l: string): boolean }).isLevelEnabled('info')).toBe(false);
    expect(req.level).toBe('warn');
    expect(child).not.toHaveBeenCalled();
  });

  it('writes exactly what pino child would, made once on first use', async () => {
    const { log, lines } = capture('info');
    const child = vi.spyOn(log, 'child');
    const req = lazyChildLoggerFactory(log, { request_id: 'r2' }, {});
    req.info({ token: 'secret', n: 1 }, 'first');
    req.warn('second');
    expect(child).toHaveBeenCalledTimes(1);
    req.child({ job: 'x' }).error('third');
    await new Promise((r) => setImmediate(r));
    expect(lines.map((l) => [l.msg, l.request_id, l.level])).toEqual([
      ['first', 'r2', 30],
      ['second', 'r2', 40],
      ['third', 'r2', 50],
    ]);
    expect(lines[0]).toMatchObject({ token: '[Redacted]', n: 1 });
    expect(lines[2]).toMatchObject({ job: 'x' });
  });

  it('a route with its own level gets its child at once', () => {
    const { log } = capture('warn');
    const req = lazyChildLoggerFactory(log, { request_id: 'r3' }, { level: 'debug' });
    expect(req.level).toBe('debug');
    expect((req as unknown as pino.Logger).isLevelEnabled('debug')).toBe(true);
  });
});
