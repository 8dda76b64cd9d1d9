import path from 'node:path';
import type { Config } from './config.js';
import { PROVIDER_ENV, PROVIDERS, providerModes } from './ports/providers/index.js';
import { llmSettings } from './ports/writer/index.js';
import { planOf } from './lib/plans.js';

// What a person at a terminal sees once `npm start` is up: where to go, what it runs on,
// what is real and what is simulated, and how to change that. Printed only to a TTY; the
// JSON log keeps its one "listening" line for machines.

/** The address a person can open: a wildcard listen address becomes localhost. */
export function browsableBase(listenAddress: string): string {
  const u = new URL(listenAddress);
  if (u.hostname === '0.0.0.0' || u.hostname === '[::]') u.hostname = 'localhost';
  return u.origin;
}

/** The store in words, never with a password. */
export function storeLabel(config: Pick<Config, 'databaseUrl' | 'dataDir'>): string {
  if (!config.databaseUrl) return `embedded PostgreSQL (PGlite) in ${path.resolve(config.dataDir)}`;
  try {
    const u = new URL(config.databaseUrl);
    return `PostgreSQL at ${u.hostname}${u.port ? `:${u.port}` : ''}${u.pathname}`;
  } catch {
    return 'PostgreSQL (DATABASE_URL)';
  }
}

export function startupBanner(config: Config, listenAddress: string): string {
  const base = browsableBase(listenAddress);
  const modes = providerModes(config);
  const live = PROVIDERS.filter((p) => modes[p] === 'live');
  const simulated = PROVIDERS.filter((p) => modes[p] === 'simulated');
  const writer = llmSettings(config.env);
  const lines = [
    '',
    '  Sightline is running',
    '',
    `  API        ${base}/v1`,
    `  Docs       ${base}/docs   (OpenAPI: ${base}/v1/openapi.json)`,
    `  Dashboard  ${base}/`,
    `  Store      ${storeLabel(config)}`,
    `  Engines    live: ${live.join(', ') || 'none'}`,
    `             simulated: ${simulated.join(', ') || 'none'}`,
  ];
  if (simulated.length && config.providersMode === 'simulated') {
    lines.push('             (PROVIDERS_MODE=simulated: every engine is simulated)');
  } else if (simulated.length) {
    lines.push(`             to ask a real engine, set its key: ${simulated.map((p) => PROVIDER_ENV[p].key).join(', ')}`);
  }
  const keyless = live.filter((p) => !config.env[PROVIDER_ENV[p].key]);
  if (keyless.length) lines.push(`             PROVIDERS_MODE=live without a key fails every call of: ${keyless.join(', ')}`);
  lines.push(
    `  Writer     ${writer ? `${writer.model} (LLM_PROVIDER=${config.env.LLM_PROVIDER})` : 'built-in, deterministic (set LLM_PROVIDER and LLM_MODEL for a model)'}`,
    `  Analysis   ${config.analysisModel ? `lexicon, sentiment judged by ${config.analysisModel.label} (ANALYSIS_MODEL)` : 'lexicon (set ANALYSIS_MODEL for a model to judge the sentiment)'}`,
  );
  lines.push(
    `  Plans      new teams get ${config.signupPlan ?? 'skip_trial'} (${planOf(config.signupPlan ?? 'skip_trial').credits} credits a month; set SIGNUP_PLAN to change it)`,
    '             change a team\'s plan: npm run admin -- plan <email|team_id> <plan>   (teams: npm run admin -- teams)',
  );
  if (config.adminTokenFile) lines.push(`  Operator   ${base}/v1/admin (Authorization: Bearer <token in ${config.adminTokenFile}>)`);
  else if (config.adminToken) lines.push(`  Operator   ${base}/v1/admin (Authorization: Bearer $ADMIN_TOKEN)`);
  else lines.push('  Operator   off: set ADMIN_TOKEN (16+ characters) for the operator API and npm run admin');
  if (config.role === 'api') lines.push('  Role       API only (ROLE=api): jobs run in worker processes');
  if (config.allowPrivateUrls) {
    lines.push('  Warning    ALLOW_PRIVATE_URLS=true: callbacks, webhooks and page fetches may reach this machine and its network (development only)');
  }
  lines.push('', '  Stop with Ctrl+C.', '');
  return lines.join('\n');
}
