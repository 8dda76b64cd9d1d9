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

/** String.prototype.isWellFormed (ES2024, in every Node this runs on): no lone surrogate. */
const wellFormed = (text: string): boolean => (text as unknown as { isWellFormed(): boolean }).isWellFormed();

function problemOf(text: string): string | null {
  // The common case at native speed: no NUL, no lone surrogate.
  if (wellFormed(text) && !text.includes('\u0000')) return null;
  if (text.includes('\u0000')) return 'must not contain the NUL character (\\u0000)';
  const lone = LONE_SURROGATE.exec(text);
  if (lone) return `must be valid Unicode text (no lone surrogate ${escaped(lone[0].charCodeAt(0))})`;
  return null;
}

const LONE_SURROGATES = new RegExp(LONE_SURROGATE.source, 'g');

/** A key as it can be shown in a path: lone surrogates written as `\udxxx`. */
function printable(key: string): string {
  return wellFormed(key) ? key : key.replace(LONE_SURROGATES, (u) => escaped(u.charCodeAt(0)));
}

/** A value met in the walk, with how it was reached: its path is written only for a value that breaks the rule. */
interface Visit {
  value: unknown;
  parent: Visit | null;
  key: string;
  inArray: boolean;
}

function pathOf(v: Visit): string {
  if (!v.parent) return '';
  const path = pathOf(v.parent);
  return v.inArray ? `${path}[${v.key}]` : path ? `${path}.${printable(v.key)}` : printable(v.key);
}

/** The first string or key of `value` that breaks the rule (depth first, in order), or null. */
export function findBadText(value: unknown): BadText | null {
  const stack: Visit[] = [{ value, parent: null, key: '', inArray: false }];
  while (stack.length) {
    const visit = stack.pop()!;
    const v = visit.value;
    if (typeof v === 'string') {
      const problem = problemOf(v);
      if (problem) return { at: pathOf(visit), problem };
    } else if (v !== null && typeof v === 'object') {
      const inArray = Array.isArray(v);
      const entries = Object.entries(v);
      // Pushed in reverse, so the first field of the request is the one reported.
      for (let i = entries.length - 1; i >= 0; i--) {
        const [k, child] = entries[i];
        stack.push({ value: child, parent: visit, key: k, inArray });
      }
      if (inArray) continue;
      for (const [k] of entries) {
        const problem = problemOf(k);
        if (problem) return { at: pathOf({ value: null, parent: visit, key: k, inArray: false }), problem };
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
