import type { FastifyReply, FastifyRequest } from 'fastify';
import { windowPastRetention } from '../modules/answers/retention.js';
import { ctxOf } from './request.js';

/** The header naming the first day whose answers are kept, on a read of answers whose window starts before it. */
export const RETAINED_FROM_HEADER = 'x-retained-from';

/**
 * Extension: a read of the raw answers (chats, a prompt's domains, URLs and searches) over
 * a window reaching past RETENTION_MONTHS says so: the answers before the day named are
 * gone, while the figures (rollups) of the same window are whole (docs/retention.md).
 */
export function markRetention(req: FastifyRequest, reply: FastifyReply, from: string): void {
  const first = windowPastRetention(ctxOf(req), from);
  if (first !== null) reply.header(RETAINED_FROM_HEADER, first);
}
