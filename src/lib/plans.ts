/** Plans (docs/decisions.md). One table, read by quotas, credits and the operator API. */
export const PLANS = {
  skip_trial: { credits: 10, projects: 1, activePrompts: 25, samplesPerRun: 1 },
  basic: { credits: 200, projects: 3, activePrompts: 100, samplesPerRun: 2 },
  pro: { credits: 500, projects: 10, activePrompts: 300, samplesPerRun: 3 },
  enterprise: { credits: 2000, projects: 50, activePrompts: 1500, samplesPerRun: 5 },
} as const;

export type PlanName = keyof typeof PLANS;
export const PLAN_NAMES = Object.keys(PLANS) as [PlanName, ...PlanName[]];

export function planOf(name: string) {
  return PLANS[(name in PLANS ? name : 'skip_trial') as PlanName];
}

export const RATE_LIMIT_TIERS = ['standard', 'premium'] as const;
export type RateLimitTier = (typeof RATE_LIMIT_TIERS)[number];

/**
 * A project's sampling: `fixed` asks every prompt of every engine the same number of samples
 * each run; `adaptive` spends the same credits where visibility intervals are widest
 * (collection/adaptive-sampling.ts).
 */
export const SAMPLING_MODES = ['fixed', 'adaptive'] as const;
export type SamplingMode = (typeof SAMPLING_MODES)[number];

/** The ± points an adaptive run aims every prompt's interval at unless the project sets another (projects.sampling_margin). */
export const DEFAULT_SAMPLING_MARGIN = 5;
