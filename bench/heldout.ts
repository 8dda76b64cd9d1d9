import { pathToFileURL } from 'node:url';
import os from 'node:os';
import { agreement, passesOf } from '../test/fixtures/analysis/heldout/agreement.js';
import { type HeldoutRun, runHeldout, scoreSplit } from '../test/fixtures/analysis/heldout/heldout.js';
import { analysisModelFrom, measureModel, reachableModel } from '../test/fixtures/analysis/heldout/heldout-model.js';
import { type CorpusScore, GOALS } from '../test/fixtures/analysis/score.js';
import type { Suite } from './lib/index.js';
import { updateReadmeSection } from './lib/report.js';

// Accuracy on the held-out corpus of real engine answers (issue 30,
// test/fixtures/analysis/heldout): the agreement of the two labelling passes, then the real
// analysis scored on the `tune` and `heldout` parts of each batch and of both. `--diagnose` lists
// the errors of the `tune` parts only: the `heldout` part's errors are never printed (README
// there, "Split"). With batch 2 present it rewrites its section of bench/README.md. Then the
// model-based analysis (ANALYSIS_MODEL) on the same parts, when a real model is reachable;
// otherwise it says "not measured" and why (a fake cannot judge: nothing stands in for a model).

/** Issue 30's goals on the held-out part: the analysis goals of GOALS with a sentiment band of 0.85. */
export const HELDOUT_GOALS = { ...GOALS, sentiment: 0.85, citations: 0.99 } as const;

export function runHeldoutBench(opts: { diagnose?: boolean; print?: boolean; readme?: boolean } = {}) {
  const ags = ([1, 2] as const).map((b) => {
    const p = passesOf(b);
    return p.a.length ? agreement(p.a, p.b) : null;
  });
  const runs = runHeldout();
  const hasBatch2 = runs.some((r) => r.batch === 2);
  // columns: batch 1 tune / heldout, then (with batch 2) batch 2 tune / heldout and both batches
  const cols = [
    { name: 'b1 tune', s: scoreSplit(runs, 'tune', 1) },
    { name: 'b1 heldout', s: scoreSplit(runs, 'heldout', 1) },
    ...(hasBatch2
      ? [
          { name: 'b2 tune', s: scoreSplit(runs, 'tune', 2) },
          { name: 'b2 heldout', s: scoreSplit(runs, 'heldout', 2) },
          { name: 'tune', s: scoreSplit(runs, 'tune') },
          { name: 'heldout', s: scoreSplit(runs, 'heldout') },
        ]
      : []),
  ];
  const heldout = cols[cols.length - 1].s;
  const f = (x: number) => x.toFixed(3);
  const prf = (p: { f1: number; tp: number; fp: number; fn: number }) => `${f(p.f1)} (${p.tp}/${p.fp}/${p.fn})`;
  const rate = (r: { rate: number; ok: number; of: number }) => `${f(r.rate)} (${r.ok} of ${r.of})`;
  const row = (name: string, pick: (s: (typeof cols)[number]['s']) => string, goal: string) => `| ${name} | ${cols.map((c) => pick(c.s)).join(' | ')} | ${goal} |`;
  const missed = [
    heldout.ownMention.f1 < HELDOUT_GOALS.ownMention && 'own mention',
    heldout.competitorMention.f1 < HELDOUT_GOALS.competitorMention && 'competitor mention',
    heldout.ownPosition.rate < HELDOUT_GOALS.ownPosition && 'own position',
    heldout.sentiment.rate < HELDOUT_GOALS.sentiment && 'sentiment band',
    heldout.citations.f1 < HELDOUT_GOALS.citations && 'citations',
  ].filter(Boolean);
  const agLine = (b: number, ag: (typeof ags)[number]) =>
    ag
      ? `batch ${b} passes A/B: brand F1 ${f(ag.brandF1)} (${ag.shared} shared of ${ag.brandsA}/${ag.brandsB}), band kappa ${f(ag.band.kappa)} ` +
        `(agree ${ag.band.agree} of ${ag.band.of}), shared-brand rank ${ag.position.sameRank} of ${ag.position.of}, ` +
        `citation F1 ${f(ag.citationsRaw.f1)} as written, ${f(ag.citationsNormalised.f1)} normalised`
      : `batch ${b}: no passes`;
  const lines = [
    `held-out corpus: ${runs.length} real engine answers${hasBatch2 ? '' : ' (batch 2 not found: README of the corpus, "Batch 2")'}`,
    agLine(1, ags[0]),
    agLine(2, ags[1]),
    '',
    `| metric | ${cols.map((c) => `${c.name} (${c.s.answers})`).join(' | ')} | goal on heldout |`,
    `| --- |${cols.map(() => ' --- |').join('')} --- |`,
    row('own-brand mention F1 (tp/fp/fn)', (s) => prf(s.ownMention), `≥ ${HELDOUT_GOALS.ownMention}`),
    row('competitor mention F1', (s) => prf(s.competitorMention), `≥ ${HELDOUT_GOALS.competitorMention}`),
    row('citations F1', (s) => prf(s.citations), `≥ ${HELDOUT_GOALS.citations}`),
    row('own position, exact', (s) => rate(s.ownPosition), `≥ ${HELDOUT_GOALS.ownPosition}`),
    row('position, every brand', (s) => rate(s.position), '–'),
    row('own sentiment band', (s) => rate(s.ownSentiment), '–'),
    row('sentiment band, every brand', (s) => rate(s.sentiment), `≥ ${HELDOUT_GOALS.sentiment}`),
    '',
    `goals on the heldout part${hasBatch2 ? ' (both batches)' : ''}: ${missed.length ? `MISSED: ${missed.join(', ')}` : 'met'}`,
  ];
  if (opts.print !== false) {
    console.log(lines.join('\n'));
    if (opts.diagnose) {
      const tune = scoreSplit(runs, 'tune');
      console.log(`tune-part errors:\n${tune.errors.join('\n')}`);
    }
  }
  if (opts.readme && hasBatch2) {
    const when = new Date().toISOString().slice(0, 10);
    updateReadmeSection(
      'heldout',
      [`Measured ${when} with \`npm run bench -- heldout\` (Node ${process.version}, load average ${os.loadavg()[0].toFixed(1)}, ${os.cpus().length} cores); the analysis is deterministic, so the figures do not depend on the machine.`, '', ...lines].join('\n'),
    );
    console.log('bench/README.md updated (section heldout)');
  }
  return { agreement: ags[0], agreement2: ags[1], runs, tune: cols[cols.length - 2].s, heldout, all: scoreSplit(runs) };
}

/**
 * The model path beside the lexicon: sentiment band per split (mentions, positions and
 * citations are the lexicon's in both), how many answers the model judged, failures and
 * tokens. Prints "not measured" with the reason when ANALYSIS_MODEL is unset or unreachable.
 */
export async function runHeldoutModelBench(runs: readonly HeldoutRun[], opts: { diagnose?: boolean; env?: NodeJS.ProcessEnv } = {}) {
  const found = analysisModelFrom(opts.env ?? process.env);
  if ('reason' in found) {
    console.log(`model-based analysis: not measured: ${found.reason}`);
    return null;
  }
  const model = await reachableModel(found.settings);
  if (typeof model === 'string') {
    console.log(`model-based analysis (ANALYSIS_MODEL=${found.settings.label}): not measured: no model reachable (${model})`);
    return null;
  }
  const started = performance.now();
  const m = await measureModel(model, runs);
  const lexicon = (['tune', 'heldout', undefined] as const).map((s) => scoreSplit(runs, s));
  const f = (x: number) => x.toFixed(3);
  const rate = (r: { rate: number; ok: number; of: number }) => `${f(r.rate)} (${r.ok} of ${r.of})`;
  const cells = (pick: (s: CorpusScore) => string) =>
    (['tune', 'heldout', 'all'] as const).map((k, i) => `${pick(lexicon[i])} → ${m.scores[k] ? pick(m.scores[k]) : '–'}`).join(' | ');
  console.log(
    [
      `model-based analysis (ANALYSIS_MODEL=${m.label}): ${m.judged} of ${m.answersWithBrands} answers naming a tracked brand judged, ${m.failures} failed calls (lexicon kept), ` +
        `${m.tokens.input} input + ${m.tokens.output} output tokens, ${((performance.now() - started) / 1000).toFixed(1)} s`,
      '| metric, lexicon → model | tune | heldout | all | goal on heldout |',
      '| --- | --- | --- | --- | --- |',
      `| own sentiment band | ${cells((s) => rate(s.ownSentiment))} | – |`,
      `| sentiment band, every brand | ${cells((s) => rate(s.sentiment))} | ≥ ${HELDOUT_GOALS.sentiment} |`,
      `goal on the heldout part with the model: ${(m.scores.heldout?.sentiment.rate ?? 0) >= HELDOUT_GOALS.sentiment ? 'met' : 'MISSED'}`,
    ].join('\n'),
  );
  if (opts.diagnose) console.log(`tune-part sentiment errors, model path:\n${(m.scores.tune?.errors ?? []).filter((e) => e.includes('sentiment')).join('\n')}`);
  return m;
}

/** For bench/run.ts: `npm run bench -- heldout [--diagnose]`. A missed goal is printed, never thrown. */
export const heldoutSuite: Suite = {
  name: 'heldout',
  description: 'accuracy of the analysis on the held-out corpus of real engine answers (issue 30), per split, and the labellers\' agreement; the model-based analysis beside it when ANALYSIS_MODEL is reachable',
  async run(opts) {
    const { runs } = runHeldoutBench({ diagnose: opts.diagnose, readme: true });
    await runHeldoutModelBench(runs, { diagnose: opts.diagnose });
  },
};

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const diagnose = process.argv.includes('--diagnose');
  await runHeldoutModelBench(runHeldoutBench({ diagnose }).runs, { diagnose });
}
