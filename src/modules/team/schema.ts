import { z } from 'zod';
import { successEnvelopeSchema } from '../../lib/envelope.js';
import { IsoDate, Uuid } from '../common.js';

/** Team, members, invitations and passwords (issue 17; extensions, Envelope A). */
export const Role = z.enum(['admin', 'viewer'], { error: "role must be 'admin' or 'viewer'" });

export const Team = z
  .object({
    team_id: z.uuid(),
    plan: z.string(),
    rate_limit_tier: z.enum(['standard', 'premium']),
    credits_month: z.string(),
    credits_included: z.number().int(),
    credits_used: z.number().int(),
    credits_left: z.number().int(),
    member_count: z.number().int(),
    admin_count: z.number().int(),
    pending_invitations: z.number().int(),
    your_role: Role.nullable().meta({ description: "The signed-in person's role; null for a call made with an API key" }),
  })
  .meta({ id: 'TeamSummary' });
export const TeamEnvelope = successEnvelopeSchema(Team);

export const Member = z
  .object({
    user_id: z.uuid(),
    email: z.string(),
    role: Role,
    joined_at: IsoDate,
    is_you: z.boolean(),
  })
  .meta({ id: 'TeamMember' });
export const MemberEnvelope = successEnvelopeSchema(Member);
export const MemberListEnvelope = successEnvelopeSchema(z.array(Member));
export const MemberParams = z.strictObject({ user_id: z.uuid({ error: 'user_id must be a UUID' }) });
export const PatchMemberBody = z.strictObject({ role: Role });
export const MemberRemovedEnvelope = successEnvelopeSchema(z.object({ user_id: z.uuid(), message: z.string(), sessions_ended: z.number().int() }));

const Email = z.string({ error: 'email is required' }).trim().toLowerCase().pipe(z.email({ error: 'email must be a valid address' }).max(254));

export const CreateInvitationBody = z.strictObject({ email: Email, role: Role });

export const Invitation = z
  .object({
    id: z.uuid(),
    email: z.string(),
    role: Role,
    invited_by: z.string().nullable().meta({ description: 'Email of the admin who invited, null when made with an API key' }),
    created_at: IsoDate,
    expires_at: IsoDate,
  })
  .meta({ id: 'TeamInvitation' });
export const InvitationListEnvelope = successEnvelopeSchema(z.array(Invitation));
export const InvitationCreatedEnvelope = successEnvelopeSchema(
  Invitation.extend({
    token: z.string().meta({ description: 'Single-use; shown only in this response. Never stored, only its hash.' }),
    accept_url: z.string().meta({ description: 'The dashboard page that accepts the invitation' }),
    mailed: z.boolean().meta({ description: 'Whether the invitation was mailed (SMTP_URL and MAIL_FROM set)' }),
  }),
);
export const InvitationParams = z.strictObject({ invitation_id: Uuid });
export const InvitationRevokedEnvelope = successEnvelopeSchema(z.object({ id: z.uuid(), message: z.string() }));

const NewPassword = z
  .string({ error: 'password is required' })
  .min(12, 'A password has at least 12 characters')
  .max(200, 'A password has at most 200 characters');

export const TokenParams = z.strictObject({ token: z.string().min(1).max(200) });
export const AcceptBody = z
  .strictObject({ password: NewPassword.optional().meta({ description: 'For a new user; generated and returned once when omitted' }) })
  .default({});
export const AcceptedEnvelope = successEnvelopeSchema(
  z.object({
    user_id: z.uuid(),
    team_id: z.uuid(),
    email: z.string(),
    role: Role,
    created: z.boolean().meta({ description: 'true when the invitation created the user' }),
    password: z.string().nullable().meta({ description: 'Generated password of a new user who sent none (shown once); null otherwise' }),
  }),
);

export const ChangePasswordBody = z.strictObject({
  current_password: z.string({ error: 'current_password is required' }).min(1, 'current_password is required').max(1000),
  new_password: NewPassword,
});
export const ResetPasswordBody = z.strictObject({ token: z.string({ error: 'token is required' }).min(1).max(200), new_password: NewPassword });
export const PasswordChangedEnvelope = successEnvelopeSchema(z.object({ message: z.string(), sessions_ended: z.number().int() }));
