import type { PGlite } from '@electric-sql/pglite';
import type { QueryResult } from './types.js';

/**
 * A parameterised query on PGlite in one exchange of the wire protocol: Parse, Bind,
 * Describe, Execute and Sync written into one message, run by one `execProtocolStream`.
 *
 * `PGlite.query` sends each of those (and a Describe of the statement for its parameter
 * types) as a message of its own, each a call into PostgreSQL and each with buffers of its
 * own (`ArrayBuffer`s to serialise, to copy every chunk of output, to answer), and builds
 * every row with `Object.fromEntries` over an array of pairs. A request of the analytics
 * endpoints runs a handful of queries of up to thousands of rows, so that garbage came back
 * with every request and the young generation filled every few hundred requests; a scavenge
 * then held the request it fell in (see docs/analytics.md, "The embedded store's pauses").
 *
 * The values are serialised as PGlite would: by the type PostgreSQL infers for each
 * parameter, with the client's own serializers (JSON for json/jsonb, array literals for
 * arrays, ISO text for dates, hex for bytea). The parameter types of a statement are asked
 * once per statement text (a Parse and a Describe) and remembered; a statement that changes
 * the schema forgets them all, as a type can change under the same text.
 */
export class OneTripQueries {
  readonly #paramTypes = new Map<string, number[]>();

  constructor(
    readonly client: PGlite,
    /** Statements whose parameter types are remembered; past it the oldest is forgotten. */
    private readonly maxStatements = 2_000,
  ) {}

  /** Forget every statement's parameter types (after a change to the schema). */
  forget(): void {
    this.#paramTypes.clear();
  }

  /**
   * Runs `text` with `values`. The caller holds what PGlite's own `query` would: outside a
   * transaction its transaction lock, inside one nothing (the query lock is taken here).
   */
  async run<T>(text: string, values: readonly unknown[] = []): Promise<QueryResult<T>> {
    const client = this.client;
    await client._checkReady(); // 'PGlite is closed' (a store gone: 503), as PGlite's query says it
    return client._runExclusiveQuery(async () => {
      let types: number[] = [];
      if (values.length > 0) {
        const known = this.#paramTypes.get(text);
        types = known ?? (await this.#describe(text));
      }
      const params = values.map((v, i) => serialize(client, v, types[i] ?? 0));
      const messages = await client.execProtocolStream(extendedQuery(text, types, params), { syncToFs: false }).catch((err) => {
        throw Object.assign(err as Error, { query: text, params: values });
      });
      return resultOf<T>(client, messages as unknown as BackendMessage[], () => this.forget());
    });
  }

  async #describe(text: string): Promise<number[]> {
    const messages = (await this.client
      .execProtocolStream(describeStatement(text), { syncToFs: false })
      .catch((err) => {
        throw Object.assign(err as Error, { query: text });
      })) as unknown as BackendMessage[];
    const described = messages.find((m) => m.name === 'parameterDescription') as { dataTypeIDs?: number[] } | undefined;
    const types = described?.dataTypeIDs ?? [];
    if (this.#paramTypes.size >= this.maxStatements) this.#paramTypes.delete(this.#paramTypes.keys().next().value!);
    this.#paramTypes.set(text, types);
    return types;
  }
}

interface BackendMessage {
  name: string;
}

const SCHEMA_COMMANDS = new Set(['CREATE', 'ALTER', 'DROP', 'COMMENT', 'GRANT', 'REVOKE', 'TRUNCATE']);

/** Rows (one object per row, values parsed by type) and the rows affected, from the backend's messages. */
function resultOf<T>(client: PGlite, messages: BackendMessage[], schemaChanged: () => void): QueryResult<T> {
  const rows: T[] = [];
  let names: string[] = [];
  let parsers: Array<((x: string, typeId?: number) => unknown) | undefined> = [];
  let typeIds: number[] = [];
  let affected: number | null = null;
  for (const m of messages) {
    if (m.name === 'rowDescription') {
      const fields = (m as unknown as { fields: Array<{ name: string; dataTypeID: number }> }).fields;
      names = fields.map((f) => f.name);
      typeIds = fields.map((f) => f.dataTypeID);
      parsers = typeIds.map((id) => client.parsers[id]);
    } else if (m.name === 'dataRow') {
      const fields = (m as unknown as { fields: Array<string | null> }).fields;
      const row: Record<string, unknown> = {};
      for (let i = 0; i < fields.length; i++) {
        const v = fields[i];
        const parse = parsers[i];
        row[names[i]] = v === null ? null : parse ? parse(v, typeIds[i]) : v;
      }
      rows.push(row as T);
    } else if (m.name === 'commandComplete') {
      const tag = (m as unknown as { text: string }).text;
      const space = tag.indexOf(' ');
      const command = space < 0 ? tag : tag.slice(0, space);
      if (command === 'INSERT' || command === 'UPDATE' || command === 'DELETE' || command === 'COPY' || command === 'MERGE') {
        affected = (affected ?? 0) + Number(tag.slice(tag.lastIndexOf(' ') + 1));
      } else if (SCHEMA_COMMANDS.has(command)) {
        schemaChanged();
      }
    }
  }
  return { rows, rowCount: affected ?? rows.length };
}

/** A parameter's text, as PGlite's `query` writes it for a parameter of type `oid`. */
function serialize(client: PGlite, value: unknown, oid: number): string | null {
  if (value === null || value === undefined) return null;
  const write = client.serializers[oid];
  return write ? write(value) : String(value);
}

// The frontend messages of the extended query protocol (PostgreSQL's protocol, chapter
// "Message Formats"). Text format for every parameter and result column.

function cstringBytes(s: string): number {
  return Buffer.byteLength(s, 'utf8') + 1;
}

/** Parse (unnamed statement, with its parameter types), Bind (all text), Describe portal, Execute (all rows), Sync. */
function extendedQuery(text: string, types: number[], params: (string | null)[]): Buffer {
  const paramBytes = params.map((p) => (p === null ? -1 : Buffer.byteLength(p, 'utf8')));
  const parseLen = 4 + 1 + cstringBytes(text) + 2 + 4 * types.length;
  const bindLen = 4 + 1 + 1 + 2 + 2 + paramBytes.reduce((s, n) => s + 4 + Math.max(n, 0), 0) + 2;
  const describeLen = 4 + 1 + 1;
  const executeLen = 4 + 1 + 4;
  const syncLen = 4;
  const buf = Buffer.allocUnsafe(1 + parseLen + 1 + bindLen + 1 + describeLen + 1 + executeLen + 1 + syncLen);
  let o = 0;
  // Parse
  buf[o++] = 0x50; // 'P'
  o = buf.writeInt32BE(parseLen, o);
  buf[o++] = 0; // unnamed statement
  o += buf.write(text, o, 'utf8');
  buf[o++] = 0;
  o = buf.writeInt16BE(types.length, o);
  for (const t of types) o = buf.writeUInt32BE(t >>> 0, o);
  // Bind
  buf[o++] = 0x42; // 'B'
  o = buf.writeInt32BE(bindLen, o);
  buf[o++] = 0; // unnamed portal
  buf[o++] = 0; // unnamed statement
  o = buf.writeInt16BE(0, o); // every parameter in text
  o = buf.writeInt16BE(params.length, o);
  params.forEach((p, i) => {
    o = buf.writeInt32BE(paramBytes[i], o);
    if (p !== null) o += buf.write(p, o, 'utf8');
  });
  o = buf.writeInt16BE(0, o); // every result column in text
  // Describe the portal: its row description
  buf[o++] = 0x44; // 'D'
  o = buf.writeInt32BE(describeLen, o);
  buf[o++] = 0x50; // 'P'
  buf[o++] = 0;
  // Execute
  buf[o++] = 0x45; // 'E'
  o = buf.writeInt32BE(executeLen, o);
  buf[o++] = 0;
  o = buf.writeInt32BE(0, o); // no row limit
  // Sync
  buf[o++] = 0x53; // 'S'
  buf.writeInt32BE(syncLen, o);
  return buf;
}

/** Parse (unnamed, types left to PostgreSQL), Describe the statement, Sync: the parameter types PostgreSQL infers. */
function describeStatement(text: string): Buffer {
  const parseLen = 4 + 1 + cstringBytes(text) + 2;
  const describeLen = 4 + 1 + 1;
  const buf = Buffer.allocUnsafe(1 + parseLen + 1 + describeLen + 1 + 4);
  let o = 0;
  buf[o++] = 0x50;
  o = buf.writeInt32BE(parseLen, o);
  buf[o++] = 0;
  o += buf.write(text, o, 'utf8');
  buf[o++] = 0;
  o = buf.writeInt16BE(0, o);
  buf[o++] = 0x44;
  o = buf.writeInt32BE(describeLen, o);
  buf[o++] = 0x53; // 'S': the statement
  buf[o++] = 0;
  buf[o++] = 0x53;
  buf.writeInt32BE(4, o);
  return buf;
}
