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
  const me = useQuery({ queryKey: ['members-me'], queryFn: () => get<Me>('/team/members/me') });
  const save = useMutation({
    mutationFn: (digest: boolean) => data<Me>('PATCH', '/team/members/me', { digest }),
    onSuccess: (r) => queryClient.setQueryData(['members-me'], r),
  });
  const m = me.data;
  const personless = !!m && m.user_id === null;
  const checked = save.isPending && save.variables !== undefined ? save.variables : !!m?.digest;
  return (
    <Section title="Weekly digest">
      {me.isPending ? <Loading /> : null}
      <ErrorBox error={me.error} />
      {m ? (
        <>
          <label class="check">
            <input type="checkbox" checked={checked} disabled={personless || save.isPending} onChange={(e) => save.mutate((e.currentTarget as HTMLInputElement).checked)} data-digest={String(!!m.digest)} />
            Weekly digest e-mail
          </label>
          <p class="muted small">
            Sent on Mondays at 08:00 UTC{m.email ? ` to ${m.email}` : ''}: last week's visibility of each project against the week before, the significant movers and the alerts
            that fired.
          </p>
          {personless ? <p class="muted small">This session's API key belongs to no person: sign in with your e-mail to choose.</p> : null}
          {m.mail_enabled ? null : (
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
