import type { AnalysisModel, BrandJudgement } from '../ports/analysis-model/index.js';
import type { Reference } from '../ports/providers/types.js';
import { compileBrands, isCompiled, type CompiledBrands } from './brands.js';
import { createAnalyzer } from './index.js';
import { bandOf } from './themes.js';
import type { Analysis, Band, BrandSpec } from './types.js';

// The model-based analysis (README.md here, "Model-based analysis"): the lexicon reads the
// answer as always (mentions, positions, counts, citations, themes); a model
// (ANALYSIS_MODEL, src/ports/analysis-model) judges the sentiment toward each brand the lexicon
// found, and its band replaces the lexicon's where they disagree. Any failure of the model
// leaves the lexicon's figures for that answer. The only asynchronous part of src/analysis: the
// model is handed in, this file does no I/O of its own.

/** What the model judged in one answer, as stored with it (responses.model_judgement). */
export interface ModelJudgement {
  /** `<provider>:<model>` (ANALYSIS_MODEL) that judged. */
  by: string;
  /** Band per brand id, for the brands whose judgement was taken (README: neutral, or evidence found in the answer). */
  bands: Record<string, Band>;
  /** Tokens the model's calls for this answer used, as its server reported them. */
  tokens?: { input: number; output: number };
}

/** The score a brand gets when the model's band is not the lexicon's: the middle of the band's side of the scale. */
export const BAND_SCORE: Readonly<Record<Band, number>> = { positive: 75, neutral: 50, negative: 25 };

/**
 * The analysis with the model's bands merged: a brand whose lexicon score is in the model's
 * band keeps it (its finer grain); any other takes BAND_SCORE of the model's band. Mentions,
 * positions, counts, citations and themes stay the lexicon's.
 */
export function mergeBands(analysis: Analysis, bands: Readonly<Record<string, Band>>, ownId: string | null): Analysis {
  const brands = { ...analysis.brands };
  for (const [id, result] of Object.entries(brands)) {
    const band = bands[id];
    if (band && bandOf(result.sentiment) !== band) brands[id] = { ...result, sentiment: BAND_SCORE[band] };
  }
  const own = ownId ? brands[ownId] : undefined;
  return { ...analysis, brands, sentiment: own ? own.sentiment : analysis.sentiment };
}

/** Lower case, markdown marks and backslashes dropped, quotes and dashes unified, spaces collapsed: for finding evidence. */
export function evidenceForm(s: string): string {
  return s
    .toLowerCase()
    .replace(/[‘’ʼ`]/g, "'")
    .replace(/[“”]/g, '"')
    .replace(/[‐-―−]/g, '-')
    .replace(/[*_#>|\\[\](){}]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * The bands of a reply by brand id: each judgement matched to a brand asked about by its name
 * or an alias (any case); a positive or negative band counts only when its evidence (3
 * characters or more) is text of the answer, a neutral one always. Unknown names, repeats and
 * unfounded bands are dropped: those brands keep the lexicon's score.
 */
export function bandsOfReply(judgements: readonly BrandJudgement[], asked: readonly BrandSpec[], text: string): Record<string, Band> {
  const byName = new Map<string, string>();
  for (const b of asked) for (const n of [b.name, ...b.aliases]) if (!byName.has(n.trim().toLowerCase())) byName.set(n.trim().toLowerCase(), b.id);
  let answer: string | null = null;
  const out: Record<string, Band> = {};
  for (const j of judgements) {
    const id = byName.get(j.name.trim().toLowerCase());
    if (!id || id in out) continue;
    if (j.band !== 'neutral') {
      const evidence = evidenceForm(j.evidence);
      answer ??= evidenceForm(text);
      if (evidence.length < 3 || !answer.includes(evidence)) continue;
    }
    out[id] = j.band;
  }
  return out;
}

export interface JudgedAnalysis {
  analysis: Analysis;
  /** The model's judgement merged into `analysis`; null when the lexicon's figures stand alone. */
  judgement: ModelJudgement | null;
}

/**
 * Analyses one answer, with what a model judged of it before:
 * - `undefined`: a new answer; the model is asked about every brand the lexicon finds;
 * - `null`: an answer the lexicon alone read before: it stays so (the model is not asked);
 * - a judgement: its bands are reused, and the model is asked only about brands found now
 *   that it has not judged (a competitor added since).
 */
export type JudgedAnalyzer = (text: string, references?: readonly Reference[], previous?: ModelJudgement | null) => Promise<JudgedAnalysis>;

export interface ModelAnalyzerOptions {
  /** Told why a call failed (the answer keeps the lexicon's figures), and when this analyzer stops asking. */
  onFailure?: (reason: string) => void;
  /** Failed calls in a row after which this analyzer asks no more (its later answers: the lexicon's). Default 3. */
  maxFailuresInARow?: number;
}

/**
 * The project's brands compiled once, and a function that analyses each answer with the
 * lexicon and, when `model` is given, merges the model's judgement (mergeBands). Never
 * rejects: a model that fails, times out (after the chat client's retries), refuses or answers
 * out of schema leaves that answer the lexicon's. One analyzer per run: after
 * `maxFailuresInARow` failures in a row it calls off the calls in flight and stops asking.
 */
export function createModelAnalyzer(brands: readonly BrandSpec[] | CompiledBrands, model: AnalysisModel | null, options: ModelAnalyzerOptions = {}): JudgedAnalyzer {
  const cb = isCompiled(brands) ? brands : compileBrands(brands);
  const lexicon = createAnalyzer(cb);
  const ownId = cb.own >= 0 ? cb.brands[cb.own].id : null;
  const byId = new Map(cb.brands.map((b) => [b.id, b]));
  const stop = new AbortController();
  const maxInARow = options.maxFailuresInARow ?? 3;
  let inARow = 0;

  return async (text, references = [], previous) => {
    const analysis = lexicon(text, references);
    const bands: Record<string, Band> = { ...previous?.bands };
    let by = previous?.by;
    let tokens = previous?.tokens;
    const missing = previous === null ? [] : Object.keys(analysis.brands).filter((id) => !(id in bands)).map((id) => byId.get(id)!);
    if (missing.length && model && !stop.signal.aborted) {
      try {
        const verdict = await model.judge({ text, brands: missing.map((b) => ({ name: b.name, aliases: b.aliases })) }, stop.signal);
        Object.assign(bands, bandsOfReply(verdict.judgements, missing, text));
        by = model.label;
        const used = { input: verdict.usage?.prompt_tokens ?? 0, output: verdict.usage?.completion_tokens ?? 0 };
        tokens = tokens ? { input: tokens.input + used.input, output: tokens.output + used.output } : used;
        inARow = 0;
      } catch (e) {
        if (!stop.signal.aborted) {
          options.onFailure?.(`${model.label}: ${(e as Error).message}`);
          if (++inARow >= maxInARow) {
            stop.abort();
            options.onFailure?.(`${model.label}: ${inARow} failed calls in a row; the rest of this run is read by the lexicon alone`);
          }
        }
      }
    }
    if (!by || Object.keys(bands).length === 0) return { analysis, judgement: null };
    return { analysis: mergeBands(analysis, bands, ownId), judgement: { by, bands, ...(tokens ? { tokens } : {}) } };
  };
}
