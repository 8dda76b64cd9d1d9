import { protocol, type PGlite } from '@electric-sql/pglite';
import type { QueryResult } from './types.js';

/**
 * A parameterised query on PGlite in one exchange of the wire protocol: Parse, Bind,
 * Describe, Execute and Sync written into one message, run by one `execProtocolRawStream`,
 * its answer read from its bytes (`rowsOf`).
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
  /** LISTEN's callbacks by channel (as PostgreSQL names it), for a NOTIFY that comes back in the answer to a query run here. */
  readonly #listeners = new Map<string, Set<(payload: string) => void>>();

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
   * Calls `onNotification` with the payload of each NOTIFY on `channel` that comes back in
   * the answer to a query run here (one committed outside a transaction of ours): those
   * answers bypass PGlite's parser, and with it the listeners of PGlite's `listen`, which
   * still get the others (a transaction's, with the COMMIT PGlite runs). Each NOTIFY comes
   * back once, so it reaches one of the two. Returns the function that stops it.
   */
  addListener(channel: string, onNotification: (payload: string) => void): () => void {
    const name = postgresName(channel);
    let set = this.#listeners.get(name);
    if (!set) this.#listeners.set(name, (set = new Set()));
    set.add(onNotification);
    return () => {
      set.delete(onNotification);
      if (set.size === 0 && this.#listeners.get(name) === set) this.#listeners.delete(name);
    };
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
      // the answer's bytes as PostgreSQL writes them (each chunk a view of its memory, copied),
      // without PGlite's parser, which execProtocolRaw would run on them as well
      const chunks: Buffer[] = [];
      await client
        .execProtocolRawStream(extendedQuery(text, types, params), { syncToFs: false, onRawData: (chunk) => chunks.push(Buffer.from(chunk)) })
        .catch((err) => {
          throw Object.assign(err as Error, { query: text, params: values });
        });
      const answer = chunks.length === 1 ? chunks[0] : Buffer.concat(chunks);
      const rows = rowsOf<T>(client, answer, () => this.forget());
      if (rows) return rows;
      // an error, a notice or a notification among the messages: PGlite's parser reads them
      const messages: BackendMessage[] = [];
      new protocol.Parser().parse(answer, (message) => messages.push(message as BackendMessage));
      const error = messages.find((m) => m instanceof protocol.messages.DatabaseError);
      if (error) throw Object.assign(error, { query: text, params: values });
      for (const m of messages) {
        if (!(m instanceof protocol.messages.NotificationResponseMessage)) continue;
        for (const listener of this.#listeners.get(m.channel) ?? []) queueMicrotask(() => listener(m.payload));
      }
      return resultOf<T>(client, messages, () => this.forget());
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

/** A channel as PostgreSQL names it (PGlite's rule for `listen`): quoted as written, else lower-cased. */
const postgresName = (channel: string) => (channel.startsWith('"') && channel.endsWith('"') ? channel.slice(1, -1) : channel.toLowerCase());

// The backend messages an answer of ours holds when all goes well (PostgreSQL's protocol,
// "Message Formats"): ParseComplete, BindComplete, CloseComplete, NoData, PortalSuspended,
// EmptyQueryResponse, ReadyForQuery; RowDescription, DataRow and CommandComplete are read.
const QUIET_MESSAGES = new Set([0x31, 0x32, 0x33, 0x6e, 0x73, 0x49, 0x5a]);
const ROW_DESCRIPTION = 0x54;
const DATA_ROW = 0x44;
const COMMAND_COMPLETE = 0x43;

/**
 * The result of an answer read straight from its bytes, or null when it holds a message
 * other than those (an error, a notice, a notification: PGlite's parser takes those).
 *
 * PGlite's parser copies every field of every row into an ArrayBuffer of its own before
 * decoding it (about 15% of the server's CPU on a read of thousands of rows on the embedded
 * store); here each field is decoded from the answer's bytes where it lies. Values are
 * parsed by type with PGlite's parsers, as its own query does.
 */
function rowsOf<T>(client: PGlite, answer: Buffer, schemaChanged: () => void): QueryResult<T> | null {
  const rows: T[] = [];
  let names: string[] = [];
  let parsers: Array<((x: string, typeId?: number) => unknown) | undefined> = [];
  let typeIds: number[] = [];
  let affected: number | null = null;
  for (let at = 0; at < answer.length; ) {
    const type = answer[at];
    const end = at + 1 + answer.readInt32BE(at + 1);
    let o = at + 5;
    if (type === DATA_ROW) {
      const count = answer.readInt16BE(o);
      o += 2;
      const row: Record<string, unknown> = {};
      for (let i = 0; i < count; i++) {
        const length = answer.readInt32BE(o);
        o += 4;
        if (length < 0) {
          row[names[i]] = null;
          continue;
        }
        const text = answer.toString('utf8', o, o + length);
        o += length;
        const parse = parsers[i];
        row[names[i]] = parse ? parse(text, typeIds[i]) : text;
      }
      rows.push(row as T);
    } else if (type === ROW_DESCRIPTION) {
      const count = answer.readInt16BE(o);
      o += 2;
      names = new Array<string>(count);
      typeIds = new Array<number>(count);
      for (let i = 0; i < count; i++) {
        const nul = answer.indexOf(0, o);
        names[i] = answer.toString('utf8', o, nul);
        // after the name: table oid (4), column number (2), type oid (4), size (2), modifier (4), format (2)
        typeIds[i] = answer.readUInt32BE(nul + 1 + 6);
        o = nul + 1 + 18;
      }
      parsers = typeIds.map((id) => client.parsers[id]);
    } else if (type === COMMAND_COMPLETE) {
      affected = commandTag(answer.toString('utf8', o, end - 1), affected, schemaChanged);
    } else if (!QUIET_MESSAGES.has(type)) {
      return null; // the rows read so far are dropped: PGlite's parser reads the answer again
    }
    at = end;
  }
  return { rows, rowCount: affected ?? rows.length };
}

/** The rows a command tag says were affected, added to `affected`; a change to the schema is reported. */
function commandTag(tag: string, affected: number | null, schemaChanged: () => void): number | null {
  const space = tag.indexOf(' ');
  const command = space < 0 ? tag : tag.slice(0, space);
  if (command === 'INSERT' || command === 'UPDATE' || command === 'DELETE' || command === 'COPY' || command === 'MERGE') {
    return (affected ?? 0) + Number(tag.slice(tag.lastIndexOf(' ') + 1));
  }
  if (SCHEMA_COMMANDS.has(command)) schemaChanged();
  return affected;
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
      affected = commandTag((m as unknown as { text: string }).text, affected, schemaChanged);
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
