import { performance } from 'node:perf_hooks';
import { mulberry32 } from '../src/lib/random.js';
import { adaptiveSampleCounts, EVIDENCE_DAYS, type PromptEvidence } from '../src/collection/adaptive-sampling.js';
import { wilsonHalfWidth } from '../src/lib/statistics.js';
import { describeMachine, fmt, machineInfo, revision, table, updateReadmeSection, type Suite } from './lib/index.js';

// Adaptive against fixed sampling on simulated prompts whose true mention rates are known:
// the same credits each day, EVIDENCE_DAYS of daily runs, then the share of prompts whose
// trailing-window visibility interval is within the target margin. Pure computation: the
// allocation the collection run uses, answers drawn from each prompt's true rate.

const PROMPTS = 100;
const ENGINES = 5;
const SAMPLES = 2;
const PLAN_MAX = 5;
const MARGINS = [4, 5, 6];
const SEEDS = [1, 2, 3, 4, 5];
/** Runs simulated: two windows, so the last one is measured in the steady state, not while the first fills. */
const RUN_DAYS = 2 * EVIDENCE_DAYS;

interface Outcome {
  answers: number;
  halfWidths: number[];
}

/**
 * RUN_DAYS of daily runs; each day every prompt is asked `counts(prompt)` samples of each
 * engine, planned from the trailing EVIDENCE_DAYS; the outcome is the last window's intervals.
 */
function simulate(rates: number[], seed: number, adaptive: boolean, margin: number): Outcome {
  const draw = mulberry32(seed);
  const days: Array<Array<[responses: number, mentioned: number]>> = [];
  const trailing = (): PromptEvidence[] =>
    rates.map((_, i) => {
      const window = days.slice(-EVIDENCE_DAYS);
      return { promptId: `p${i}`, responses: window.reduce((t, d) => t + d[i][0], 0), mentioned: window.reduce((t, d) => t + d[i][1], 0) };
    });
  let answers = 0;
  for (let day = 0; day < RUN_DAYS; day++) {
    const evidence = trailing();
    const counts = adaptive ? adaptiveSampleCounts(evidence, ENGINES, SAMPLES, PLAN_MAX, margin) : null;
    days.push(
      evidence.map((e, i) => {
        const asked = (counts?.get(e.promptId) ?? SAMPLES) * ENGINES;
        let mentioned = 0;
        for (let k = 0; k < asked; k++) if (draw() < rates[i]) mentioned += 1;
        if (day >= RUN_DAYS - EVIDENCE_DAYS) answers += asked;
        return [asked, mentioned];
      }),
    );
  }
  return { answers, halfWidths: trailing().map((e) => 100 * wilsonHalfWidth(e.mentioned / e.responses, e.responses)) };
}

export const samplingSuite: Suite = {
  name: 'sampling',
  description: 'adaptive vs fixed sampling on simulated prompts of known rates',
  async run() {
    const machine = machineInfo();
    const rows: (string | number)[][] = [];
    let credits = '';
    for (const margin of MARGINS) {
      let fixedHits = 0;
      let adaptiveHits = 0;
      let fixedWorst = 0;
      let adaptiveWorst = 0;
      for (const seed of SEEDS) {
        const draw = mulberry32(seed * 7919);
        const rates = Array.from({ length: PROMPTS }, () => 0.02 + 0.96 * draw());
        const fixed = simulate(rates, seed, false, margin);
        const adaptive = simulate(rates, seed, true, margin);
        if (fixed.answers !== adaptive.answers) throw new Error(`credits differ: ${fixed.answers} vs ${adaptive.answers}`);
        credits = fmt.int(fixed.answers);
        fixedHits += fixed.halfWidths.filter((h) => h <= margin).length;
        adaptiveHits += adaptive.halfWidths.filter((h) => h <= margin).length;
        fixedWorst += Math.max(...fixed.halfWidths);
        adaptiveWorst += Math.max(...adaptive.halfWidths);
      }
      const n = PROMPTS * SEEDS.length;
      rows.push([`±${margin} points`, fmt.pct(fixedHits / n), fmt.pct(adaptiveHits / n), (fixedWorst / SEEDS.length).toFixed(2), (adaptiveWorst / SEEDS.length).toFixed(2)]);
    }
    // The allocation's own cost at the largest plan: 1,500 prompts × 8 engines.
    const big: PromptEvidence[] = Array.from({ length: 1500 }, (_, i) => ({ promptId: `p${i}`, responses: 50 + (i % 200), mentioned: (i * 37) % 50 }));
    const started = performance.now();
    const rounds = 20;
    for (let i = 0; i < rounds; i++) adaptiveSampleCounts(big, 8, 3, 5);
    const perRun = (performance.now() - started) / rounds;

    const report = [
      `## Adaptive sampling (\`npm run bench -- sampling\`)`,
      '',
      `${describeMachine(machine)}; ${revision()}.`,
      '',
      `${PROMPTS} prompts with true mention rates drawn uniformly from 2% to 98%, ${ENGINES} engines, ${SAMPLES} samples per run (plan maximum ${PLAN_MAX}), ${RUN_DAYS} daily runs, ${SEEDS.length} seeds; both modes spend exactly the same credits (${credits} answers a seed in the last ${EVIDENCE_DAYS} days). Share of prompts whose visibility interval (95% Wilson) over the last ${EVIDENCE_DAYS} days is within the margin the adaptive runs aim at, and the widest half-width left (mean over seeds, points):`,
      '',
      table(['target', 'fixed', 'adaptive', 'widest, fixed', 'widest, adaptive'], rows),
      '',
      `Allocating one run of 1,500 prompts × 8 engines (3 samples, plan maximum 5): ${perRun.toFixed(2)} ms.`,
    ].join('\n');
    console.log(report);
    updateReadmeSection('sampling', report);
  },
};
