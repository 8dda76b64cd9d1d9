import { describe, expect, it } from 'vitest';
import { asAppError, Conflict, NotFound, Unavailable } from './errors.js';

describe('asAppError', () => {
  const quiet = { warn: () => {}, error: () => {} };

  it('keeps a typed error as it is', () => {
    const err = new Conflict('Already there');
    expect(asAppError(err, quiet)).toBe(err);
  });

  it('answers a store out of reach with a 503 to retry, and says so in the log', () => {
    const warned: string[] = [];
    const known = asAppError(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }), {
      warn: (_obj, msg) => warned.push(msg),
      error: () => {},
    });
    expect(known).toBeInstanceOf(Unavailable);
    expect(known).toMatchObject({ status: 503, code: 'unavailable', headers: { 'retry-after': '5' } });
    expect(warned).toEqual(['store unavailable']);
  });

  it('answers a transaction the server aborted (deadlock, serialization failure) with a 503 to retry, and an error line', () => {
    for (const code of ['40P01', '40001']) {
      const logged: string[] = [];
      const known = asAppError(Object.assign(new Error('deadlock detected'), { code }), { warn: () => {}, error: (_obj, msg) => logged.push(msg) });
      expect(known).toMatchObject({ status: 503, code: 'unavailable', headers: { 'retry-after': '5' } });
      expect(logged).toEqual(['transaction aborted by the store; answered 503']);
    }
  });

  it('answers a foreign-key violation (a record deleted meanwhile) with a 404', () => {
    const known = asAppError(Object.assign(new Error('insert violates foreign key constraint'), { code: '23503' }), quiet);
    expect(known).toBeInstanceOf(NotFound);
    expect(known).toMatchObject({ status: 404, code: 'not_found', detail: 'A record this request refers to no longer exists' });
  });

  it('leaves anything else to the surface (its own cases, then a 500)', () => {
    expect(asAppError(new Error('boom'), quiet)).toBeUndefined();
    expect(asAppError(Object.assign(new Error('duplicate'), { code: '23505' }), quiet)).toBeUndefined();
    expect(asAppError(undefined, quiet)).toBeUndefined();
    expect(asAppError(null, quiet)).toBeUndefined();
  });
});
