/**
 * The one rule for text a request may carry (every string and object key of a body, a query
 * or a path): valid Unicode, and no U+0000. PostgreSQL stores neither a NUL (text and jsonb
 * refuse it) nor a lone UTF-16 surrogate (text turns it into U+FFFD, so a look-up by the
 * stored text misses; jsonb refuses it with 22P02): let through, either became a 500 or a
 * silently changed value. JSON's `"\ud800"` escape is how a lone surrogate arrives.
 */

// A high surrogate not followed by a low one, or a low one not preceded by a high one.
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

export interface BadText {
  /** Field path as a person reads it (`prompts[0]`, `execution.params.tone`), '' for the value itself. */
  at: string;
  /** What is wrong, finishing the sentence "<field> must …". */
  problem: string;
}

/** `\ud800` for a UTF-16 code unit: how a lone surrogate is shown back (it cannot be printed). */
const escaped = (unit: number) => `\\u${unit.toString(16).padStart(4, '0')}`;

function problemOf(text: string): string | null {
  if (text.includes('\u0000')) return 'must not contain the NUL character (\\u0000)';
  const lone = LONE_SURROGATE.exec(text);
  if (lone) return `must be valid Unicode text (no lone surrogate ${escaped(lone[0].charCodeAt(0))})`;
  return null;
}

/** A key as it can be shown in a path: lone surrogates written as `\udxxx`. */
function printable(key: string): string {
  return key.replace(new RegExp(LONE_SURROGATE.source, 'g'), (u) => escaped(u.charCodeAt(0)));
}

/** The first string or key of `value` that breaks the rule (depth first, in order), or null. */
export function findBadText(value: unknown): BadText | null {
  const stack: Array<[unknown, string]> = [[value, '']];
  while (stack.length) {
    const [v, path] = stack.pop()!;
    if (typeof v === 'string') {
      const problem = problemOf(v);
      if (problem) return { at: path, problem };
    } else if (v !== null && typeof v === 'object') {
      const entries = Object.entries(v);
      // Pushed in reverse, so the first field of the request is the one reported.
      for (let i = entries.length - 1; i >= 0; i--) {
        const [k, child] = entries[i];
        const at = Array.isArray(v) ? `${path}[${k}]` : path ? `${path}.${printable(k)}` : printable(k);
        stack.push([child, at]);
      }
      for (const [k] of entries) {
        const problem = Array.isArray(v) ? null : problemOf(k);
        if (problem) return { at: path ? `${path}.${printable(k)}` : printable(k), problem };
      }
    }
  }
  return null;
}

/** Offset of the first byte that is not part of well-formed UTF-8, or -1 (RFC 3629: no overlongs, no surrogates). */
export function firstInvalidUtf8(b: Uint8Array): number {
  for (let i = 0; i < b.length; ) {
    const c = b[i];
    if (c < 0x80) {
      i++;
      continue;
    }
    const n = c >= 0xc2 && c <= 0xdf ? 1 : c >= 0xe0 && c <= 0xef ? 2 : c >= 0xf0 && c <= 0xf4 ? 3 : 0;
    if (n === 0 || i + n >= b.length) return i;
    let cp = c & (0x3f >> n);
    for (let k = 1; k <= n; k++) {
      if ((b[i + k] & 0xc0) !== 0x80) return i;
      cp = (cp << 6) | (b[i + k] & 0x3f);
    }
    const min = [0, 0x80, 0x800, 0x10000][n];
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return i;
    i += n + 1;
  }
  return -1;
}
