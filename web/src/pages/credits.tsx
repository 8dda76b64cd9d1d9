import { useQuery } from '@tanstack/react-query';
import { get } from '../api';
import type { Data } from '../api-types';
import { ErrorBox, Loading, Section, TableWrap } from '../ui';

type Credits = Data<'/v1/team/credits'>;

const longDate = (iso: string) => new Date(iso).toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });

// The team's credits in the terms a marketer plans with: how many are left, what a day of
// tracking costs (prompts × engines × samples), how many days that buys, when they reset.
export function Credits() {
  const q = useQuery({ queryKey: ['team-credits'], queryFn: () => get<Credits>('/team/credits') });
  const c = q.data;
  const share = c && c.credits_included > 0 ? Math.min(100, (c.credits_left / c.credits_included) * 100) : 0;
  return (
    <Section title="Credits this month">
      {q.isPending ? <Loading /> : null}
      <ErrorBox error={q.error} />
      {c ? (
        <div data-team-credits-left={c.credits_left} data-days-left={c.days_of_tracking_left ?? ''}>
          <p class="kpi-value">
            {c.credits_left} <span class="muted small">of {c.credits_included} credits left ({c.plan} plan)</span>
          </p>
          <div class="credits-meter" role="img" aria-label={`${c.credits_left} of ${c.credits_included} credits left`}>
            <span style={{ width: `${share}%` }} />
          </div>
          <p>
            {c.credits_per_day === 0
              ? 'Nothing is tracked yet: a day of tracking costs one credit per active prompt, engine and sample.'
              : `A day of tracking costs ${c.credits_per_day} credit${c.credits_per_day === 1 ? '' : 's'} (one per answer: active prompts × engines × samples), so the credits left pay for ${c.days_of_tracking_left} day${c.days_of_tracking_left === 1 ? '' : 's'}.`}{' '}
            They reset on {longDate(c.resets_at)} (in {c.days_to_reset} day{c.days_to_reset === 1 ? '' : 's'}).
          </p>
          {c.enough_until_reset ? null : (
            <p class="notice warn" role="note" data-credits-short>
              The daily runs will stop after {c.days_of_tracking_left} day{c.days_of_tracking_left === 1 ? '' : 's'}, {c.days_to_reset - (c.days_of_tracking_left ?? 0)} before the reset. Track fewer prompts or engines, or ask
              your Sightline operator for a larger plan (<code>npm run admin -- plan &lt;your email&gt; pro</code>).
            </p>
          )}
          {c.projects.length ? (
            <TableWrap label="Credits per project">
              <table data-table="credits">
                <thead>
                  <tr>
                    <th scope="col">Project</th>
                    <th scope="col">Active prompts</th>
                    <th scope="col">Engines</th>
                    <th scope="col">Samples</th>
                    <th scope="col">Credits a day</th>
                  </tr>
                </thead>
                <tbody>
                  {c.projects.map((p) => (
                    <tr key={p.project_id}>
                      <th scope="row">{p.name}</th>
                      <td>{p.active_prompts}</td>
                      <td>{p.engines}</td>
                      <td>{p.samples_per_run}</td>
                      <td>{p.credits_per_day}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </TableWrap>
          ) : null}
        </div>
      ) : null}
    </Section>
  );
}
