import os from 'node:os';
import { pathToFileURL } from 'node:url';
import { mulberry32 } from '../src/lib/random.js';
import { createAnalyzer } from '../src/analysis/index.js';
import type { BrandSpec } from '../src/analysis/types.js';
import type { Reference } from '../src/ports/providers/types.js';
import { loadCorpus } from '../test/fixtures/analysis/corpus.js';
import { fetchThroughOpenAI } from '../test/fixtures/analysis/run.js';
import { GOALS, analyzeCorpus, missedGoals, scoreCorpus, type CorpusScore } from '../test/fixtures/analysis/score.js';
import type { Suite } from './lib/index.js';

// Analysis throughput: answers analysed per second on one core (this thread), for answers of
// about 2 KB that name 10 tracked brands and carry 8 citations (references and links in the
// text, with a duplicate and tracking parameters). Goal: 5,000 answers/s or more.

export const ANALYSIS_GOAL = 5_000;

const NAMES = ['Acme Analytics', 'HubSpot', 'Salesforce', 'Pipedrive', 'Zoho CRM', 'Close', 'monday.com', 'Freshsales', 'Copper', 'Insightly'];
const DOMAINS = ['acmeanalytics.io', 'hubspot.com', 'salesforce.com', 'pipedrive.com', 'zoho.com', 'close.com', 'monday.com', 'freshworks.com', 'copper.com', 'insightly.com'];

export const BENCH_BRANDS: BrandSpec[] = NAMES.map((name, i) => ({
  id: i === 0 ? '00000000-0000-0000-0000-000000000000' : `00000000-0000-0000-0000-00000000000${i}`,
  name,
  aliases: i === 0 ? ['Acme'] : [],
  domain: DOMAINS[i],
  isOwn: i === 0,
}));

const PRAISE = ['is excellent for growing teams', 'offers a generous free plan and intuitive reporting', 'is reliable and easy to set up', 'has great automation and a clean interface', 'is a strong choice for sales teams'];
const BLAME = ['is expensive and clunky for small teams', 'is not easy to customise', 'has a steep learning curve and slow support', 'feels outdated and limited', 'is powerful but overpriced'];
const NEUTRAL = ['integrates with Gmail and Outlook', 'has plans from $15 per user per month', 'targets mid-market companies', 'offers a mobile app', 'was founded over a decade ago'];
const SOURCES = [
  'https://www.g2.com/categories/crm', 'https://en.wikipedia.org/wiki/Customer_relationship_management',
  'https://www.reddit.com/r/sales/comments/1abc/best_crm_for_startups/', 'https://www.forbes.com/advisor/business/software/best-crm-software/',
  'https://www.techradar.com/best/best-crm-software', 'https://www.youtube.com/watch?v=abc123', 'https://docs.python.org/3/library/csv.html',
  'https://www.capterra.com/customer-relationship-management-software/', 'https://stackoverflow.com/questions/12345/crm-api',
];

/** A realistic answer of about 2 KB naming all 10 brands, with 8 distinct citations. */
export function makeAnswer(seed: number): { text: string; references: Reference[] } {
  const r = mulberry32(seed);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(r() * xs.length)];
  const order = [...NAMES.keys()].sort(() => r() - 0.5);
  const lines: string[] = ['Here are the CRM tools most teams shortlist in 2025, with what users say about each:', ''];
  order.forEach((b, k) => {
    const d = r() < 0.45 ? PRAISE : r() < 0.6 ? BLAME : NEUTRAL;
    const link = k < 3 ? ` See [${NAMES[b]} pricing](https://www.${DOMAINS[b]}/pricing?utm_source=chatgpt.com).` : '';
    lines.push(`${k + 1}. **${NAMES[b]}** – ${NAMES[b]} ${pick(d)}.${link}`);
  });
  const [a, b, c] = [pick(order), pick(order), pick(order)];
  lines.push(
    '',
    `In short, ${NAMES[a]} ${pick(PRAISE)}, while ${NAMES[b]} ${pick(BLAME)}. Many reviewers on G2 note that ${NAMES[c]} ${pick(NEUTRAL)}.`,
    `If budget matters, compare plans carefully: prices change often and add-ons are not included. Read ${SOURCES[4]} for details.`,
  );
  const text = lines.join('\n');
  const references: Reference[] = [SOURCES[0], SOURCES[1], SOURCES[2], SOURCES[3], `https://www.${DOMAINS[order[0]]}/pricing`].map(
    (link, i) => ({ title: `Source ${i + 1}`, link, snippet: '', reference_index: i + 1 }),
  );
  return { text: pad(text, r), references };
}

function pad(text: string, r: () => number): string {
  const extra = [
    'Most vendors offer a free trial, so test the pipeline view, reporting and integrations with your own data before committing.',
    'Teams that sell by phone should check calling features, while marketing-led teams should look at email automation and forms.',
    'Migration effort is often underestimated; export a sample of your contacts and deals and import them into each trial first.',
  ];
  let out = text;
  while (out.length < 1900) out += `\n\n${extra[Math.floor(r() * extra.length)]}`;
  return out;
}

export interface AnalysisBenchResult {
  /** Answers per second of this thread's CPU time (robust to other load on the machine). */
  answersPerSecond: number;
  /** Answers per second of wall-clock time (lower when other processes share the core). */
  answersPerWallSecond: number;
  microsPerAnswer: number;
  answers: number;
  meanBytes: number;
  meanCitations: number;
  meanBrands: number;
}

/** Runs the benchmark on this thread for `seconds` (default BENCH_SECONDS or 5) and prints the figure. */
export function runAnalysisBench(opts: { seconds?: number; print?: boolean } = {}): AnalysisBenchResult {
  const seconds = opts.seconds ?? Number(process.env.BENCH_SECONDS ?? 5);
  const analyze = createAnalyzer(BENCH_BRANDS);
  const pool = Array.from({ length: 500 }, (_, i) => makeAnswer(i + 1));
  const meanBytes = pool.reduce((s, a) => s + Buffer.byteLength(a.text), 0) / pool.length;
  let cites = 0;
  let brands = 0;
  for (const a of pool) {
    const res = analyze(a.text, a.references);
    cites += res.citations.length;
    brands += Object.keys(res.brands).length;
  }
  // warm-up, then timed rounds over the pool
  const warmEnd = performance.now() + Math.min(1000, seconds * 200);
  for (let i = 0; performance.now() < warmEnd; i++) analyze(pool[i % pool.length].text, pool[i % pool.length].references);
  let n = 0;
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  const end = t0 + seconds * 1000;
  while (performance.now() < end) {
    for (let k = 0; k < 100; k++, n++) analyze(pool[n % pool.length].text, pool[n % pool.length].references);
  }
  const ms = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  const cpuMs = (cpu.user + cpu.system) / 1000;
  const result: AnalysisBenchResult = {
    answersPerSecond: Math.round((n / cpuMs) * 1000),
    answersPerWallSecond: Math.round((n / ms) * 1000),
    microsPerAnswer: Math.round((cpuMs * 1000) / n),
    answers: n,
    meanBytes: Math.round(meanBytes),
    meanCitations: cites / pool.length,
    meanBrands: brands / pool.length,
  };
  if (opts.print !== false) {
    const cpu = os.cpus()[0]?.model.trim() ?? 'unknown';
    console.log(
      `analysis: ${result.answersPerSecond.toLocaleString('en-US')} answers/s on one core (${result.microsPerAnswer} µs CPU/answer; ` +
        `${result.answersPerWallSecond.toLocaleString('en-US')}/s wall clock with the machine's load average ${os.loadavg()[0].toFixed(1)}; ` +
        `${result.meanBytes} B, ${result.meanBrands} brands, ${result.meanCitations} citations per answer; ` +
        `goal ${ANALYSIS_GOAL.toLocaleString('en-US')}: ${result.answersPerSecond >= ANALYSIS_GOAL ? 'met' : 'MISSED'}) — Node ${process.version}, ${cpu}`,
    );
  }
  return result;
}

/**
 * Accuracy on the labelled corpus (test/fixtures/analysis): every answer asked through the
 * real OpenAI adapter against the local Responses-API fake, analysed, scored against its
 * labels; then the corpus analysed in a loop on this thread for answers per CPU-second.
 */
export async function runCorpusBench(opts: { seconds?: number; print?: boolean } = {}): Promise<{ score: CorpusScore; answersPerSecond: number }> {
  const corpus = loadCorpus();
  const answers = await fetchThroughOpenAI(corpus);
  const score = scoreCorpus(corpus, analyzeCorpus(corpus, answers));
  const seconds = opts.seconds ?? Math.min(5, Number(process.env.BENCH_SECONDS ?? 5));
  const markets = [...new Set(corpus.map((a) => a.market))];
  const analyzers = new Map(markets.map((m) => [m, createAnalyzer(corpus.find((a) => a.market === m)!.brands)]));
  const run = (k: number) => analyzers.get(corpus[k].market)!(answers[k].text, answers[k].references);
  for (let k = 0; k < corpus.length * 20; k++) run(k % corpus.length);
  let n = 0;
  const cpu0 = process.cpuUsage();
  const end = performance.now() + seconds * 1000;
  while (performance.now() < end) for (let k = 0; k < corpus.length; k++, n++) run(k);
  const cpu = process.cpuUsage(cpu0);
  const answersPerSecond = Math.round((n / ((cpu.user + cpu.system) / 1000)) * 1000);
  if (opts.print !== false) {
    const f = (x: number) => x.toFixed(3);
    const prf = (name: string, p: { precision: number; recall: number; f1: number; tp: number; fp: number; fn: number }, goal: number) =>
      `| ${name} | ${f(p.precision)} | ${f(p.recall)} | ${f(p.f1)} | ${p.tp} / ${p.fp} / ${p.fn} | F1 ≥ ${goal} |`;
    const rate = (name: string, r: { rate: number; ok: number; of: number }, goal: string) => `| ${name} | | | ${f(r.rate)} | ${r.ok} of ${r.of} | ${goal} |`;
    const bytes = Math.round(answers.reduce((s, a) => s + Buffer.byteLength(a.text), 0) / answers.length);
    console.log(
      [
        `analysis corpus: ${corpus.length} labelled answers, ${markets.length} markets, through the OpenAI adapter and the Responses-API fake (${bytes} B per answer)`,
        '| metric | precision | recall | F1 / rate | tp / fp / fn | goal |',
        '| --- | ---: | ---: | ---: | --- | --- |',
        prf('own-brand mention', score.ownMention, GOALS.ownMention),
        prf('competitor mention', score.competitorMention, GOALS.competitorMention),
        prf('citations (URL)', score.citations, GOALS.citations),
        rate('own position, exact', score.ownPosition, `≥ ${GOALS.ownPosition}`),
        rate('position, every brand, exact', score.position, '–'),
        rate('own sentiment band', score.ownSentiment, '–'),
        rate('sentiment band, every brand', score.sentiment, `≥ ${GOALS.sentiment}`),
        handLine(corpus, score, answers),
        `corpus analysed at ${answersPerSecond.toLocaleString('en-US')} answers/s on one core; goals ${missedGoals(score).length ? `MISSED: ${missedGoals(score).join('; ')}` : 'met'}`,
      ].join('\n'),
    );
  }
  return { score, answersPerSecond };
}

/** The figures of the hand-written answers alone (written one by one, not from the sentence bank). */
function handLine(corpus: ReturnType<typeof loadCorpus>, _all: CorpusScore, answers: Array<{ text: string; references: Reference[] }>): string {
  const keep = corpus.flatMap((a, k) => (a.layout === 'handwritten' ? [k] : []));
  const sub = keep.map((k) => corpus[k]);
  const s = scoreCorpus(sub, analyzeCorpus(sub, keep.map((k) => answers[k])));
  const f = (x: number) => x.toFixed(3);
  return (
    `hand-written subset (${sub.length} answers): own mention F1 ${f(s.ownMention.f1)}, competitor F1 ${f(s.competitorMention.f1)}, ` +
    `citation F1 ${f(s.citations.f1)}, own position ${f(s.ownPosition.rate)}, sentiment band ${f(s.sentiment.rate)} (${s.sentiment.ok} of ${s.sentiment.of})`
  );
}

/** For bench/run.ts: `npm run bench -- analysis`. Prints the figures; a missed goal is printed, never thrown. */
export const analysisSuite: Suite = {
  name: 'analysis',
  description: 'answers analysed per second on one core (2 KB, 10 brands, 8 citations), and accuracy on the labelled corpus',
  async run() {
    runAnalysisBench();
    await runCorpusBench();
  },
};

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  runAnalysisBench();
  await runCorpusBench();
}
