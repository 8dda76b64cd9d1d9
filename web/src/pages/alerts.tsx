import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'preact/hooks';
import { data, get } from '../api';
import type { Data, RequestBody, Schemas } from '../api-types';
import { CsvButton } from '../csv';
import { useCanWrite } from '../session';
import { Empty, ErrorBox, Field, Loading, Section, TableWrap, formatFigure } from '../ui';
import { PROVIDERS, PROVIDER_NAMES } from '../window';
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
const isNewThing = (m: Metric) => m === 'new_competitor' || m === 'new_cited_domain';
/** Only the own brand's figures are kept per prompt (docs/alerts.md). */
const takesPrompts = (m: Metric) => m === 'visibility' || m === 'position' || m === 'sentiment' || m === 'own_citations';
const takesBrand = (m: Metric) => m === 'visibility' || m === 'share_of_voice' || m === 'position' || m === 'sentiment';
const unitOf = (m: Metric) => (m === 'visibility' || m === 'share_of_voice' || m === 'own_citations' ? '%' : '');

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
const when = (iso: string) => `${iso.replace('T', ' ').slice(0, 16)} UTC`;

/** What a rule watches, in words: metric and brand, condition, window, engines and prompts. */
export function describeRule(r: Rule, brandName: (id: string | null) => string, promptCount: (ids: string[]) => string): string {
  const days = plural(r.window_days, 'day');
  if (isNewThing(r.metric)) {
    const what = r.metric === 'new_competitor' ? 'untracked brand' : 'newly cited domain';
    const n = r.threshold ?? 0;
    const head = n > 0 ? `More than ${plural(n, what)}` : `Any ${what}`;
    return `${head} in the last ${days}${enginesText(r.providers)}`;
  }
  const subject = `${METRIC_NAMES[r.metric]}${takesBrand(r.metric) ? ` of ${brandName(r.brand_id)}` : ''}`;
  const condition =
    r.condition === 'below' || r.condition === 'above'
      ? `${CONDITION_NAMES[r.condition]} ${formatFigure(r.threshold, r.metric === 'position' ? 1 : 0)}${unitOf(r.metric)} over ${days}`
      : `${CONDITION_NAMES[r.condition]}, ${days} against the ${days} before`;
  const prompts = r.prompt_ids?.length ? `, ${promptCount(r.prompt_ids)}` : '';
  return `${subject} ${condition}${enginesText(r.providers)}${prompts}`;
}
const enginesText = (p: string[] | null) => (p?.length ? `, on ${p.map((x) => PROVIDER_NAMES[x] ?? x).join(', ')}` : ', on every engine');

const channelText = (c: Channel) => (c.type === 'email' ? `E-mail to ${c.to.join(', ')}` : c.type === 'slack' ? 'Slack' : 'Webhooks (alert.triggered)');

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
    onSuccess: (r, id) => setTests((t) => ({ ...t, [id]: r })),
  });

  const brandList = brands.data?.active_competitors ?? [];
  const brandName = (id: string | null) => {
    const b = brandList.find((c) => c.competitor_id === (id ?? OWN_BRAND_ID));
    return b ? b.name : id && id !== OWN_BRAND_ID ? 'a brand no longer tracked' : 'your brand';
  };
  const promptList = prompts.data?.prompts ?? [];
  const promptCount = (ids: string[]) =>
    ids.length === 1 ? `prompt “${promptList.find((p) => p.id === ids[0])?.content ?? 'no longer in the project'}”` : plural(ids.length, 'prompt');
  const lastFired = new Map<string, string>();
  for (const e of events.data ?? []) if (!lastFired.has(e.alert_id)) lastFired.set(e.alert_id, e.fired_at);
  const ruleName = (id: string) => rules.data?.find((r) => r.alert_id === id)?.name ?? 'a deleted rule';

  return (
    <div class="alerts-page">
      <h1>Alerts</h1>
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
                rows={() => rules.data.map((r) => [r.alert_id, r.name, describeRule(r, brandName, promptCount), r.channels.map(channelText).join('; '), r.is_active, lastFired.get(r.alert_id) ?? ''])}
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
          <TableWrap label="Alert rules">
            <table data-table="alert-rules">
              <thead>
                <tr>
                  <th scope="col">Rule</th>
                  <th scope="col">Watches</th>
                  <th scope="col">Channels</th>
                  <th scope="col">Last fired</th>
                  <th scope="col">Actions</th>
                </tr>
              </thead>
              <tbody>
                {rules.data.map((r) => (
                  <tr key={r.alert_id} data-rule={r.name}>
                    <th scope="row" class="wrap">
                      {r.name} {r.is_active ? null : <span class="tag">paused</span>}
                    </th>
                    <td class="wrap" data-label="Watches" data-watches>
                      {describeRule(r, brandName, promptCount)}
                    </td>
                    <td class="wrap" data-label="Channels">
                      {r.channels.length ? (
                        <ul class="plain">
                          {r.channels.map((c, i) => (
                            <li key={i}>{channelText(c)}</li>
                          ))}
                        </ul>
                      ) : (
                        <span class="muted">none (events only)</span>
                      )}
                      {tests[r.alert_id] ? <TestResults results={tests[r.alert_id]} /> : null}
                    </td>
                    <td data-label="Last fired">{lastFired.has(r.alert_id) ? when(lastFired.get(r.alert_id) ?? '') : <span class="muted">never</span>}</td>
                    <td>
                      <div class="row-actions">
                        <button
                          type="button"
                          class="secondary small"
                          disabled={!canWrite || !r.channels.length || (test.isPending && test.variables === r.alert_id)}
                          title={r.channels.length ? undefined : 'This rule has no channel to test'}
                          onClick={() => test.mutate(r.alert_id)}
                        >
                          {test.isPending && test.variables === r.alert_id ? 'Sending…' : 'Send test'}
                        </button>
                        <button type="button" class="secondary small" disabled={!canWrite} onClick={() => setEditing(r)} aria-label={`Edit ${r.name}`}>
                          Edit
                        </button>
                        <button
                          type="button"
                          class="danger small"
                          disabled={!canWrite}
                          aria-label={`Delete ${r.name}`}
                          onClick={() => confirm(`Delete the rule “${r.name}” and its events?`) && remove.mutate(r.alert_id)}
                        >
                          Delete
                        </button>
                      </div>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableWrap>
        ) : null}
      </Section>
      {editing !== null && canWrite ? (
        <RuleForm
          key={editing === 'new' ? 'new' : editing.alert_id}
          projectId={projectId}
          rule={editing === 'new' ? null : editing}
          brands={brandList.map((b) => ({ id: b.competitor_id, name: b.is_own_brand ? `${b.name} (your brand)` : b.name }))}
          prompts={promptList.map((p) => ({ id: p.id, content: p.content }))}
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
                events.data.map((e) => [
                  e.event_id,
                  ruleName(e.alert_id),
                  e.metric,
                  e.condition,
                  e.value,
                  e.previous,
                  e.p_value,
                  e.window.start_date,
                  e.window.end_date,
                  e.window.previous_start_date,
                  e.window.previous_end_date,
                  (e.names ?? []).join(' | '),
                  e.deliveries.map((d) => `${d.type}:${d.status}`).join(' '),
                  e.fired_at,
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
            {events.data.map((e) => (
              <EventItem key={e.event_id} e={e} ruleName={ruleName(e.alert_id)} />
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
      {results.map((t, i) => (
        <li key={i} data-channel={t.type} data-ok={String(t.ok)}>
          <span class={t.ok ? 'tag ok' : 'tag failed'}>{t.ok ? 'sent' : 'failed'}</span> {t.type}: <span class="wrap">{t.detail}</span>
        </li>
      ))}
    </ul>
  );
}

function figure(metric: Metric, v: number | null | undefined) {
  if (v === null || v === undefined) return '–';
  if (metric === 'position') return v.toFixed(1);
  if (metric === 'sentiment') return v.toFixed(0);
  return `${v.toFixed(1)}%`;
}

function EventItem({ e, ruleName }: { e: AlertEvent; ruleName: string }) {
  const w = e.window;
  const fresh = isNewThing(e.metric);
  return (
    <li class="alert-event" data-event={e.event_id} data-metric={e.metric}>
      <div class="event-head">
        <strong class="wrap">{ruleName}</strong>
        <span class="muted small">
          <time dateTime={e.fired_at}>{when(e.fired_at)}</time>
        </span>
      </div>
      {fresh ? (
        <p>
          {e.metric === 'new_competitor' ? 'Brands named in the answers and not tracked: ' : 'Domains cited for the first time in 28 days: '}
          {(e.names ?? []).map((n, i) => (
            <span key={n}>
              {i ? ', ' : ''}
              <strong class="wrap" data-name>
                {n}
              </strong>
            </span>
          ))}
          {e.names?.length ? null : plural(e.value, 'name')}
        </p>
      ) : (
        <p data-figure>
          {METRIC_NAMES[e.metric]} {CONDITION_NAMES[e.condition]}: <strong>{figure(e.metric, e.value)}</strong> against <strong>{figure(e.metric, e.previous)}</strong> before
          {e.p_value !== null && e.p_value !== undefined ? <span class="muted"> (p = {e.p_value < 0.001 ? e.p_value.toExponential(1) : e.p_value.toFixed(3)})</span> : null}
        </p>
      )}
      <p class="muted small">
        {w.start_date} to {w.end_date}
        {fresh ? null : (
          <>
            {' '}
            ({plural(w.responses, 'answer')}) against {w.previous_start_date} to {w.previous_end_date} ({plural(w.previous_responses, 'answer')})
          </>
        )}
      </p>
      {e.deliveries.length ? (
        <ul class="plain deliveries">
          {e.deliveries.map((d, i) => (
            <li key={i} data-delivery={d.type} data-status={d.status}>
              <span class={`tag ${d.status}`}>{d.status}</span> {d.type}, {plural(d.attempts, 'attempt')}
              {d.last_error ? <span class="wrap error-text">: {d.last_error}</span> : null}
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
  const r = props.rule;
  const [metric, setMetric] = useState<Metric>(r?.metric ?? 'visibility');
  const [condition, setCondition] = useState<Condition>(r?.condition ?? 'significant_drop');
  const email = r?.channels.find((c): c is Extract<Channel, { type: 'email' }> => c.type === 'email');
  const slack = r?.channels.find((c): c is Extract<Channel, { type: 'slack' }> => c.type === 'slack');
  const save = useMutation({
    mutationFn: (body: RuleBody) => data<Rule>(r ? 'PATCH' : 'POST', r ? `/projects/${props.projectId}/alerts/${r.alert_id}` : `/projects/${props.projectId}/alerts`, body),
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
  const submit = (ev: Event) => {
    ev.preventDefault();
    const f = new FormData(ev.currentTarget as HTMLFormElement);
    const providers = f.getAll('providers').map(String) as NonNullable<RuleBody['providers']>;
    const to = String(f.get('email') ?? '')
      .split(/[\s,;]+/)
      .filter(Boolean);
    const slackUrl = String(f.get('slack') ?? '').trim();
    const channels: Channel[] = [...(to.length ? [{ type: 'email' as const, to }] : []), ...(slackUrl ? [{ type: 'slack' as const, url: slackUrl }] : []), ...(f.get('webhook') ? [{ type: 'webhook' as const }] : [])];
    const t = String(f.get('threshold') ?? '').trim();
    const promptIds = f.getAll('prompt_ids').map(String);
    const brand = String(f.get('brand_id') ?? '');
    save.mutate({
      name: String(f.get('name')).trim(),
      metric,
      condition: fresh ? 'above' : condition,
      threshold: threshold && t !== '' ? Number(t) : null,
      window_days: Number(f.get('window_days')),
      providers: providers.length && providers.length < PROVIDERS.length ? providers : null,
      prompt_ids: takesPrompts(metric) && promptIds.length ? promptIds : null,
      brand_id: takesBrand(metric) && brand ? brand : null,
      channels,
      is_active: !!f.get('is_active'),
    });
  };
  return (
    <Section title={r ? `Edit “${r.name}”` : 'New alert rule'}>
      <form onSubmit={submit} class="rule-form" aria-label={r ? 'Edit alert rule' : 'New alert rule'}>
        <div class="rule-grid">
          <Field label="Rule name">
            <input ref={nameField} name="name" required maxLength={200} defaultValue={r?.name ?? ''} placeholder="Visibility drop" />
          </Field>
          <Field label="Watch">
            <select name="metric" value={metric} onChange={(e) => setMetric((e.currentTarget as HTMLSelectElement).value as Metric)}>
              {METRICS.map((m) => (
                <option key={m} value={m}>
                  {METRIC_NAMES[m]}
                </option>
              ))}
            </select>
          </Field>
          {fresh ? null : (
            <Field label="Fires when it">
              <select name="condition" value={condition} onChange={(e) => setCondition((e.currentTarget as HTMLSelectElement).value as Condition)}>
                {CONDITIONS.map((c) => (
                  <option key={c} value={c}>
                    {CONDITION_NAMES[c]}
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
              <input name="threshold" type="number" step="any" min={0} required={!fresh} defaultValue={r?.threshold === null || r?.threshold === undefined ? (fresh ? '0' : '') : String(r.threshold)} />
            </Field>
          ) : null}
          <Field label="Window (days)" hint={fresh ? 'the answers of the last days' : 'compared with the same number of days before'}>
            <input name="window_days" type="number" min={1} max={90} required defaultValue={String(r?.window_days ?? 7)} />
          </Field>
          {takesBrand(metric) ? (
            <Field label="Brand">
              <select name="brand_id" defaultValue={r?.brand_id ?? OWN_BRAND_ID}>
                {props.brands.map((b) => (
                  <option key={b.id} value={b.id}>
                    {b.name}
                  </option>
                ))}
              </select>
            </Field>
          ) : null}
        </div>
        <fieldset class="engines">
          <legend>Engines (none ticked: every engine)</legend>
          {PROVIDERS.map((p) => (
            <label key={p} class="check">
              <input type="checkbox" name="providers" value={p} defaultChecked={!!r?.providers?.includes(p)} />
              {PROVIDER_NAMES[p]}
            </label>
          ))}
        </fieldset>
        {takesPrompts(metric) && props.prompts.length ? (
          <Field label="Only these prompts" hint="Own brand only. None chosen: every prompt. Ctrl or Cmd + click to choose several.">
            <select name="prompt_ids" multiple size={Math.min(5, props.prompts.length)} class="prompt-choice">
              {props.prompts.map((p) => (
                <option key={p.id} value={p.id} selected={!!r?.prompt_ids?.includes(p.id)}>
                  {p.content}
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
            <input type="checkbox" name="webhook" defaultChecked={!!r?.channels.some((c) => c.type === 'webhook')} />
            The team's webhooks subscribed to alert.triggered
          </label>
        </fieldset>
        <label class="check active-check">
          <input type="checkbox" name="is_active" defaultChecked={r?.is_active ?? true} />
          Active
        </label>
        <ErrorBox error={save.error} />
        <div class="row-actions">
          <button type="submit" disabled={save.isPending}>
            {r ? 'Save rule' : 'Create rule'}
          </button>
          <button type="button" class="secondary" onClick={props.onCancel}>
            Cancel
          </button>
        </div>
      </form>
    </Section>
  );
}
