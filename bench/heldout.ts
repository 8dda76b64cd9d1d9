import { pathToFileURL } from 'node:url';
import { agreement } from '../test/fixtures/analysis/heldout/agreement.js';
import { type HeldoutRun, runHeldout, scoreSplit } from '../test/fixtures/analysis/heldout/heldout.js';
import { analysisModelFrom, measureModel, reachableModel } from '../test/fixtures/analysis/heldout/heldout-model.js';
import { loadPass } from '../test/fixtures/analysis/heldout/match.js';
import { type CorpusScore, GOALS } from '../test/fixtures/analysis/score.js';
import type { Suite } from './lib/index.js';

// Accuracy on the held-out corpus of real engine answers (issue 30,
// test/fixtures/analysis/heldout): the agreement of the two labelling passes, then the real
// analysis scored on the `tune` and `heldout` parts. `--diagnose` lists the errors of the
// `tune` part only: the `heldout` part's errors are never printed (README there, "Split"). Then the
// model-based analysis (ANALYSIS_MODEL) on the same parts, when a real model is reachable;
// otherwise it says "not measured" and why (a fake cannot judge: nothing stands in for a model).

/** Issue 30's goals on the held-out part: the analysis goals of GOALS with a sentiment band of 0.85. */
export const HELDOUT_GOALS = { ...GOALS, sentiment: 0.85, citations: 0.99 } as const;

export function runHeldoutBench(opts: { diagnose?: boolean; print?: boolean } = {}) {
  const ag = agreement(loadPass('a'), loadPass('b'));
  const runs = runHeldout();
  const scores = (['tune', 'heldout', undefined] as const).map((s) => scoreSplit(runs, s));
  if (opts.print !== false) {
    const f = (x: number) => x.toFixed(3);
    const row = (name: string, pick: (s: (typeof scores)[number]) => string, goal: string) => `| ${name} | ${scores.map(pick).join(' | ')} | ${goal} |`;
    const prf = (p: { f1: number; tp: number; fp: number; fn: number }) => `${f(p.f1)} (${p.tp}/${p.fp}/${p.fn})`;
    const rate = (r: { rate: number; ok: number; of: number }) => `${f(r.rate)} (${r.ok} of ${r.of})`;
    const heldout = scores[1];
    const missed = [
      heldout.ownMention.f1 < HELDOUT_GOALS.ownMention && 'own mention',
      heldout.competitorMention.f1 < HELDOUT_GOALS.competitorMention && 'competitor mention',
      heldout.ownPosition.rate < HELDOUT_GOALS.ownPosition && 'own position',
      heldout.sentiment.rate < HELDOUT_GOALS.sentiment && 'sentiment band',
      heldout.citations.f1 < HELDOUT_GOALS.citations && 'citations',
    ].filter(Boolean);
    console.log(
      [
        `held-out corpus: ${runs.length} real engine answers; passes A/B: brand F1 ${f(ag.brandF1)} (${ag.shared} shared of ${ag.brandsA}/${ag.brandsB}), ` +
          `band kappa ${f(ag.band.kappa)} (agree ${ag.band.agree} of ${ag.band.of}), shared-brand rank ${ag.position.sameRank} of ${ag.position.of}, ` +
          `citation F1 ${f(ag.citationsRaw.f1)} as written, ${f(ag.citationsNormalised.f1)} normalised`,
        `| metric | tune (${scores[0].answers}) | heldout (${scores[1].answers}) | all (${scores[2].answers}) | goal on heldout |`,
        '| --- | --- | --- | --- | --- |',
        row('own-brand mention F1 (tp/fp/fn)', (s) => prf(s.ownMention), `≥ ${HELDOUT_GOALS.ownMention}`),
        row('competitor mention F1', (s) => prf(s.competitorMention), `≥ ${HELDOUT_GOALS.competitorMention}`),
        row('citations F1', (s) => prf(s.citations), `≥ ${HELDOUT_GOALS.citations}`),
        row('own position, exact', (s) => rate(s.ownPosition), `≥ ${HELDOUT_GOALS.ownPosition}`),
        row('position, every brand', (s) => rate(s.position), '–'),
        row('own sentiment band', (s) => rate(s.ownSentiment), '–'),
        row('sentiment band, every brand', (s) => rate(s.sentiment), `≥ ${HELDOUT_GOALS.sentiment}`),
        `goals on the heldout part: ${missed.length ? `MISSED: ${missed.join(', ')}` : 'met'}`,
      ].join('\n'),
    );
    if (opts.diagnose) console.log(`tune-part errors:\n${scores[0].errors.join('\n')}`);
  }
  return { agreement: ag, runs, tune: scores[0], heldout: scores[1], all: scores[2] };
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
    const { runs } = runHeldoutBench({ diagnose: opts.diagnose });
    await runHeldoutModelBench(runs, { diagnose: opts.diagnose });
  },
};

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const diagnose = process.argv.includes('--diagnose');
  await runHeldoutModelBench(runHeldoutBench({ diagnose }).runs, { diagnose });
}
