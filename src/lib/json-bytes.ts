/**
 * JSON.stringify's text as UTF-8 bytes, without ever holding it as one string.
 *
 * A string of 128 KB or more is a large object to V8: it lives in pages of its own, and each
 * young-generation collection that frees one unmaps them on the request thread. An analytics
 * answer of a few hundred kilobytes left one such string per request, which made every
 * collection several milliseconds long (the collection a request met was its p99). Here the
 * value is walked down its objects and arrays, each part small enough is stringified whole
 * by JSON.stringify, and the parts are written into buffers outside the JavaScript heap: a long
 * part on its own, short ones (keys, commas) gathered into strings of at most PENDING_CHARS
 * first. jsonPayload leaves a short text a string.
 *
 * The bytes are exactly Buffer.from(JSON.stringify(value)): keys in Object.keys order,
 * toJSON honoured, undefined, functions and symbols dropped from objects and null in arrays.
 */

/** The members of a container this deep are stringified whole, a slice of them at a time. */
const WHOLE_DEPTH = 3;
/** The length a slice of an array aims at (its elements' length so far decides how many it takes). */
const SLICE_CHARS = 16 * 1024;
/** At most this many members in one slice. */
const SLICE_MEMBERS = 4096;
/** Parts are joined up to this many characters before being written out (well under 128 KB). */
const PENDING_CHARS = 32 * 1024;
/**
 * A part this long is written out on its own, never joined: joined parts are a rope that V8
 * copies into one flat string to write it, and a page of chats is mostly long parts.
 */
const DIRECT_CHARS = 1024;
/** The size of each buffer written into: several flushes (a flush longer than that gets a buffer of its own size). */
const CHUNK_BYTES = 256 * 1024;

class ByteChunks {
  private readonly chunks: Buffer[] = [];
  private current: Buffer | null = null;
  private offset = 0;
  private pending = '';

  add(part: string): void {
    if (part.length < DIRECT_CHARS) {
      this.pending += part;
      if (this.pending.length >= PENDING_CHARS) this.flush();
      return;
    }
    if (this.pending) this.flush();
    this.writeOut(part);
  }

  private flush(): void {
    const text = this.pending;
    this.pending = '';
    this.writeOut(text);
  }

  private writeOut(text: string): void {
    // a UTF-16 code unit is at most 3 bytes of UTF-8: the exact count only when that may not fit
    if (!this.current || this.current.length - this.offset < text.length * 3) {
      const bytes = Buffer.byteLength(text, 'utf8');
      if (!this.current || this.current.length - this.offset < bytes) {
        if (this.current) this.chunks.push(this.current.subarray(0, this.offset));
        this.current = Buffer.allocUnsafeSlow(Math.max(CHUNK_BYTES, bytes));
        this.offset = 0;
      }
    }
    this.offset += this.current.write(text, this.offset, 'utf8');
  }

  bytes(): Buffer {
    // a short text was never written out: its bytes, of its own size
    if (!this.current) return Buffer.from(this.pending, 'utf8');
    this.flush();
    this.chunks.push(this.current.subarray(0, this.offset));
    return this.chunks.length === 1 ? this.chunks[0] : Buffer.concat(this.chunks);
  }
}

const isRawJson = (JSON as { isRawJSON?: (v: unknown) => boolean }).isRawJSON ?? (() => false);

/** An array, or an object whose text is its own enumerable keys (not a Date, a boxed primitive or raw JSON). */
function isContainer(v: unknown): v is object {
  if (typeof v !== 'object' || v === null) return false;
  if (Array.isArray(v)) return true;
  const proto = Object.getPrototypeOf(v);
  return (proto === Object.prototype || proto === null) && typeof (v as { toJSON?: unknown }).toJSON !== 'function' && !isRawJson(v);
}

/**
 * Whether the text of `value` is shorter than about `budget` characters, by a walk that stops
 * once it is past (a rough count: strings by their length, other values by a few characters;
 * escapes may make a text longer, so the budget stays well under a large object's size).
 */
function shorterThan(value: unknown, budget: number): boolean {
  let left = budget;
  const visit = (v: unknown): boolean => {
    if (typeof v === 'string') left -= v.length + 2;
    else if (!isContainer(v)) left -= 24;
    else if (Array.isArray(v)) {
      left -= 2;
      for (const element of v) if (!visit(element) || --left < 0) return false;
    } else {
      left -= 2;
      for (const key of Object.keys(v)) {
        left -= key.length + 4;
        if (!visit((v as Record<string, unknown>)[key])) return false;
      }
    }
    return left > 0;
  };
  return visit(value);
}

function write(value: unknown, depth: number, out: ByteChunks): void {
  if (!isContainer(value)) {
    const text = JSON.stringify(value);
    if (text !== undefined) out.add(text);
    return;
  }
  const array = Array.isArray(value);
  // the members of this container are parts: stringified together, a slice at a time
  if (depth + 1 >= WHOLE_DEPTH || (array && !value.some(isContainer))) {
    if (array) writeSlices(value, out);
    else writeMemberSlices(value as Record<string, unknown>, out);
    return;
  }
  out.add(array ? '[' : '{');
  let first = true;
  if (array) {
    for (const element of value) {
      if (!first) out.add(',');
      first = false;
      if (isContainer(element)) write(element, depth + 1, out);
      else out.add(JSON.stringify(element) ?? 'null');
    }
  } else {
    for (const key of Object.keys(value)) {
      const member = (value as Record<string, unknown>)[key];
      if (member === undefined || typeof member === 'function' || typeof member === 'symbol') continue;
      out.add(first ? `${JSON.stringify(key)}:` : `,${JSON.stringify(key)}:`);
      first = false;
      write(member, depth + 1, out);
    }
  }
  out.add(array ? ']' : '}');
}

/**
 * How many members the next slice takes: as many as make SLICE_CHARS at the last slice's length
 * per member, at most 8 times as many as it took (one short member is no measure of the rest).
 */
const nextTake = (taken: number, chars: number) =>
  Math.min(SLICE_MEMBERS, taken * 8, Math.max(1, Math.floor((SLICE_CHARS * taken) / Math.max(chars, 1))));

/** An array whose elements are stringified whole, a slice at a time (the first of one element). */
function writeSlices(value: unknown[], out: ByteChunks): void {
  out.add('[');
  let take = 1;
  for (let i = 0; i < value.length; ) {
    const taken = Math.min(take, value.length - i);
    const text = JSON.stringify(taken === value.length ? value : value.slice(i, i + taken));
    // the comma apart: joined to the slice, the two would be a rope to copy
    if (i > 0) out.add(',');
    out.add(text.slice(1, -1));
    i += taken;
    take = nextTake(taken, text.length);
  }
  out.add(']');
}

/** An object whose members are stringified whole, a slice of its keys at a time. */
function writeMemberSlices(value: Record<string, unknown>, out: ByteChunks): void {
  const keys = Object.keys(value);
  out.add('{');
  let first = true;
  let take = 1;
  for (let i = 0; i < keys.length; ) {
    const taken = Math.min(take, keys.length - i);
    const slice: Record<string, unknown> = {};
    for (let k = i; k < i + taken; k++) {
      const key = keys[k];
      // a key `__proto__` is a member like any other (an assignment would set the prototype)
      if (key === '__proto__') Object.defineProperty(slice, key, { value: value[key], enumerable: true, writable: true, configurable: true });
      else slice[key] = value[key];
    }
    const text = JSON.stringify(slice);
    // members JSON leaves out (undefined, functions) may leave a slice empty
    if (text.length > 2) {
      if (!first) out.add(',');
      out.add(text.slice(1, -1));
      first = false;
    }
    i += taken;
    take = nextTake(taken, text.length);
  }
  out.add('}');
}

/** Buffer.from(JSON.stringify(value)) for a value JSON.stringify turns into text (an object or an array). */
export function jsonBytes(value: object): Buffer {
  const out = new ByteChunks();
  write(value, 0, out);
  return out.bytes();
}

/** Below this many characters a text is one string (no large object), stringified at once. */
const SHORT_CHARS = 48 * 1024;

/**
 * JSON.stringify(value) for a value whose text is surely short (its string then), else
 * jsonBytes(value): what most answers cost stays JSON.stringify's alone, and a long one never
 * becomes one string.
 */
export function jsonPayload(value: object): string | Buffer {
  return shorterThan(value, SHORT_CHARS) ? JSON.stringify(value) : jsonBytes(value);
}
