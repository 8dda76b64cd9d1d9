import { z } from 'zod';
import { successEnvelopeSchema } from '../../lib/envelope.js';
import { IsoDate } from '../common.js';

/** Either the account's email and password, or an API key: one of the two, never both. */
export const SignInBody = z
  .union([
    z.strictObject({
      email: z.string({ error: 'email is required' }).trim().toLowerCase().min(1, 'email is required').max(254),
      password: z.string({ error: 'password is required' }).min(1, 'password is required').max(1000),
      team_id: z.uuid({ error: 'team_id must be a UUID' }).optional().meta({ description: 'For a person in several teams: the team to act in (default: the team joined first)' }),
    }),
    z.strictObject({ api_key: z.string().trim().min(1, 'api_key is required').max(200) }),
  ], { error: 'A body with email and password, or with api_key, is required' })
  .meta({ id: 'SignInBody', description: 'Email and password (a session on the account admin key) or an API key (a session of that key scope).' });

export const Session = z
  .object({
    id: z.uuid(),
    team_id: z.uuid(),
    scope: z.enum(['admin', 'viewer']),
    email: z.string().nullable().meta({ description: 'The signed-in user; null for a session opened with an API key' }),
    expires_at: IsoDate,
    csrf_token: z.string().meta({ description: 'Send it as the X-CSRF-Token header on every write made with the session cookie' }),
    engines: z
      .array(z.object({ provider: z.string(), mode: z.enum(['live', 'simulated']), live_with: z.string() }))
      .optional()
      .meta({ description: 'Each engine this service knows, whether it is asked for real, and the environment variable that makes it live (the dashboard flags simulated data)' }),
  })
  .meta({ id: 'Session' });

export const SessionEnvelope = successEnvelopeSchema(Session);

export const SessionSummary = z.object({
  id: z.uuid(),
  scope: z.enum(['admin', 'viewer']),
  email: z.string().nullable(),
  created_at: IsoDate,
  expires_at: IsoDate,
});
export const SessionListEnvelope = successEnvelopeSchema(z.array(SessionSummary));
export const RevokedEnvelope = successEnvelopeSchema(z.object({ revoked: z.number().int() }));
export const SessionParams = z.strictObject({ session_id: z.uuid({ error: 'session_id must be a UUID' }) });
