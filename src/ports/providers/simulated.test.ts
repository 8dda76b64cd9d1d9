import { describe, expect, it } from 'vitest';
import { createSimulatedProvider, simulateAnswer, SIMULATED_MODEL } from './simulated.js';
import { PROVIDERS, type AskInput, type MarketContext, type ProviderName } from './types.js';

const CONTEXT: MarketContext = {
  brand: { name: 'Acme CRM', domain: 'acmecrm.com', aliases: ['Acme'] },
  competitors: [
    { name: 'HubSpot', domain: 'hubspot.com' },
    { name: 'Pipedrive', domain: 'pipedrive.com' },
    { name: 'Salesforce', domain: 'salesforce.com' },
    { name: 'Zoho CRM', domain: 'zoho.com' },
    { name: 'Freshsales', domain: null },
  ],
};
const PROMPT = 'What is the best CRM for a small sales team?';
const ask = (day: string, prompt = PROMPT): AskInput => ({ prompt, day, context: CONTEXT });
const days = (n: number) => Array.from({ length: n }, (_, i) => new Date(Date.UTC(2025, 0, 1 + i)).toISOString().slice(0, 10));
const words = (t: string) => t.split(/\s+/).filter(Boolean).length;
const kindsOf = (raw: unknown) => (raw as { reference_kinds: string[] }).reference_kinds;

describe('simulated provider', () => {
  it('is deterministic for (prompt, provider, day)', () => {
    for (const p of PROVIDERS) expect(simulateAnswer(p, ask('2025-03-14'))).toEqual(simulateAnswer(p, ask('2025-03-14')));
  });

  it('answers differently on another day, for another prompt and for another provider', () => {
    const a = simulateAnswer('chatgpt', ask('2025-03-14'));
    expect(simulateAnswer('chatgpt', ask('2025-03-15')).text).not.toBe(a.text);
    expect(simulateAnswer('chatgpt', ask('2025-03-14', 'Which CRM integrates with Gmail?')).text).not.toBe(a.text);
    expect(simulateAnswer('perplexity', ask('2025-03-14')).text).not.toBe(a.text);
  });

  it('says it is simulated in every answer', async () => {
    for (const p of PROVIDERS) {
      const adapter = createSimulatedProvider(p);
      expect(adapter.simulated).toBe(true);
      const a = await adapter.ask(ask('2025-03-14'));
      expect(a).toMatchObject({ provider: p, model: SIMULATED_MODEL, simulated: true, raw: { simulated: true } });
      expect(typeof (a.raw as { seed: number }).seed).toBe('number');
    }
  });

  it('mentions the own brand on some days and not on others (roughly 40-70 %)', () => {
    for (const p of PROVIDERS) {
      const mentioned = days(30).filter((d) => simulateAnswer(p, ask(d)).text.includes('Acme CRM')).length;
      expect(mentioned, p).toBeGreaterThanOrEqual(5);
      expect(mentioned, p).toBeLessThanOrEqual(25);
    }
    let total = 0;
    const prompts = ['best crm for startups', 'crm with email tracking', 'cheapest crm for agencies', 'crm for real estate teams'];
    for (const prompt of prompts) for (const p of PROVIDERS) for (const d of days(60)) total += simulateAnswer(p, ask(d, prompt)).text.includes('Acme CRM') ? 1 : 0;
    const rate = total / (prompts.length * PROVIDERS.length * 60);
    expect(rate).toBeGreaterThan(0.35);
    expect(rate).toBeLessThan(0.75);
  });

  it('ranks 3 to 7 brands in bold: competitors, the own brand some days, other brands of the market', () => {
    const others = new Set<string>();
    for (const p of PROVIDERS) {
      for (const d of days(20)) {
        const a = simulateAnswer(p, ask(d));
        const bold = [...a.text.matchAll(/\*\*([^*]+?):?\*\*/g)].map((m) => m[1]).filter((n) => !/Bottom line|What to consider/.test(n));
        expect(bold.length, `${p} ${d}`).toBeGreaterThanOrEqual(3);
        expect(bold.length, `${p} ${d}`).toBeLessThanOrEqual(7);
        for (const n of bold) if (n !== 'Acme CRM' && !CONTEXT.competitors.some((c) => c.name === n)) others.add(n);
      }
    }
    expect(others.size).toBeGreaterThanOrEqual(3);
  });

  it('cites 4 to 10 references as [n] markers numbered by first appearance', () => {
    for (const p of PROVIDERS) {
      for (const d of days(15)) {
        const a = simulateAnswer(p, ask(d));
        expect(a.references.length).toBeGreaterThanOrEqual(4);
        expect(a.references.length).toBeLessThanOrEqual(10);
        expect(a.references.map((r) => r.reference_index)).toEqual(a.references.map((_, i) => i + 1));
        expect(new Set(a.references.map((r) => r.link)).size).toBe(a.references.length);
        const firsts: number[] = [];
        for (const m of a.text.matchAll(/\[(\d+)\]/g)) if (!firsts.includes(Number(m[1]))) firsts.push(Number(m[1]));
        expect(firsts).toEqual(a.references.map((r) => r.reference_index));
        for (const r of a.references) {
          expect(r.link).toMatch(/^https:\/\/[a-z0-9.-]+\.[a-z]{2,}\//);
          expect(r.title.length).toBeGreaterThan(0);
        }
      }
    }
  });

  it('cites a realistic mix: own site, competitors, news, reference, forums, institutional', () => {
    const kinds = new Set<string>();
    const hosts = new Set<string>();
    for (const p of PROVIDERS) {
      for (const d of days(30)) {
        const a = simulateAnswer(p, ask(d));
        for (const k of kindsOf(a.raw)) kinds.add(k);
        for (const r of a.references) hosts.add(new URL(r.link).hostname);
      }
    }
    for (const k of ['own', 'competitor', 'brand', 'news', 'review', 'reference', 'forum', 'institutional']) expect(kinds, k).toContain(k);
    for (const h of ['acmecrm.com', 'en.wikipedia.org', 'www.reddit.com']) expect(hosts).toContain(h);
    expect([...hosts].some((h) => h.endsWith('.gov') || h.endsWith('.edu'))).toBe(true);
  });

  it('writes 120 to 400 words of markdown, longest on chatgpt, shortest on google_ai_overview', () => {
    const avg = {} as Record<ProviderName, number>;
    for (const p of PROVIDERS) {
      const counts = days(30).map((d) => words(simulateAnswer(p, ask(d)).text));
      for (const c of counts) {
        expect(c, p).toBeGreaterThanOrEqual(120);
        expect(c, p).toBeLessThanOrEqual(400);
      }
      avg[p] = counts.reduce((x, y) => x + y, 0) / counts.length;
    }
    expect(avg.chatgpt).toBe(Math.max(...Object.values(avg)));
    expect(avg.google_ai_overview).toBeLessThan(avg.chatgpt);
    const refs = (p: ProviderName) => days(30).reduce((n, d) => n + simulateAnswer(p, ask(d)).references.length, 0);
    expect(refs('perplexity')).toBeGreaterThan(refs('claude'));
  });

  it('varies the tone: praise, criticism and negation', () => {
    const all = PROVIDERS.flatMap((p) => days(10).map((d) => simulateAnswer(p, ask(d)).text)).join('\n');
    expect(all).toMatch(/stands out|praise|strong all-rounder|great choice/);
    expect(all).toMatch(/clunky|complaints|lacks|buggy/);
    expect(all).toMatch(/not the cheapest|isn't ideal|not the best fit/);
  });

  it('works without a market context', () => {
    const a = simulateAnswer('gemini', { prompt: 'best project management tool for remote teams', day: '2025-05-01' });
    expect(a.references.length).toBeGreaterThanOrEqual(4);
    expect(a.text).toMatch(/\*\*(Taskline|Planwise|Boardwise|Sprintcraft|Trackstack|Workloom):\*\*/);
  });

  it('is fast enough to seed a year of answers (prints the time, asserts nothing about it)', () => {
    const started = performance.now();
    let n = 0;
    for (let i = 0; i < 10_000; i++) {
      simulateAnswer(PROVIDERS[i % 5], { prompt: `prompt ${i % 100}`, day: days(1)[0].replace('01-01', `01-${String(1 + (i % 28)).padStart(2, '0')}`), context: CONTEXT });
      n++;
    }
    const ms = performance.now() - started;
    console.log(`simulated: ${n} answers in ${ms.toFixed(0)} ms (${((ms / n) * 1000).toFixed(1)} µs per answer)`);
  });
});
