import fs from 'node:fs';
import { Readable } from 'node:stream';

export interface IngestOptions {
  project: string;
  url?: string;
  apiKey?: string;
  format?: string;
  port: number;
}

/** text/plain (combined) or NDJSON: said by --format, else by the file's name. */
function contentTypeOf(file: string, format?: string): string {
  const f = (format ?? '').toLowerCase();
  if (f === 'combined' || f === 'text') return 'text/plain';
  if (f === 'ndjson' || f === 'json') return 'application/x-ndjson';
  if (f) throw new Error(`--format must be combined or ndjson, not ${format}`);
  return /\.(ndjson|jsonl|json)(\.gz)?$/i.test(file) ? 'application/x-ndjson' : 'text/plain';
}

/** A gzip file is sent as it is, with Content-Encoding: gzip (recognised by its magic bytes). */
function isGzip(file: string): boolean {
  const fd = fs.openSync(file, 'r');
  try {
    const head = Buffer.alloc(2);
    return fs.readSync(fd, head, 0, 2, 0) === 2 && head[0] === 0x1f && head[1] === 0x8b;
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * `sightline logs ingest FILE --project ID`: streams the file to the running service's
 * POST /v1/projects/{id}/crawler-logs (never read whole into memory) and prints its answer.
 */
export async function ingestFile(file: string, o: IngestOptions): Promise<unknown> {
  if (!fs.existsSync(file)) throw new Error(`No such file: ${file}`);
  const apiKey = o.apiKey ?? process.env.SIGHTLINE_API_KEY;
  if (!apiKey) throw new Error('An admin API key is needed: --api-key or SIGHTLINE_API_KEY');
  const base = (o.url ?? process.env.SIGHTLINE_URL ?? `http://localhost:${o.port}`).replace(/\/+$/, '');
  const headers: Record<string, string> = { 'x-api-key': apiKey, 'content-type': contentTypeOf(file, o.format) };
  if (isGzip(file)) headers['content-encoding'] = 'gzip';
  const res = await fetch(`${base}/v1/projects/${encodeURIComponent(o.project)}/crawler-logs`, {
    method: 'POST',
    headers,
    body: Readable.toWeb(fs.createReadStream(file)) as ReadableStream,
    duplex: 'half',
  } as RequestInit);
  const text = await res.text();
  let body: { data?: unknown; detail?: string } = {};
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON: shown as text below
  }
  if (!res.ok) throw new Error(`${res.status}: ${body.detail ?? text}`);
  return body.data;
}
