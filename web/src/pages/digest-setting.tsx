import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { data, get } from '../api';
import type { Data } from '../api-types';
import { ErrorBox, Loading, Section } from '../ui';

type Me = Data<'/v1/team/members/me'>;

/**
 * The person's own opt-in to the weekly digest (any member, viewers too): a checkbox
 * saved as soon as it changes, when the mail goes out, and a warning when this server
 * sends no mail at all.
 */
export function DigestSetting() {
  const queryClient = useQueryClient();
  const membersMeQuery = useQuery({ queryKey: ['members-me'], queryFn: () => get<Me>('/team/members/me') });
  const save = useMutation({
    mutationFn: (digest: boolean) => data<Me>('PATCH', '/team/members/me', { digest }),
    onSuccess: (updated) => queryClient.setQueryData(['members-me'], updated),
  });
  const member = membersMeQuery.data;
  const personless = !!member && member.user_id === null;
  const checked = save.isPending && save.variables !== undefined ? save.variables : !!member?.digest;
  return (
    <Section title="Weekly digest">
      {membersMeQuery.isPending ? <Loading shape="lines" /> : null}
      <ErrorBox error={membersMeQuery.error} />
      {member ? (
        <>
          <label class="check">
            <input type="checkbox" checked={checked} disabled={personless || save.isPending} onChange={(event) => save.mutate((event.currentTarget as HTMLInputElement).checked)} data-digest={String(!!member.digest)} />
            Weekly digest e-mail
          </label>
          <p class="muted small">
            Sent on Mondays at 08:00 UTC{member.email ? ` to ${member.email}` : ''}: last week's visibility of each project against the week before, the significant movers and the alerts
            that fired.
          </p>
          {personless ? <p class="muted small">This session's API key belongs to no person: sign in with your e-mail to choose.</p> : null}
          {member.mail_enabled ? null : (
            <p class="notice warn" data-mail-off>
              Mail is off on this server (its operator has not set up SMTP), so no digest is sent for now, even when ticked.
            </p>
          )}
          <ErrorBox error={save.error} />
          <span class="visually-hidden" role="status" aria-live="polite">
            {save.isSuccess ? (save.data.digest ? 'Weekly digest on.' : 'Weekly digest off.') : ''}
          </span>
        </>
      ) : null}
    </Section>
  );
}
