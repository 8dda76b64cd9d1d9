import { Worker } from 'node:worker_threads';
import zlib from 'node:zlib';

/**
 * A text (a stored answer's JSON lines, `packText`) kept as bytes: one format byte, then the text, plain
 * (PLAIN, what a SQL migration can write) or brotli-compressed (BROTLI, what the application writes). Quality 5
 * with a 64 KB window: on stored answers it compresses markedly better than quality 1 for
 * little more time, and 6 and above are no smaller and slower.
 */
export const PLAIN = 0;
export const BROTLI = 1;

const PARAMS = {
  [zlib.constants.BROTLI_PARAM_QUALITY]: 5,
  [zlib.constants.BROTLI_PARAM_LGWIN]: 16,
  [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
};
const OPTIONS = (size: number): zlib.BrotliOptions => ({ params: { ...PARAMS, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: size } });

function packBytes(text: Buffer): Buffer {
  const packed = zlib.brotliCompressSync(text, OPTIONS(text.length));
  const out = Buffer.allocUnsafe(packed.length + 1);
  out[0] = BROTLI;
  packed.copy(out, 1);
  return out;
}

/** A text kept as bytes (BROTLI), read back with unpackBytes. */
export function packText(text: string): Buffer {
  return packBytes(Buffer.from(text, 'utf8'));
}

// packTexts' compressor: a worker thread running packBytes' code on texts, a batch
// per message (what it sends back are new buffers, handed over rather than copied).
const PACKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const zlib = require('node:zlib');
parentPort.on('message', ({ id, texts }) => {
  try {
    const out = texts.map((text) => {
      const bytes = Buffer.from(text, 'utf8');
      const packed = zlib.brotliCompressSync(bytes, { params: { ...workerData.params, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: bytes.length } });
      const framed = new Uint8Array(packed.length + 1);
      framed[0] = ${BROTLI};
      framed.set(packed, 1);
      return framed;
    });
    parentPort.postMessage({ id, out }, out.map((b) => b.buffer));
  } catch (e) {
    parentPort.postMessage({ id, error: String((e && e.message) || e) });
  }
});`;

/** Below this many values a batch is packed in place: the round trip to the worker costs more. */
const INLINE_BATCH = 16;

interface Pending {
  resolve: (packed: Buffer[]) => void;
  reject: (e: Error) => void;
}
let packer: { worker: Worker; pending: Map<number, Pending> } | null = null;
let nextBatch = 0;

function startPacker(): NonNullable<typeof packer> {
  if (packer) return packer;
  const worker = new Worker(PACKER_SOURCE, { eval: true, workerData: { params: PARAMS } });
  const pending = new Map<number, Pending>();
  const self = { worker, pending };
  const fail = (e: Error) => {
    if (packer === self) packer = null; // the next batch starts a new worker
    for (const p of pending.values()) p.reject(e);
    pending.clear();
  };
  worker.on('message', (m: { id: number; out?: Uint8Array[]; error?: string }) => {
    const p = pending.get(m.id);
    pending.delete(m.id);
    if (pending.size === 0) worker.unref(); // an idle worker never keeps the process alive
    if (m.error !== undefined) p?.reject(new Error(m.error));
    else p?.resolve(m.out!.map((u) => Buffer.from(u.buffer, u.byteOffset, u.byteLength)));
  });
  worker.on('error', fail);
  worker.on('exit', (code) => fail(new Error(`the JSON packer thread exited (${code})`)));
  worker.unref();
  packer = self;
  return self;
}

/**
 * packText of each text, the same bytes; a large batch is compressed on a worker thread: a
 * batch of answers (hundreds a day) then holds neither the event loop nor the writer's
 * transaction, and the compression runs on another core while the caller goes on
 * (storeAnswers looks up the cited pages meanwhile).
 */
export function packTexts(texts: string[]): Promise<Buffer[]> {
  if (texts.length < INLINE_BATCH) return Promise.resolve(texts.map(packText));
  const { worker, pending } = startPacker();
  const id = nextBatch++;
  return new Promise((resolve, reject) => {
    pending.set(id, { resolve, reject });
    worker.ref();
    worker.postMessage({ id, texts });
  });
}

/** The native side of a zlib stream, as lib/zlib.js drives it (not a public API: see BrotliUnpacker). */
interface NativeBrotli {
  writeSync(flush: number, input: Uint8Array, inOffset: number, inLength: number, output: Uint8Array, outOffset: number, outLength: number): void;
  reset(): void;
  close(): void;
  onerror: (message: string, errno: number, code?: string) => void;
}

/** The output buffer kept between unpacks; one grown past the largest kept is let go after its unpack. */
const UNPACK_BUFFER = 64 * 1024;
const UNPACK_BUFFER_KEPT = 1024 * 1024;

/**
 * One brotli decoder per thread, reset between bodies, writing into one kept buffer.
 * zlib.brotliDecompressSync builds a stream, a native handle and a 16 KB output buffer a call;
 * the closed handles are weak references that every young-generation collection must visit,
 * so a page of 50 chats made each collection of the request thread several times longer, and
 * that pause was the chats' p99. This drives the native handle the way zlib's own synchronous
 * path does (`writeSync` into `_writeState`), through fields that are not a public API: where
 * they are missing (another Node.js), or after any error, it falls back to
 * brotliDecompressSync, which gives the same text or throws zlib's own error.
 */
class BrotliUnpacker {
  private handle: NativeBrotli | null = null;
  private state: Uint32Array | null = null;
  private output = Buffer.allocUnsafe(UNPACK_BUFFER);
  private failure: string | null = null;
  private usable = true;

  /** The bytes of one brotli stream: a view of the kept buffer, valid until the next call. */
  bytes(packed: Buffer): Buffer {
    if (!this.usable || !this.open()) return zlib.brotliDecompressSync(packed);
    const handle = this.handle!;
    const state = this.state!;
    let inOffset = 0;
    let inLength = packed.length;
    let outOffset = 0;
    try {
      for (;;) {
        handle.writeSync(zlib.constants.BROTLI_OPERATION_FINISH, packed, inOffset, inLength, this.output, outOffset, this.output.length - outOffset);
        if (this.failure !== null) throw new Error(this.failure);
        const availableOut = state[0];
        const availableIn = state[1];
        inOffset += inLength - availableIn;
        inLength = availableIn;
        outOffset = this.output.length - availableOut;
        if (availableOut > 0) break;
        const larger = Buffer.allocUnsafe(this.output.length * 2);
        this.output.copy(larger, 0, 0, outOffset);
        this.output = larger;
      }
      handle.reset();
    } catch {
      // a body this path cannot read (or a handle left in an unknown state): a new decoder next
      // time, and zlib's own path for this body, which throws its error if the body is bad
      this.drop();
      return zlib.brotliDecompressSync(packed);
    }
    const view = this.output.subarray(0, outOffset);
    // a buffer grown past the largest kept is let go after this unpack (the view keeps it until read)
    if (this.output.length > UNPACK_BUFFER_KEPT) this.output = Buffer.allocUnsafe(UNPACK_BUFFER);
    return view;
  }

  private open(): boolean {
    if (this.handle) return true;
    const stream = zlib.createBrotliDecompress() as unknown as { _handle?: NativeBrotli; _writeState?: Uint32Array };
    const handle = stream._handle;
    if (!handle || typeof handle.writeSync !== 'function' || typeof handle.reset !== 'function' || !(stream._writeState instanceof Uint32Array)) {
      this.usable = false;
      return false;
    }
    // the stream object is not used again: its error path would destroy it asynchronously
    handle.onerror = (message) => {
      this.failure = message;
    };
    this.handle = handle;
    this.state = stream._writeState;
    this.failure = null;
    return true;
  }

  private drop() {
    try {
      this.handle?.close();
    } catch {
      // already closed
    }
    this.handle = null;
    this.state = null;
    this.failure = null;
  }
}

const unpacker = new BrotliUnpacker();

/**
 * The text of packed bytes as UTF-8 bytes, for a reader that parses only part of it: a view
 * of this thread's decoder buffer (or of `bytes`), valid only until the next unpack.
 */
export function unpackBytes(bytes: Uint8Array): Buffer {
  const body = Buffer.from(bytes.buffer, bytes.byteOffset + 1, bytes.byteLength - 1);
  if (bytes[0] === BROTLI) return unpacker.bytes(body);
  if (bytes[0] === PLAIN) return body;
  throw new Error(`packed JSON of unknown format ${bytes[0]}`);
}

/** PLAIN bytes compressed (the JSON text itself unchanged); null when already compressed. */
export function repackPlain(bytes: Uint8Array): Buffer | null {
  if (bytes[0] !== PLAIN) return null;
  return packBytes(Buffer.from(bytes.buffer, bytes.byteOffset + 1, bytes.byteLength - 1));
}
