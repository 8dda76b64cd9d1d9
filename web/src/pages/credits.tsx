import { useQuery } from '@tanstack/react-query';
import { get } from '../api';
import type { Data } from '../api-types';
import { ListTable } from '../list-table';
import { ErrorBox, Loading, Section } from '../ui';

type Credits = Data<'/v1/team/credits'>;

const longDate = (iso: string) => new Date(iso).toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });

// The team's credits in the terms a marketer plans with: how many are left, what a day of
// tracking costs (prompts × engines × samples), how many days that buys, when they reset.
export function Credits() {
  const teamCreditsQuery = useQuery({ queryKey: ['team-credits'], queryFn: () => get<Credits>('/team/credits') });
  const credits = teamCreditsQuery.data;
  const share = credits && credits.credits_included > 0 ? Math.min(100, (credits.credits_left / credits.credits_included) * 100) : 0;
  return (
    <Section title="Credits this month">
      {teamCreditsQuery.isPending ? <Loading shape="lines" /> : null}
      <ErrorBox error={teamCreditsQuery.error} />
      {credits ? (
        <div data-team-credits-left={credits.credits_left} data-days-left={credits.days_of_tracking_left ?? ''}>
          <p class="kpi-value">
            {credits.credits_left} <span class="muted small">of {credits.credits_included} credits left ({credits.plan} plan)</span>
          </p>
          <div class="credits-meter" role="img" aria-label={`${credits.credits_left} of ${credits.credits_included} credits left`}>
            <span style={{ width: `${share}%` }} />
          </div>
          <p>
            {credits.credits_per_day === 0
              ? 'Nothing is tracked yet: a day of tracking costs one credit per active prompt, engine and sample.'
              : `A day of tracking costs ${credits.credits_per_day} credit${credits.credits_per_day === 1 ? '' : 's'} (one per answer: active prompts × engines × samples), so the credits left pay for ${credits.days_of_tracking_left} day${credits.days_of_tracking_left === 1 ? '' : 's'}.`}{' '}
            They reset on {longDate(credits.resets_at)} (in {credits.days_to_reset} day{credits.days_to_reset === 1 ? '' : 's'}).
          </p>
          {credits.enough_until_reset ? null : (
            <p class="notice warn" role="note" data-credits-short>
              The daily runs will stop after {credits.days_of_tracking_left} day{credits.days_of_tracking_left === 1 ? '' : 's'}, {credits.days_to_reset - (credits.days_of_tracking_left ?? 0)} before the reset. Track fewer prompts or engines, or ask
              your Sightline operator for a larger plan (<code>npm run admin -- plan &lt;your email&gt; pro</code>).
            </p>
          )}
          {credits.projects.length ? (
            <ListTable
              name="credits"
              label="Credits per project"
              rows={credits.projects}
              rowKey={(project) => project.project_id}
              rowHeader="project"
              columns={[
                { key: 'project', header: 'Project', cell: (project) => project.name },
                { key: 'prompts', header: 'Active prompts', numeric: true, cell: (project) => project.active_prompts },
                { key: 'engines', header: 'Engines', numeric: true, cell: (project) => project.engines },
                { key: 'samples', header: 'Samples', numeric: true, cell: (project) => project.samples_per_run },
                { key: 'credits', header: 'Credits a day', numeric: true, cell: (project) => project.credits_per_day },
              ]}
            />
          ) : null}
        </div>
      ) : null}
    </Section>
  );
}
