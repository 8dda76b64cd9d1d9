import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'preact/hooks';
import { data, get } from '../api';
import type { Data, RequestBody, Schemas } from '../api-types';
import { CsvButton } from '../csv';
import { useCanWrite } from '../session';
import { ListTable } from '../list-table';
import { Empty, ErrorBox, Field, Loading, Section, formatFigure } from '../ui';
import { PROVIDERS, PROVIDER_NAMES } from '../window';
import { TopBar } from '../top-bar';
import './alerts.css';

// The project's alert rules (what each watches, in words; its channels; when it last
// fired), a form to create or change one (admins), a test send per rule with each
// channel's answer, and the feed of fired events with each delivery's status. Brand names
// and domains come from the answers: they are text nodes, never markup.

type Rule = Schemas['AlertRule'];
type AlertEvent = Schemas['AlertEvent'];
type Metric = Rule['metric'];
type Condition = Rule['condition'];
type Channel = Rule['channels'][number];
type TestResult = Data<'/v1/projects/{project_id}/alerts/{alert_id}/test', 'post'>;
type RuleBody = RequestBody<'/v1/projects/{project_id}/alerts'>;

const OWN_BRAND_ID = '00000000-0000-0000-0000-000000000000';

const METRIC_NAMES: Record<Metric, string> = {
  visibility: 'Visibility',
  share_of_voice: 'Share of voice',
  position: 'Average position',
  sentiment: 'Sentiment',
  own_citations: 'Answers citing your site',
  new_competitor: 'New competitors',
  new_cited_domain: 'Newly cited domains',
};
const METRICS = Object.keys(METRIC_NAMES) as Metric[];
const CONDITION_NAMES: Record<Condition, string> = {
  significant_drop: 'drops significantly',
  significant_rise: 'rises significantly',
  significant_change: 'changes significantly',
  below: 'falls below',
  above: 'goes above',
};
const CONDITIONS = Object.keys(CONDITION_NAMES) as Condition[];
const isNewThing = (metric: Metric) => metric === 'new_competitor' || metric === 'new_cited_domain';
/** Only the own brand's figures are kept per prompt (docs/alerts.md). */
const takesPrompts = (metric: Metric) => metric === 'visibility' || metric === 'position' || metric === 'sentiment' || metric === 'own_citations';
const takesBrand = (metric: Metric) => metric === 'visibility' || metric === 'share_of_voice' || metric === 'position' || metric === 'sentiment';
const unitOf = (metric: Metric) => (metric === 'visibility' || metric === 'share_of_voice' || metric === 'own_citations' ? '%' : '');

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;
const when = (iso: string) => `${iso.replace('T', ' ').slice(0, 16)} UTC`;

/** What a rule watches, in words: metric and brand, condition, window, engines and prompts. */
export function describeRule(rule: Rule, brandName: (id: string | null) => string, promptCount: (ids: string[]) => string): string {
  const days = plural(rule.window_days, 'day');
  if (isNewThing(rule.metric)) {
    const what = rule.metric === 'new_competitor' ? 'untracked brand' : 'newly cited domain';
    const threshold = rule.threshold ?? 0;
    const head = threshold > 0 ? `More than ${plural(threshold, what)}` : `Any ${what}`;
    return `${head} in the last ${days}${enginesText(rule.providers)}`;
  }
  const subject = `${METRIC_NAMES[rule.metric]}${takesBrand(rule.metric) ? ` of ${brandName(rule.brand_id)}` : ''}`;
  const condition =
    rule.condition === 'below' || rule.condition === 'above'
      ? `${CONDITION_NAMES[rule.condition]} ${formatFigure(rule.threshold, rule.metric === 'position' ? 1 : 0)}${unitOf(rule.metric)} over ${days}`
      : `${CONDITION_NAMES[rule.condition]}, ${days} against the ${days} before`;
  const prompts = rule.prompt_ids?.length ? `, ${promptCount(rule.prompt_ids)}` : '';
  return `${subject} ${condition}${enginesText(rule.providers)}${prompts}`;
}
const enginesText = (providers: string[] | null) => (providers?.length ? `, on ${providers.map((x) => PROVIDER_NAMES[x] ?? x).join(', ')}` : ', on every engine');

const channelText = (channel: Channel) => (channel.type === 'email' ? `E-mail to ${channel.to.join(', ')}` : channel.type === 'slack' ? 'Slack' : 'Webhooks (alert.triggered)');

export function Alerts({ projectId }: { projectId: string }) {
  const queryClient = useQueryClient();
  const canWrite = useCanWrite();
  const base = `/projects/${projectId}/alerts`;
  const rules = useQuery({ queryKey: ['alerts', projectId], queryFn: () => get<Rule[]>(base) });
  const events = useQuery({ queryKey: ['alert-events', projectId], queryFn: () => get<AlertEvent[]>(`${base}/events?limit=50`) });
  const brands = useQuery({ queryKey: ['competitors', projectId, ''], queryFn: () => get<Data<'/v1/projects/{project_id}/competitors'>>(`/projects/${projectId}/competitors`) });
  const prompts = useQuery({ queryKey: ['prompts', projectId, ''], queryFn: () => get<Data<'/v1/projects/{project_id}/prompts'>>(`/projects/${projectId}/prompts`) });
  const [editing, setEditing] = useState<Rule | 'new' | null>(null);
  const [tests, setTests] = useState<Record<string, TestResult>>({});
  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: ['alerts', projectId] });
    void queryClient.invalidateQueries({ queryKey: ['alert-events', projectId] });
  };
  const remove = useMutation({ mutationFn: (id: string) => data('DELETE', `${base}/${id}`), onSuccess: refresh });
  const test = useMutation({
    mutationFn: (id: string) => data<TestResult>('POST', `${base}/${id}/test`),
    onSuccess: (result, id) => setTests((previous) => ({ ...previous, [id]: result })),
  });

  const brandList = brands.data?.active_competitors ?? [];
  const brandName = (id: string | null) => {
    const brand = brandList.find((candidate) => candidate.competitor_id === (id ?? OWN_BRAND_ID));
    return brand ? brand.name : id && id !== OWN_BRAND_ID ? 'a brand no longer tracked' : 'your brand';
  };
  const promptList = prompts.data?.prompts ?? [];
  const promptCount = (ids: string[]) =>
    ids.length === 1 ? `prompt “${promptList.find((prompt) => prompt.id === ids[0])?.content ?? 'no longer in the project'}”` : plural(ids.length, 'prompt');
  const lastFired = new Map<string, string>();
  for (const event of events.data ?? []) if (!lastFired.has(event.alert_id)) lastFired.set(event.alert_id, event.fired_at);
  const ruleName = (id: string) => rules.data?.find((rule) => rule.alert_id === id)?.name ?? 'a deleted rule';

  return (
    <div class="alerts-page">
      <TopBar title="Alerts" />
      <p class="muted">
        A rule fires when what it watches really changed: a change the trend test finds significant (p &lt; 0.05, at least 10 answers in each window), or a threshold crossed. It is
        evaluated after every collection run, and fires once per change.
      </p>
      <Section
        title="Rules"
        actions={
          <>
            {rules.data?.length ? (
              <CsvButton
                filename="alert-rules.csv"
                header={['alert_id', 'name', 'watches', 'channels', 'active', 'last_fired']}
                rows={() => rules.data.map((rule) => [rule.alert_id, rule.name, describeRule(rule, brandName, promptCount), rule.channels.map(channelText).join('; '), rule.is_active, lastFired.get(rule.alert_id) ?? ''])}
              />
            ) : null}
            {canWrite && rules.data?.length && editing === null ? (
              <button type="button" class="small" onClick={() => setEditing('new')}>
                New rule
              </button>
            ) : null}
          </>
        }
      >
        {rules.isPending ? <Loading what="Loading the rules" /> : null}
        <ErrorBox error={rules.error} />
        <ErrorBox error={remove.error} />
        <ErrorBox error={test.error} />
        {!canWrite ? <p class="muted small">Rules are managed by an admin: you see them read-only.</p> : null}
        {rules.data?.length === 0 ? (
          <div class="alerts-empty" data-empty="rules">
            <Empty>No alert rule yet: nothing tells you when your brand's figures really change.</Empty>
            {canWrite && editing === null ? (
              <button type="button" onClick={() => setEditing('new')}>
                Create an alert rule
              </button>
            ) : null}
          </div>
        ) : null}
        {rules.data?.length ? (
          <ListTable
            name="alert-rules"
            label="Alert rules"
            rows={rules.data}
            rowKey={(rule) => rule.alert_id}
            rowHeader="rule"
            rowAttributes={(rule) => ({ 'data-rule': rule.name })}
            columns={[
              {
                key: 'rule',
                header: 'Rule',
                className: 'wrap',
                cell: (rule) => (
                  <>
                    {rule.name} {rule.is_active ? null : <span class="tag">paused</span>}
                  </>
                ),
              },
              { key: 'watches', header: 'Watches', className: 'wrap', cellAttributes: () => ({ 'data-label': 'Watches', 'data-watches': true }), cell: (rule) => describeRule(rule, brandName, promptCount) },
              {
                key: 'channels',
                header: 'Channels',
                className: 'wrap',
                cellAttributes: () => ({ 'data-label': 'Channels' }),
                cell: (rule) => (
                  <>
                    {rule.channels.length ? (
                      <ul class="plain">
                        {rule.channels.map((channel, i) => (
                          <li key={i}>{channelText(channel)}</li>
                        ))}
                      </ul>
                    ) : (
                      <span class="muted">none (events only)</span>
                    )}
                    {tests[rule.alert_id] ? <TestResults results={tests[rule.alert_id]} /> : null}
                  </>
                ),
              },
              {
                key: 'fired',
                header: 'Last fired',
                cellAttributes: () => ({ 'data-label': 'Last fired' }),
                cell: (rule) => (lastFired.has(rule.alert_id) ? when(lastFired.get(rule.alert_id) ?? '') : <span class="muted">never</span>),
              },
              {
                key: 'actions',
                header: 'Actions',
                cell: (rule) => (
                  <div class="row-actions">
                    <button
                      type="button"
                      class="secondary small"
                      disabled={!canWrite || !rule.channels.length || (test.isPending && test.variables === rule.alert_id)}
                      title={rule.channels.length ? undefined : 'This rule has no channel to test'}
                      onClick={() => test.mutate(rule.alert_id)}
                    >
                      {test.isPending && test.variables === rule.alert_id ? 'Sending…' : 'Send test'}
                    </button>
                    <button type="button" class="secondary small" disabled={!canWrite} onClick={() => setEditing(rule)} aria-label={`Edit ${rule.name}`}>
                      Edit
                    </button>
                    <button
                      type="button"
                      class="danger small"
                      disabled={!canWrite}
                      aria-label={`Delete ${rule.name}`}
                      onClick={() => confirm(`Delete the rule “${rule.name}” and its events?`) && remove.mutate(rule.alert_id)}
                    >
                      Delete
                    </button>
                  </div>
                ),
              },
            ]}
          />
        ) : null}
      </Section>
      {editing !== null && canWrite ? (
        <RuleForm
          key={editing === 'new' ? 'new' : editing.alert_id}
          projectId={projectId}
          rule={editing === 'new' ? null : editing}
          brands={brandList.map((brand) => ({ id: brand.competitor_id, name: brand.is_own_brand ? `${brand.name} (your brand)` : brand.name }))}
          prompts={promptList.map((prompt) => ({ id: prompt.id, content: prompt.content }))}
          onDone={() => {
            setEditing(null);
            refresh();
          }}
          onCancel={() => setEditing(null)}
        />
      ) : null}
      <Section
        title="Events"
        actions={
          events.data?.length ? (
            <CsvButton
              filename="alert-events.csv"
              header={['event_id', 'rule', 'metric', 'condition', 'value', 'previous', 'p_value', 'start_date', 'end_date', 'previous_start_date', 'previous_end_date', 'names', 'deliveries', 'fired_at']}
              rows={() =>
                events.data.map((event) => [
                  event.event_id,
                  ruleName(event.alert_id),
                  event.metric,
                  event.condition,
                  event.value,
                  event.previous,
                  event.p_value,
                  event.window.start_date,
                  event.window.end_date,
                  event.window.previous_start_date,
                  event.window.previous_end_date,
                  (event.names ?? []).join(' | '),
                  event.deliveries.map((delivery) => `${delivery.type}:${delivery.status}`).join(' '),
                  event.fired_at,
                ])
              }
            />
          ) : null
        }
      >
        {events.isPending ? <Loading what="Loading the events" /> : null}
        <ErrorBox error={events.error} />
        {events.data?.length === 0 ? <Empty>No alert has fired yet. Events appear here after the collection run that sees a change.</Empty> : null}
        {events.data?.length ? (
          <ol class="alert-events" data-list="alert-events">
            {events.data.map((event) => (
              <EventItem key={event.event_id} e={event} ruleName={ruleName(event.alert_id)} />
            ))}
          </ol>
        ) : null}
      </Section>
    </div>
  );
}

function TestResults({ results }: { results: TestResult }) {
  if (!results.length) return null;
  return (
    <ul class="plain test-results" data-test-results aria-label="Test send results">
      {results.map((result, i) => (
        <li key={i} data-channel={result.type} data-ok={String(result.ok)}>
          <span class={result.ok ? 'tag ok' : 'tag failed'}>{result.ok ? 'sent' : 'failed'}</span> {result.type}: <span class="wrap">{result.detail}</span>
        </li>
      ))}
    </ul>
  );
}

function figure(metric: Metric, value: number | null | undefined) {
  if (value === null || value === undefined) return '–';
  if (metric === 'position') return value.toFixed(1);
  if (metric === 'sentiment') return value.toFixed(0);
  return `${value.toFixed(1)}%`;
}

function EventItem({ e: alertEvent, ruleName }: { e: AlertEvent; ruleName: string }) {
  const eventWindow = alertEvent.window;
  const fresh = isNewThing(alertEvent.metric);
  return (
    <li class="alert-event" data-event={alertEvent.event_id} data-metric={alertEvent.metric}>
      <div class="event-head">
        <strong class="wrap">{ruleName}</strong>
        <span class="muted small">
          <time dateTime={alertEvent.fired_at}>{when(alertEvent.fired_at)}</time>
        </span>
      </div>
      {fresh ? (
        <p>
          {alertEvent.metric === 'new_competitor' ? 'Brands named in the answers and not tracked: ' : 'Domains cited for the first time in 28 days: '}
          {(alertEvent.names ?? []).map((name, i) => (
            <span key={name}>
              {i ? ', ' : ''}
              <strong class="wrap" data-name>
                {name}
              </strong>
            </span>
          ))}
          {alertEvent.names?.length ? null : plural(alertEvent.value, 'name')}
        </p>
      ) : (
        <p data-figure>
          {METRIC_NAMES[alertEvent.metric]} {CONDITION_NAMES[alertEvent.condition]}: <strong>{figure(alertEvent.metric, alertEvent.value)}</strong> against <strong>{figure(alertEvent.metric, alertEvent.previous)}</strong> before
          {alertEvent.p_value !== null && alertEvent.p_value !== undefined ? <span class="muted"> (p = {alertEvent.p_value < 0.001 ? alertEvent.p_value.toExponential(1) : alertEvent.p_value.toFixed(3)})</span> : null}
        </p>
      )}
      <p class="muted small">
        {eventWindow.start_date} to {eventWindow.end_date}
        {fresh ? null : (
          <>
            {' '}
            ({plural(eventWindow.responses, 'answer')}) against {eventWindow.previous_start_date} to {eventWindow.previous_end_date} ({plural(eventWindow.previous_responses, 'answer')})
          </>
        )}
      </p>
      {alertEvent.deliveries.length ? (
        <ul class="plain deliveries">
          {alertEvent.deliveries.map((delivery, i) => (
            <li key={i} data-delivery={delivery.type} data-status={delivery.status}>
              <span class={`tag ${delivery.status}`}>{delivery.status}</span> {delivery.type}, {plural(delivery.attempts, 'attempt')}
              {delivery.last_error ? <span class="wrap error-text">: {delivery.last_error}</span> : null}
            </li>
          ))}
        </ul>
      ) : (
        <p class="muted small">No channel: recorded here only.</p>
      )}
    </li>
  );
}

interface Choice {
  id: string;
  name: string;
}

function RuleForm(props: { projectId: string; rule: Rule | null; brands: Choice[]; prompts: Array<{ id: string; content: string }>; onDone: () => void; onCancel: () => void }) {
  const rule = props.rule;
  const [metric, setMetric] = useState<Metric>(rule?.metric ?? 'visibility');
  const [condition, setCondition] = useState<Condition>(rule?.condition ?? 'significant_drop');
  const email = rule?.channels.find((channel): channel is Extract<Channel, { type: 'email' }> => channel.type === 'email');
  const slack = rule?.channels.find((channel): channel is Extract<Channel, { type: 'slack' }> => channel.type === 'slack');
  const save = useMutation({
    mutationFn: (body: RuleBody) => data<Rule>(rule ? 'PATCH' : 'POST', rule ? `/projects/${props.projectId}/alerts/${rule.alert_id}` : `/projects/${props.projectId}/alerts`, body),
    onSuccess: props.onDone,
  });
  const nameField = useRef<HTMLInputElement>(null);
  // The form opens under the list: bring it into view and start at its first field.
  useEffect(() => {
    nameField.current?.scrollIntoView({ block: 'center' });
    nameField.current?.focus({ preventScroll: true });
  }, []);
  const fresh = isNewThing(metric);
  const threshold = fresh || condition === 'below' || condition === 'above';
  const submit = (event: Event) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    const providers = form.getAll('providers').map(String) as NonNullable<RuleBody['providers']>;
    const to = String(form.get('email') ?? '')
      .split(/[\s,;]+/)
      .filter(Boolean);
    const slackUrl = String(form.get('slack') ?? '').trim();
    const channels: Channel[] = [...(to.length ? [{ type: 'email' as const, to }] : []), ...(slackUrl ? [{ type: 'slack' as const, url: slackUrl }] : []), ...(form.get('webhook') ? [{ type: 'webhook' as const }] : [])];
    const thresholdText = String(form.get('threshold') ?? '').trim();
    const promptIds = form.getAll('prompt_ids').map(String);
    const brand = String(form.get('brand_id') ?? '');
    save.mutate({
      name: String(form.get('name')).trim(),
      metric,
      condition: fresh ? 'above' : condition,
      threshold: threshold && thresholdText !== '' ? Number(thresholdText) : null,
      window_days: Number(form.get('window_days')),
      providers: providers.length && providers.length < PROVIDERS.length ? providers : null,
      prompt_ids: takesPrompts(metric) && promptIds.length ? promptIds : null,
      brand_id: takesBrand(metric) && brand ? brand : null,
      channels,
      is_active: !!form.get('is_active'),
    });
  };
  return (
    <Section title={rule ? `Edit “${rule.name}”` : 'New alert rule'}>
      <form onSubmit={submit} class="rule-form" aria-label={rule ? 'Edit alert rule' : 'New alert rule'}>
        <div class="rule-grid">
          <Field label="Rule name">
            <input ref={nameField} name="name" required maxLength={200} defaultValue={rule?.name ?? ''} placeholder="Visibility drop" />
          </Field>
          <Field label="Watch">
            <select name="metric" value={metric} onChange={(event) => setMetric((event.currentTarget as HTMLSelectElement).value as Metric)}>
              {METRICS.map((metric) => (
                <option key={metric} value={metric}>
                  {METRIC_NAMES[metric]}
                </option>
              ))}
            </select>
          </Field>
          {fresh ? null : (
            <Field label="Fires when it">
              <select name="condition" value={condition} onChange={(event) => setCondition((event.currentTarget as HTMLSelectElement).value as Condition)}>
                {CONDITIONS.map((condition) => (
                  <option key={condition} value={condition}>
                    {CONDITION_NAMES[condition]}
                  </option>
                ))}
              </select>
            </Field>
          )}
          {threshold ? (
            <Field
              label={fresh ? 'Fires when more than' : `Threshold${unitOf(metric) ? ` (${unitOf(metric)})` : ''}`}
              hint={fresh ? 'new names (0: any new one)' : metric === 'position' ? 'rank: 1 is named first' : metric === 'sentiment' ? '0 to 100' : 'percent'}
            >
              <input name="threshold" type="number" step="any" min={0} required={!fresh} defaultValue={rule?.threshold === null || rule?.threshold === undefined ? (fresh ? '0' : '') : String(rule.threshold)} />
            </Field>
          ) : null}
          <Field label="Window (days)" hint={fresh ? 'the answers of the last days' : 'compared with the same number of days before'}>
            <input name="window_days" type="number" min={1} max={90} required defaultValue={String(rule?.window_days ?? 7)} />
          </Field>
          {takesBrand(metric) ? (
            <Field label="Brand">
              <select name="brand_id" defaultValue={rule?.brand_id ?? OWN_BRAND_ID}>
                {props.brands.map((choice) => (
                  <option key={choice.id} value={choice.id}>
                    {choice.name}
                  </option>
                ))}
              </select>
            </Field>
          ) : null}
        </div>
        <fieldset class="engines">
          <legend>Engines (none ticked: every engine)</legend>
          {PROVIDERS.map((provider) => (
            <label key={provider} class="check">
              <input type="checkbox" name="providers" value={provider} defaultChecked={!!rule?.providers?.includes(provider)} />
              {PROVIDER_NAMES[provider]}
            </label>
          ))}
        </fieldset>
        {takesPrompts(metric) && props.prompts.length ? (
          <Field label="Only these prompts" hint="Own brand only. None chosen: every prompt. Ctrl or Cmd + click to choose several.">
            <select name="prompt_ids" multiple size={Math.min(5, props.prompts.length)} class="prompt-choice">
              {props.prompts.map((prompt) => (
                <option key={prompt.id} value={prompt.id} selected={!!rule?.prompt_ids?.includes(prompt.id)}>
                  {prompt.content}
                </option>
              ))}
            </select>
          </Field>
        ) : null}
        <fieldset class="channels">
          <legend>Channels</legend>
          <div class="rule-grid">
            <Field label="E-mail to" hint="addresses separated by commas">
              <input name="email" type="text" inputMode="email" defaultValue={email?.to.join(', ') ?? ''} placeholder="team@example.com" />
            </Field>
            <Field label="Slack incoming-webhook URL">
              <input name="slack" type="url" defaultValue={slack?.url ?? ''} placeholder="https://hooks.slack.com/services/…" />
            </Field>
          </div>
          <label class="check">
            <input type="checkbox" name="webhook" defaultChecked={!!rule?.channels.some((channel) => channel.type === 'webhook')} />
            The team's webhooks subscribed to alert.triggered
          </label>
        </fieldset>
        <label class="check active-check">
          <input type="checkbox" name="is_active" defaultChecked={rule?.is_active ?? true} />
          Active
        </label>
        <ErrorBox error={save.error} />
        <div class="row-actions">
          <button type="submit" disabled={save.isPending}>
            {rule ? 'Save rule' : 'Create rule'}
          </button>
          <button type="button" class="secondary" onClick={props.onCancel}>
            Cancel
          </button>
        </div>
      </form>
    </Section>
  );
}
