import { STATUS_CODES } from 'node:http';
import { z } from 'zod';
import { ERROR_CODES } from '../lib/errors.js';

/** Envelope A: `{success: true, data}`. */
export const envA = <T extends z.ZodType>(data: T) => z.object({ success: z.literal(true), data });
export const a = <T>(data: T) => ({ success: true as const, data });

/** Envelope B: `{code, message: '200 OK', data}`. */
export const envB = <T extends z.ZodType>(data: T) => z.object({ code: z.number().int(), message: z.string(), data });
export const b = <T>(data: T, code = 200) => ({ code, message: `${code} ${STATUS_CODES[code] ?? ''}`.trim(), data });

/** Every error: `detail` for people, `code` for programs, `request_id` to quote to support. */
export const ErrorBody = z
  .object({
    detail: z.string(),
    code: z.enum(ERROR_CODES).optional(),
    request_id: z.string().optional(),
  })
  .meta({ id: 'Error' });

/** The documented error statuses of a route, all `{detail, code, request_id}`. */
export function errors(...statuses: number[]): Record<number, typeof ErrorBody> {
  return Object.fromEntries(statuses.map((s) => [s, ErrorBody]));
}
