import { DEFAULT_SAMPLING_MARGIN } from '../lib/plans.js';
import { trialsForMargin, wilsonHalfWidth } from '../lib/statistics.js';

/** What a prompt's visibility rests on so far: its answers over the trailing window and how many named the brand. */
export interface PromptEvidence {
  promptId: string;
  responses: number;
  mentioned: number;
}

/** How many days of answers an adaptive run weighs (the dashboard's default long window). */
export const EVIDENCE_DAYS = 30;

/**
 * Samples per engine for each prompt in one adaptive run. The run's budget is what a fixed run
 * would ask (`samples` per prompt and engine); every prompt keeps one sample per engine, so no
 * series goes unmeasured for a day. The rest is planned for the steady state of the trailing
 * window: a prompt asked k samples of each engine a day rests on EVIDENCE_DAYS × engines × k
 * answers, so at its observed proportion (0.5 before any answer) it needs k ≥ trials for
 * ±`marginPoints` / (EVIDENCE_DAYS × engines). Spare samples go, one at a time, to the prompt
 * closest to that need (so the most prompts reach the margin the credits allow); once every
 * need is met, to the widest steady-state interval. At most `maxSamples` per prompt and
 * engine; ties go to the prompt listed first, so a run is reproducible.
 */
export function adaptiveSampleCounts(
  prompts: PromptEvidence[],
  engines: number,
  samples: number,
  maxSamples: number,
  marginPoints = DEFAULT_SAMPLING_MARGIN,
): Map<string, number> {
  const counts = new Map(prompts.map((p) => [p.promptId, 1]));
  const cap = Math.max(1, maxSamples);
  let spare = prompts.length * (Math.min(samples, cap) - 1);
  const rateOf = (p: PromptEvidence) => (p.responses > 0 ? p.mentioned / p.responses : 0.5);
  const needed = new Map(prompts.map((p) => [p.promptId, trialsForMargin(rateOf(p), marginPoints)]));
  // The window after this run: the answers it holds, less the day that leaves it, plus this run's.
  const after = (p: PromptEvidence, given: number) => p.responses * (1 - 1 / EVIDENCE_DAYS) + given * engines;
  const priority = (p: PromptEvidence, given: number): number => {
    const missing = needed.get(p.promptId)! - after(p, given);
    // Unmet needs rank above met ones (a width is at most 1): the smallest shortfall first.
    return missing > 0 ? 2 + 1 / missing : wilsonHalfWidth(rateOf(p), after(p, given));
  };
  const heap = new HighestFirst(prompts.map((p, order) => ({ p, order, priority: priority(p, 1) })));
  while (spare > 0 && heap.size > 0) {
    const top = heap.pop()!;
    const given = counts.get(top.p.promptId)! + 1;
    counts.set(top.p.promptId, given);
    spare -= 1;
    if (given < cap) heap.push({ ...top, priority: priority(top.p, given) });
  }
  return counts;
}

interface Entry {
  p: PromptEvidence;
  order: number;
  priority: number;
}

/** A binary max-heap on priority (the earlier prompt first on a tie). */
class HighestFirst {
  private readonly items: Entry[] = [];
  constructor(entries: Entry[]) {
    for (const e of entries) this.push(e);
  }
  get size(): number {
    return this.items.length;
  }
  private before(a: Entry, b: Entry): boolean {
    return a.priority > b.priority || (a.priority === b.priority && a.order < b.order);
  }
  push(e: Entry): void {
    const items = this.items;
    items.push(e);
    for (let i = items.length - 1; i > 0; ) {
      const parent = (i - 1) >> 1;
      if (!this.before(items[i], items[parent])) break;
      [items[i], items[parent]] = [items[parent], items[i]];
      i = parent;
    }
  }
  pop(): Entry | undefined {
    const items = this.items;
    const top = items[0];
    const last = items.pop();
    if (items.length && last) {
      items[0] = last;
      for (let i = 0; ; ) {
        const left = 2 * i + 1;
        const right = left + 1;
        let best = i;
        if (left < items.length && this.before(items[left], items[best])) best = left;
        if (right < items.length && this.before(items[right], items[best])) best = right;
        if (best === i) break;
        [items[i], items[best]] = [items[best], items[i]];
        i = best;
      }
    }
    return top;
  }
}
