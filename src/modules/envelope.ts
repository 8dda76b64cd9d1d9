import { STATUS_CODES } from 'node:http';
import { z } from 'zod';

/** Envelope A: `{success: true, data}`. */
export const envA = <T extends z.ZodType>(data: T) => z.object({ success: z.literal(true), data });
export const a = <T>(data: T) => ({ success: true as const, data });

/** Envelope B: `{code, message: '200 OK', data}`. */
export const envB = <T extends z.ZodType>(data: T) => z.object({ code: z.number().int(), message: z.string(), data });
export const b = <T>(data: T, code = 200) => ({ code, message: `${code} ${STATUS_CODES[code] ?? ''}`.trim(), data });

export const ErrorBody = z.object({ detail: z.string() }).meta({ id: 'Error' });

/** The documented error statuses of a route, all `{detail}`. */
export function errors(...statuses: number[]): Record<number, typeof ErrorBody> {
  return Object.fromEntries(statuses.map((s) => [s, ErrorBody]));
}
