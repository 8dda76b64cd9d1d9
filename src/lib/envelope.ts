import { STATUS_CODES } from 'node:http';
import { z } from 'zod';
import { ERROR_CODES } from './errors.js';

// The two success envelopes the contract names (docs/decisions.md): Envelope A,
// `{success: true, data}`, the default; Envelope B, `{code, message: '200 OK', data}`, where
// the contract asks for it. Each as a zod schema (a route's response) and as a value.

/** Envelope A's schema: `{success: true, data}`. */
export const successEnvelopeSchema = <T extends z.ZodType>(data: T) => z.object({ success: z.literal(true), data });
/** Envelope A: `{success: true, data}`. */
export const successEnvelope = <T>(data: T) => ({ success: true as const, data });

/** Envelope B's schema: `{code, message: '200 OK', data}`. */
export const statusEnvelopeSchema = <T extends z.ZodType>(data: T) => z.object({ code: z.number().int(), message: z.string(), data });
/** Envelope B: `{code, message, data}`, the message being the status line of `code` ('201 Created'). */
export const statusEnvelope = <T>(data: T, code = 200) => ({ code, message: `${code} ${STATUS_CODES[code] ?? ''}`.trim(), data });

/** Every error: `detail` for people, `code` for programs, `request_id` to quote to support. */
export const ErrorBody = z
  .object({
    detail: z.string(),
    code: z.enum(ERROR_CODES).optional(),
    request_id: z.string().optional(),
  })
  .meta({ id: 'Error' });

/** The documented error statuses of a route, all `{detail, code, request_id}`. */
export function errorResponses(...statuses: number[]): Record<number, typeof ErrorBody> {
  return Object.fromEntries(statuses.map((s) => [s, ErrorBody]));
}
