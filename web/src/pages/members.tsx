import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'preact/hooks';
import { data, get } from '../api';
import type { Data, Item } from '../api-types';
import { useCanWrite, useSession } from '../session';
import { ListTable } from '../list-table';
import { ErrorBox, Field, Loading, Section } from '../ui';

// The contract's member management page: the team, its members and roles, invitations
// (with the link to copy when no mail goes out), and one's own password.

type Team = Data<'/v1/team'>;
type Member = Item<Data<'/v1/team/members'>>;
type Invitation = Item<Data<'/v1/team/invitations'>>;
type Created = Data<'/v1/team/invitations', 'post'>;

export function Members() {
  const canWrite = useCanWrite();
  const queryClient = useQueryClient();
  const team = useQuery({ queryKey: ['team'], queryFn: () => get<Team>('/team') });
  const members = useQuery({ queryKey: ['team', 'members'], queryFn: () => get<Member[]>('/team/members') });
  const invitations = useQuery({ queryKey: ['team', 'invitations'], queryFn: () => get<Invitation[]>('/team/invitations'), enabled: canWrite });
  const [created, setCreated] = useState<Created | null>(null);
  const write = useMutation({
    mutationFn: (x: { method: string; path: string; body?: unknown }) => data<unknown>(x.method, x.path, x.body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['team'] }),
  });
  const invite = (event: Event) => {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    const formData = new FormData(form);
    write.mutate(
      { method: 'POST', path: '/team/invitations', body: { email: String(formData.get('email')).trim(), role: String(formData.get('role')) } },
      {
        onSuccess: (invited) => {
          setCreated(invited as Created);
          form.reset();
        },
      },
    );
  };
  const teamInfo = team.data;
  return (
    <>
      <h1>Team</h1>
      {teamInfo ? (
        <p class="muted" data-team>
          Plan <strong>{teamInfo.plan}</strong> ({teamInfo.rate_limit_tier}), {teamInfo.credits_left} of {teamInfo.credits_included} credits left this month, {teamInfo.member_count} member
          {teamInfo.member_count === 1 ? '' : 's'}, {teamInfo.admin_count} admin{teamInfo.admin_count === 1 ? '' : 's'}.
        </p>
      ) : null}
      <ErrorBox error={team.error} />
      <Section title="Members">
        {members.isLoading ? <Loading /> : null}
        <ErrorBox error={members.error} />
        <ErrorBox error={write.error} />
        {members.data?.length ? (
          <ListTable
            name="members"
            label="Members"
            rows={members.data}
            rowKey={(member) => member.user_id}
            rowAttributes={(member) => ({ 'data-member': member.email })}
            columns={[
              {
                key: 'email',
                header: 'Email',
                cell: (member) => (
                  <>
                    {member.email}
                    {member.is_you ? <span class="muted small"> (you)</span> : null}
                  </>
                ),
              },
              {
                key: 'role',
                header: 'Role',
                cell: (member) =>
                  canWrite ? (
                    <select
                      aria-label={`Role of ${member.email}`}
                      value={member.role}
                      onChange={(event) => write.mutate({ method: 'PATCH', path: `/team/members/${member.user_id}`, body: { role: (event.currentTarget as HTMLSelectElement).value } })}
                    >
                      <option value="admin">admin</option>
                      <option value="viewer">viewer</option>
                    </select>
                  ) : (
                    member.role
                  ),
              },
              { key: 'joined', header: 'Joined', cell: (member) => member.joined_at.slice(0, 10) },
              ...(canWrite
                ? [
                    {
                      key: 'actions',
                      header: 'Actions',
                      className: 'row-actions',
                      cell: (member: Member) => (
                        <button
                          type="button"
                          class="danger small"
                          onClick={() => confirm(`Remove ${member.email} from the team? Their sessions end at once; keys they made stay.`) && write.mutate({ method: 'DELETE', path: `/team/members/${member.user_id}` })}
                        >
                          Remove
                        </button>
                      ),
                    },
                  ]
                : []),
            ]}
          />
        ) : null}
      </Section>
      {canWrite ? (
        <Section title="Invitations">
          {created ? (
            <div class="notice" role="status" data-invitation-created>
              <p>
                Invitation for <strong>{created.email}</strong> ({created.role}), valid until {created.expires_at.replace('T', ' ').slice(0, 16)} UTC, once.
                {created.mailed ? ' It was mailed; you can also copy the link.' : ' No mail is set up here: send the link yourself.'}
              </p>
              <Field label="Invitation link (shown once)">
                <input readOnly value={created.accept_url} class="mono" data-invitation-link />
              </Field>
              <button type="button" class="secondary small" onClick={() => navigator.clipboard?.writeText(created.accept_url)}>
                Copy link
              </button>
            </div>
          ) : null}
          <form onSubmit={invite} class="grid-form" aria-label="Invite a person">
            <Field label="Email">
              <input name="email" type="email" required maxLength={254} />
            </Field>
            <Field label="Role">
              <select name="role">
                <option value="viewer">viewer (reads everything, writes nothing)</option>
                <option value="admin">admin</option>
              </select>
            </Field>
            <button type="submit">Invite</button>
          </form>
          {invitations.isLoading ? <Loading /> : null}
          <ErrorBox error={invitations.error} />
          {invitations.data ? (
            <ListTable
              name="invitations"
              label="Pending invitations"
              rows={invitations.data}
              rowKey={(invitation) => invitation.id}
              rowAttributes={(invitation) => ({ 'data-invitation': invitation.email })}
              empty="No pending invitations."
              columns={[
                { key: 'email', header: 'Email', cell: (invitation) => invitation.email },
                { key: 'role', header: 'Role', cell: (invitation) => invitation.role },
                { key: 'by', header: 'Invited by', cell: (invitation) => invitation.invited_by ?? 'an API key' },
                { key: 'expires', header: 'Expires', cell: (invitation) => invitation.expires_at.slice(0, 10) },
                {
                  key: 'actions',
                  header: 'Actions',
                  className: 'row-actions',
                  cell: (invitation) => (
                    <button type="button" class="danger small" onClick={() => write.mutate({ method: 'DELETE', path: `/team/invitations/${invitation.id}` })}>
                      Revoke
                    </button>
                  ),
                },
              ]}
            />
          ) : null}
        </Section>
      ) : null}
      <OwnPassword />
    </>
  );
}

function OwnPassword() {
  const { session } = useSession();
  const [done, setDone] = useState<string | null>(null);
  const change = useMutation({ mutationFn: (body: unknown) => data<Data<'/v1/account/password', 'post'>>('POST', '/account/password', body) });
  if (!session?.email) return null;
  const submit = (event: Event) => {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    const formData = new FormData(form);
    change.mutate(
      { current_password: String(formData.get('current')), new_password: String(formData.get('new')) },
      {
        onSuccess: (created) => {
          setDone(`Password changed; ${created.sessions_ended} other session${created.sessions_ended === 1 ? '' : 's'} ended.`);
          form.reset();
        },
      },
    );
  };
  return (
    <Section title="Your password">
      {done ? (
        <p class="notice" role="status">
          {done}
        </p>
      ) : null}
      <ErrorBox error={change.error} />
      <form onSubmit={submit} class="grid-form" aria-label="Change your password">
        <Field label="Current password">
          <input name="current" type="password" autoComplete="current-password" required />
        </Field>
        <Field label="New password" hint="At least 12 characters.">
          <input name="new" type="password" autoComplete="new-password" minLength={12} maxLength={200} required />
        </Field>
        <button type="submit">Change password</button>
      </form>
    </Section>
  );
}
