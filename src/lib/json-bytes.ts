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
 * An array of numbers (a daily series, or a series of intervals: arrays of numbers) is written
 * byte by byte instead: JSON.stringify spends about 100 ns on each number that is not an
 * integer, and a year of daily series holds tens of thousands of them. Their figures have at
 * most two decimals, which are written as digits directly; any other number takes
 * JSON.stringify's own text.
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
/** An array of numbers this long or longer is written byte by byte (a shorter one costs too little to matter). */
const NUMBER_ARRAY_MIN = 8;
/** Room left before each element of an array of numbers written byte by byte: its comma and a
 * number, or an array of fewer than NUMBER_ARRAY_MIN numbers (JSON's longest number text is
 * 24 bytes), with room to spare for the closing bracket after the last. */
const ELEMENT_ROOM = 2 + NUMBER_ARRAY_MIN * 32;

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
      if (!this.current || this.current.length - this.offset < bytes) this.startBuffer(bytes);
    }
    this.offset += this.current!.write(text, this.offset, 'utf8');
  }

  /** A new buffer of at least `bytes` to write into; the current one, as far as written, joins the chunks. */
  private startBuffer(bytes: number): Buffer {
    if (this.current) this.chunks.push(this.current.subarray(0, this.offset));
    this.current = Buffer.allocUnsafeSlow(Math.max(CHUNK_BYTES, bytes));
    this.offset = 0;
    return this.current;
  }

  /**
   * The JSON of an array of numbers and nulls, some of its elements perhaps short arrays of
   * them, written byte by byte. The caller has checked the elements (isNumberArray).
   */
  addNumbers(values: readonly unknown[]): void {
    if (this.pending) this.flush();
    let out = this.current && this.current.length - this.offset >= ELEMENT_ROOM ? this.current : this.startBuffer(ELEMENT_ROOM);
    let at = this.offset;
    out[at++] = 0x5b; // [
    for (let i = 0; i < values.length; i++) {
      if (out.length - at < ELEMENT_ROOM) {
        this.offset = at;
        out = this.startBuffer(ELEMENT_ROOM);
        at = 0;
      }
      if (i > 0) out[at++] = 0x2c; // ,
      const element = values[i] as Array<number | null> | number | null;
      if (!Array.isArray(element)) {
        at = writeNumber(out, at, element);
        continue;
      }
      out[at++] = 0x5b;
      for (let j = 0; j < element.length; j++) {
        if (j > 0) out[at++] = 0x2c;
        at = writeNumber(out, at, element[j]);
      }
      out[at++] = 0x5d; // ]
    }
    out[at++] = 0x5d;
    this.offset = at;
  }

  bytes(): Buffer {
    // a short text was never written out: its bytes, of its own size
    if (!this.current) return Buffer.from(this.pending, 'utf8');
    this.flush();
    this.chunks.push(this.current.subarray(0, this.offset));
    return this.chunks.length === 1 ? this.chunks[0] : Buffer.concat(this.chunks);
  }
}

/**
 * JSON's text of a number (or null) written at `at`, returning the offset after it. A number
 * with at most two decimals and under 10^13 is written as its digits, which is the text
 * JSON.stringify gives it: it is the double nearest to n / 100, and no other decimal of two
 * places or fewer lies within its rounding (its spacing there is under 0.002). Any other
 * number (more decimals, very large, NaN or infinite) takes JSON.stringify's text.
 */
function writeNumber(out: Buffer, at: number, value: number | null): number {
  if (value === null) {
    out[at] = 0x6e; // null
    out[at + 1] = 0x75;
    out[at + 2] = 0x6c;
    out[at + 3] = 0x6c;
    return at + 4;
  }
  let hundredths = Math.round(value * 100);
  if (hundredths / 100 !== value || hundredths >= 1e15 || hundredths <= -1e15) return at + out.write(JSON.stringify(value), at, 'latin1');
  if (hundredths < 0) {
    out[at++] = 0x2d; // -
    hundredths = -hundredths;
  }
  // digits by division and subtraction (`%` on a double is a call to fmod); the rare cases
  // in functions of their own, so that this one stays small enough to be inlined (a double
  // passed to a call is boxed)
  const whole = Math.floor(hundredths / 100);
  const fraction = hundredths - whole * 100;
  if (whole < 10) out[at++] = 0x30 + whole;
  else if (whole < 100) {
    const tens = Math.floor(whole / 10);
    out[at++] = 0x30 + tens;
    out[at++] = 0x30 + whole - tens * 10;
  } else at = writeDigits(out, at, whole);
  if (fraction > 0) {
    const tenths = Math.floor(fraction / 10);
    out[at++] = 0x2e; // .
    out[at++] = 0x30 + tenths;
    if (fraction > tenths * 10) out[at++] = 0x30 + fraction - tenths * 10;
  }
  return at;
}

/** The digits of a whole number of 100 or more (under 10^13) written at `at`. */
function writeDigits(out: Buffer, at: number, whole: number): number {
  let unit = 100;
  while (unit * 10 <= whole) unit *= 10;
  let rest = whole;
  for (; unit >= 1; unit /= 10) {
    const digit = Math.floor(rest / unit);
    out[at++] = 0x30 + digit;
    rest -= digit * unit;
  }
  return at;
}

/**
 * Whether `value` is an array worth writing byte by byte: NUMBER_ARRAY_MIN elements or more,
 * each a number, null, or an array of fewer than NUMBER_ARRAY_MIN numbers and nulls (as an
 * interval's two ends).
 */
function isNumberArray(value: unknown): value is unknown[] {
  if (!Array.isArray(value) || value.length < NUMBER_ARRAY_MIN) return false;
  for (let i = 0; i < value.length; i++) {
    const element: unknown = value[i];
    if (element === null || typeof element === 'number') continue;
    if (!Array.isArray(element) || element.length >= NUMBER_ARRAY_MIN) return false;
    for (let j = 0; j < element.length; j++) {
      const inner: unknown = element[j];
      if (inner !== null && typeof inner !== 'number') return false;
    }
  }
  return true;
}

/**
 * Whether a container's members (an object's, or the first element's of an array of objects)
 * include an array of numbers: then it is walked down to them instead of stringified whole.
 */
function holdsNumberArrays(value: object): boolean {
  const subject = Array.isArray(value) ? value[0] : value;
  if (!isContainer(subject) || Array.isArray(subject)) return false;
  for (const key of Object.keys(subject)) if (isNumberArray((subject as Record<string, unknown>)[key])) return true;
  return false;
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
  if (isNumberArray(value)) {
    out.addNumbers(value);
    return;
  }
  const array = Array.isArray(value);
  // the members of this container are parts: stringified together, a slice at a time
  if ((depth + 1 >= WHOLE_DEPTH && !holdsNumberArrays(value)) || (array && !value.some(isContainer))) {
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
