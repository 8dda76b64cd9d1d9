/**
 * PostgreSQL array literals for query parameters, built the way the pg driver builds them
 * (`{"a","b",NULL}`: every element quoted, `\` and `"` escaped), with a faster path for
 * the flat arrays of strings, numbers and booleans that batch statements send (`unnest($2::text[], ...)`):
 * pg runs two regular-expression replaces per element, here an element without `\` or `"`
 * is copied as it is. Anything else (nested arrays, dates, buffers, objects) is left to pg.
 */

/** pg's literal of `values`, or undefined when the array holds something other than strings, numbers, booleans and nulls. */
export function flatArrayLiteral(values: readonly unknown[]): string | undefined {
  let literal = '{';
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (i > 0) literal += ',';
    if (v === null || v === undefined) literal += 'NULL';
    else if (typeof v === 'string') literal += v.indexOf('"') === -1 && v.indexOf('\\') === -1 ? `"${v}"` : `"${v.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
    else if (typeof v === 'number' || typeof v === 'boolean') literal += `"${v}"`;
    else return undefined;
  }
  return `${literal}}`;
}

/** The query's parameters with their flat arrays as literals (the same text pg would send). */
export function withArrayLiterals(values: unknown[]): unknown[] {
  let out: unknown[] | null = null;
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (!Array.isArray(v)) continue;
    const literal = flatArrayLiteral(v);
    if (literal === undefined) continue;
    out ??= values.slice();
    out[i] = literal;
  }
  return out ?? values;
}
