import { createHash } from 'node:crypto';
import readline from 'node:readline';
import { Transform, type Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { AppError, Invalid } from '../../lib/errors.js';
import type { LogTally } from './tally.js';

export class LogTooLarge extends AppError {
  constructor(maxBytes: number) {
    super(413, `The log is larger than ${Math.round(maxBytes / 1048576)} MiB once uncompressed: send it in parts`);
  }
}

/**
 * Reads a log stream line by line into the tally, in bounded memory at any size (readline
 * over the stream, gunzip when the body says it is gzip), and returns the SHA-256 of the
 * uncompressed bytes: the identity by which a re-sent file is recognised.
 */
export async function readLog(body: Readable, gzip: boolean, maxBytes: number, tally: LogTally): Promise<{ sha256: string; bytes: number }> {
  const hash = createHash('sha256');
  let bytes = 0;
  const meter = new Transform({
    transform(chunk: Buffer, _enc, done) {
      bytes += chunk.length;
      if (bytes > maxBytes) {
        done(new LogTooLarge(maxBytes));
        return;
      }
      hash.update(chunk);
      done(null, chunk);
    },
  });
  let source: Readable = body;
  if (gzip) {
    const gunzip = createGunzip();
    source = body.pipe(gunzip);
    body.on('error', (err) => gunzip.destroy(err));
  }
  const metered = source.pipe(meter);
  source.on('error', (err) => meter.destroy(err));
  const lines = readline.createInterface({ input: metered, crlfDelay: Number.POSITIVE_INFINITY });
  try {
    for await (const line of lines) tally.add(line);
  } catch (err) {
    if (err instanceof AppError) throw err;
    const code = (err as { code?: string }).code ?? '';
    if (gzip && code.startsWith('Z_')) throw new Invalid('The body is not valid gzip (Content-Encoding: gzip)');
    throw err;
  } finally {
    lines.close();
  }
  return { sha256: hash.digest('hex'), bytes };
}
