import { performance } from 'node:perf_hooks';
import pino from 'pino';
import { loadConfig } from '../src/config.js';
import { utcDay } from '../src/lib/time.js';
import { evaluateProjectAlerts } from '../src/modules/alerts/evaluate.js';
import { addDays } from '../src/modules/analytics/window.js';
import { storeAnswers } from '../src/modules/answers/store-answers.js';
import { createRuntime } from '../src/runtime.js';
import { answerOf, OWN, type AnswerSpec } from '../test/analytics-fixture.js';
import { describeMachine, fmt, machineInfo, revision, table, updateReadmeSection, type Suite } from './lib/index.js';

// Issue 27: the alert evaluation a collection run ends with. A 100-prompt project with 14
// days of answers (5 engines a day) and 100 rules of every figure metric (own brand, a
// competitor, per engine, per prompt); the evaluation is timed as the job runs it, on the
// embedded store. Goal: ≤ 50 ms for the 100 rules. The yardstick is one GET of the
// project's competitors (the same rollups, read once) in the same run.

const PROMPTS = 100;
const DAYS = 14;
const PROVIDERS = ['chatgpt', 'perplexity', 'google_ai_overview', 'gemini', 'claude'] as const;
const RUNS = 30;

const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))];

export const alertsSuite: Suite = {
  name: 'alerts',
  description: '100 alert rules evaluated after a run of a 100-prompt project',
  async run() {
    const machine = machineInfo();
    const config = loadConfig({}, { memoryStore: true, logLevel: 'silent', role: 'api' });
    const runtime = await createRuntime(config, pino({ level: 'silent' }));
    const app = runtime.app!;
    const inject = async (method: 'GET' | 'POST', url: string, key: string | null, payload?: unknown) => {
      const res = await app.inject({ method, url, headers: key ? { 'x-api-key': key } : {}, ...(payload ? { payload: payload as object } : {}) });
      if (res.statusCode >= 300) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
      return res.json().data;
    };
    try {
      const acct = await inject('POST', '/v1/account/create', null, { email: `bench-alerts-${Date.now()}@example.com` });
      const key = (await inject('POST', '/v1/account/api-key', null, { email: acct.email, password: acct.password })).api_key as string;
      await runtime.ctx.store.query(`update teams set plan = 'enterprise', rate_limit_tier = 'premium' where id = $1`, [acct.team_id]);
      runtime.http!.authCache.invalidateTeam(acct.team_id);
      const projectId = (await inject('POST', '/v1/account/projects', key, { brand_name: 'Acme', brand_url: 'https://acme.com', webhook_url: 'https://hooks.acme.com/cb' })).project_id as string;
      const topicId = (await inject('POST', `/v1/projects/${projectId}/topics`, key, { name: 'Bench' })).topic_id as string;
      const promptIds: string[] = [];
      for (let i = 0; i < PROMPTS; i += 50) {
        const batch = Array.from({ length: 50 }, (_, j) => `Bench question number ${i + j + 1} about CRM tools?`);
        promptIds.push(...(await inject('POST', `/v1/projects/${projectId}/prompts`, key, { prompts: batch, topicId })).prompts.map((p: { id: string }) => p.id));
      }
      const rival = (await inject('POST', `/v1/projects/${projectId}/competitors`, key, { competitors: [{ name: 'Rival', website: 'https://rival.com' }] })).competitors[0].competitorId as string;
      const today = utcDay();
      const t0 = performance.now();
      for (let d = DAYS - 1; d >= 0; d--) {
        const specs: AnswerSpec[] = promptIds.flatMap((prompt, i) =>
          PROVIDERS.map((provider, k) => ({ prompt, provider, day: addDays(today, -d), named: (i + k + d) % 3 ? { [OWN]: [1 + (k % 3), 1, 50 + k * 5], [rival]: [2, 1, 55] } : {} }) as AnswerSpec),
        );
        await runtime.ctx.store.tx((tx) => storeAnswers(tx, projectId, specs.map((s) => answerOf(s, 'acme.com', { 'rival.com': rival }))));
      }
      const seedSeconds = (performance.now() - t0) / 1000;
      const metrics = ['visibility', 'position', 'sentiment', 'own_citations', 'share_of_voice'];
      const conditions = ['significant_drop', 'significant_rise', 'significant_change', 'below', 'above'];
      for (let i = 0; i < 100; i++) {
        const metric = metrics[i % metrics.length];
        const body: Record<string, unknown> = { name: `Rule ${i}`, metric, condition: conditions[Math.floor(i / 5) % 5], threshold: 40, channels: [] };
        if (i % 4 === 1) body.providers = [PROVIDERS[i % 5]];
        if (i % 4 === 2 && metric !== 'share_of_voice') body.prompt_ids = promptIds.slice(i % 50, (i % 50) + 5);
        if (i % 4 === 3 && metric !== 'own_citations') body.brand_id = rival;
        await inject('POST', `/v1/projects/${projectId}/alerts`, key, body);
      }
      const timed = async (fn: () => Promise<unknown>) => {
        const times: number[] = [];
        for (let i = 0; i < RUNS + 3; i++) {
          const s = performance.now();
          await fn();
          if (i >= 3) times.push(performance.now() - s);
        }
        return times;
      };
      const evaluation = await timed(() => evaluateProjectAlerts(runtime.ctx, { projectId, day: today, runId: null }));
      const yardstick = await timed(() => inject('GET', `/v1/projects/${projectId}/competitors?duration_days=7`, key));
      const rows = [
        ['evaluate 100 rules (after a run)', fmt.ms(pct(evaluation, 0.5)), fmt.ms(pct(evaluation, 0.99)), '≤ 50 ms', pct(evaluation, 0.5) <= 50 ? 'met' : 'missed'],
        ['yardstick: GET /competitors, 7 days', fmt.ms(pct(yardstick, 0.5)), fmt.ms(pct(yardstick, 0.99)), '', ''],
      ];
      const report = `## Alerts (issue 27)

${describeMachine(machine)}; revision ${revision()}. Embedded store (PGlite, in memory), ${PROMPTS} prompts × ${PROVIDERS.length} engines × ${DAYS} days = ${fmt.int(PROMPTS * PROVIDERS.length * DAYS)} answers (seeded in ${seedSeconds.toFixed(1)} s), 100 rules of the five figure metrics (a quarter per engine, per 5 prompts, or on a competitor), ${RUNS} timed evaluations after 3 warm-ups. The machine is shared: the load average is stated above.

${table(['what', 'p50', 'p99', 'goal', ''], rows)}

Rules that ask for the same windows and filters share their reads (src/modules/alerts/figures.ts), so 100 rules cost a few rollup reads, not 100.`;
      console.log(report);
      updateReadmeSection('alerts', report);
    } finally {
      await runtime.stop();
    }
  },
};
