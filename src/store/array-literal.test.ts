import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../lib/random.js';
import { flatArrayLiteral, withArrayLiterals } from './array-literal.js';

const require = createRequire(import.meta.url);
// what the pg driver itself sends for a parameter
const { prepareValue } = require('pg/lib/utils.js') as { prepareValue: (value: unknown) => unknown };

const PIECES = ['a', 'Acme CRM', '"', '\\', '\\"', ',', '{', '}', 'NULL', '', ' ', 'é', '😀', "'", '\n', 'https://x.com/a?b=1&c="2"'];

describe('flatArrayLiteral', () => {
  it("is the pg driver's own literal for arrays of strings, numbers, booleans and nulls", () => {
    const random = mulberry32(31);
    for (let round = 0; round < 2_000; round++) {
      const values: unknown[] = [];
      const length = Math.floor(random() * 6);
      for (let i = 0; i < length; i++) {
        const kind = random();
        if (kind < 0.5) {
          let s = '';
          for (let k = Math.floor(random() * 4); k > 0; k--) s += PIECES[Math.floor(random() * PIECES.length)];
          values.push(s);
        } else if (kind < 0.7) values.push(Math.round((random() - 0.5) * 1e6) / (random() < 0.5 ? 1 : 1000));
        else if (kind < 0.8) values.push(random() < 0.5);
        else if (kind < 0.9) values.push(null);
        else values.push(undefined);
      }
      expect(flatArrayLiteral(values)).toBe(prepareValue(values));
    }
  });

  it('leaves to pg what is not flat: nested arrays, dates, buffers, objects', () => {
    expect(flatArrayLiteral([['a']])).toBeUndefined();
    expect(flatArrayLiteral([new Date(0)])).toBeUndefined();
    expect(flatArrayLiteral([Buffer.from('x')])).toBeUndefined();
    expect(flatArrayLiteral([{ a: 1 }])).toBeUndefined();
    const params = [1, ['a', 'b"c'], [new Date(0)], 'x'];
    const sent = withArrayLiterals(params);
    expect(sent).toEqual([1, '{"a","b\\"c"}', params[2], 'x']);
    expect(params[1]).toEqual(['a', 'b"c']); // the caller's array is not changed
    const plain = [1, 'x'];
    expect(withArrayLiterals(plain)).toBe(plain);
  });
});
