import { repackPlain } from '../lib/packed-json.js';
import type { Tx } from './types.js';

const BATCH = 500;

/**
 * Migration 0013 moved each stored answer's text, references and raw body into one
 * `responses.body` in the PLAIN format (SQL has no brotli); this compresses those bodies, a
 * batch at a time in id order, right after the migrations (under their lock in server mode).
 * The partial index responses_plain_body_idx holds exactly the PLAIN rows, so a store without
 * any pays one probe of an empty index; a start cut off half-way goes on where it stopped.
 */
export async function packPlainAnswerBodies(db: Pick<Tx, 'query'>): Promise<number> {
  let after = '00000000-0000-0000-0000-000000000000';
  let packed = 0;
  for (;;) {
    const { rows } = await db.query<{ id: string; body: Uint8Array }>(
      `select id, body from responses where get_byte(body, 0) = 0 and id > $1 order by id limit ${BATCH}`,
      [after],
    );
    if (rows.length === 0) return packed;
    after = rows[rows.length - 1].id;
    const ids: string[] = [];
    const bodies: string[] = [];
    for (const r of rows) {
      const b = repackPlain(r.body);
      if (!b) continue;
      ids.push(r.id);
      bodies.push(b.toString('base64'));
    }
    await db.query(
      `update responses r set body = decode(u.b, 'base64') from unnest($1::uuid[], $2::text[]) as u(id, b) where r.id = u.id`,
      [ids, bodies],
    );
    packed += ids.length;
  }
}
