import net from 'node:net';
import { z } from 'zod';
import { PLAN_NAMES, type PlanName } from './lib/plans.js';

// The operator contract (docs/self-hosting.md): every setting comes from one environment
// variable with this exact name. Parsed once at start; a bad value stops the process
// with a message naming the variable.
const bool = z
  .enum(['true', 'false', '1', '0', ''])
  .transform((v) => v === 'true' || v === '1');

/**
 * How pg-boss notices a worker that died mid-job (kill -9, a lost machine). A running job
 * carries a heartbeat the worker renews; once it is older than `heartbeatSeconds`, the next
 * supervision pass (every `superviseSeconds`, in any worker) puts the job back in the queue as
 * a retry, subject to its retry limit and delay. pg-boss refuses a heartbeat under 10 s.
 */
export interface JobTimings {
  heartbeatSeconds: number;
  superviseSeconds: number;
  /**
   * How often an idle worker looks for jobs that no notification announces: retries after
   * their delay, jobs sent to start later. A job sent now wakes the workers of its queue at
   * once (LISTEN/NOTIFY, src/jobs/queue.ts), so this is a backstop, not the pickup latency.
   */
  pollSeconds: number;
}

export const DEFAULT_JOB_TIMINGS: JobTimings = { heartbeatSeconds: 30, superviseSeconds: 10, pollSeconds: 5 };

/** Settings of the job leases that pg-boss's heartbeat replaced: refused with a pointer, never silently ignored. */
const RETIRED = {
  JOB_HEARTBEAT_MS: 'JOB_HEARTBEAT_SECONDS',
  JOB_DEAD_AFTER_MS: 'JOB_HEARTBEAT_SECONDS',
  JOB_REAP_EVERY_MS: 'JOB_SUPERVISE_SECONDS',
} as const;

const EnvSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z.string().startsWith('postgres').optional(),
  // A PostgreSQL streaming replica of DATABASE_URL for the analytics reads (docs/replicas.md),
  // and how far behind it may be before reads go back to the primary.
  DATABASE_READ_URL: z.string().startsWith('postgres').optional(),
  REPLICA_MAX_LAG_MS: z.coerce.number().int().min(100).max(3_600_000).default(5_000),
  REDIS_URL: z.string().startsWith('redis').optional(),
  // Connections each process keeps to PostgreSQL (server mode); the job queue shares them.
  DATABASE_POOL_SIZE: z.coerce.number().int().min(2).max(500).optional(),
  // Which proxies in front may set X-Forwarded-For (every per-address rate limit uses the
  // client address it yields): unset/false (none), a hop count, or a list of addresses/CIDRs.
  TRUST_PROXY: z.string().optional(),
  ROLE: z.enum(['all', 'api', 'worker']).default('all'),
  // Browser origins allowed to call /mcp (comma-separated, e.g. http://localhost:6274);
  // a request carrying any other Origin header is refused (the MCP transport's rule).
  MCP_ALLOWED_ORIGINS: z.string().optional(),
  SECRET_KEY: z.string().min(16).optional(),
  ADMIN_TOKEN: z.string().min(16).optional(),
  // The plan of every team made by POST /v1/account/create (the contract's skip_trial by default).
  SIGNUP_PLAN: z.enum(PLAN_NAMES, { error: `must be one of ${PLAN_NAMES.join(', ')}` }).default('skip_trial'),
  // Requests per window of one signed-in dashboard session (its own budget, not the team key's).
  DASHBOARD_RATE_LIMIT: z.coerce.number().int().min(1).max(100_000).default(600),
  CALLBACK_SIGNING_SECRET: z.string().startsWith('whsec_').optional(),
  ALLOW_PRIVATE_URLS: bool.default(false),
  WEBHOOK_RETRY_BASE_MS: z.coerce.number().int().min(1).default(30_000),
  // Extension: the delivery deadline (spec 6.2 says 10 s; tests shorten it).
  WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(50).max(60_000).default(10_000),
  PROVIDERS_MODE: z.enum(['auto', 'simulated', 'live']).default('auto'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  // Extensions (documented in docs/self-hosting.md): the sliding window length, for tests and demos.
  RATE_LIMIT_WINDOW_MS: z.coerce.number().int().min(100).default(60_000),
  // How long an API process trusts a cached key record before reading it again.
  AUTH_CACHE_MS: z.coerce.number().int().min(0).default(2_000),
  // Per-process cache of serialized analytics responses, in MiB (0: off); see src/http/read-cache.ts.
  READ_CACHE_MB: z.coerce.number().min(0).max(4096).default(64),
  // Crawler logs (docs/crawler-logs.md): a folder of newer published address files
  // (gptbot.json, searchbot.json, ...) that replace the bundled ones, and the largest
  // uncompressed log one request may send, in MiB.
  CRAWLER_RANGES_DIR: z.string().min(1).optional(),
  CRAWLER_LOG_MAX_MB: z.coerce.number().int().min(1).max(1_048_576).default(20_480),
  // Site audit (docs/site-audit.md): the most pages one audit fetches (each as a browser and as every agent).
  // Answers kept, in whole months (docs/retention.md): unset or 0 keeps every answer; a
  // daily job drops the months before, the figures (rollups) of every month are kept.
  RETENTION_MONTHS: z
    .string()
    .regex(/^\d+$/, 'must be a whole number of months (0 or unset: keep every answer), e.g. 13')
    .transform(Number)
    .pipe(z.number().int().min(0).max(1200, 'must be at most 1200 months (0 or unset: keep every answer)'))
    .default(0),
  SITE_AUDIT_MAX_PAGES: z.coerce.number().int().min(1).max(200).default(10),
  // Prefix of the rate-limit keys in Redis: several deployments (or test runs) can share
  // one Redis without sharing windows.
  REDIS_KEY_PREFIX: z.string().min(1).max(100).default('sightline:rl:'),
  // pg-boss's job heartbeat (see JobTimings): the silence after which a running job is
  // handed back, and how often workers look for such jobs.
  JOB_HEARTBEAT_SECONDS: z.coerce.number().int().min(10).max(3600).default(DEFAULT_JOB_TIMINGS.heartbeatSeconds),
  JOB_SUPERVISE_SECONDS: z.coerce.number().int().min(1).max(3600).default(DEFAULT_JOB_TIMINGS.superviseSeconds),
  JOB_POLL_SECONDS: z.coerce.number().min(0.5).max(300).default(DEFAULT_JOB_TIMINGS.pollSeconds),
  OPENAI_API_KEY: z.string().optional(),
  OPENAI_BASE_URL: z.string().url().optional(),
  PERPLEXITY_API_KEY: z.string().optional(),
  PERPLEXITY_BASE_URL: z.string().url().optional(),
  GEMINI_API_KEY: z.string().optional(),
  GEMINI_BASE_URL: z.string().url().optional(),
  ANTHROPIC_API_KEY: z.string().optional(),
  ANTHROPIC_BASE_URL: z.string().url().optional(),
  SERPAPI_API_KEY: z.string().optional(),
  SERPAPI_BASE_URL: z.string().url().optional(),
  /** SerpApi's google_ai_mode and bing_copilot engines: SERPAPI_API_KEY, each its own base URL (default SERPAPI_BASE_URL). */
  GOOGLE_AI_MODE_BASE_URL: z.string().url().optional(),
  COPILOT_BASE_URL: z.string().url().optional(),
  XAI_API_KEY: z.string().optional(),
  XAI_BASE_URL: z.string().url().optional(),
  /** chatgpt_ui (ChatGPT's web app through Oxylabs' Web Scraper API): the API user as `username:password`. */
  OXYLABS_CREDENTIALS: z.string().regex(/^[^:]+:.+$/s, 'must be username:password').optional(),
  OXYLABS_BASE_URL: z.string().url().optional(),
  LLM_PROVIDER: z.string().optional(),
  LLM_MODEL: z.string().optional(),
  // The writer model's endpoint (any OpenAI-compatible Chat Completions API) and key;
  // for LLM_PROVIDER=openai they default to api.openai.com and OPENAI_API_KEY.
  // Outgoing mail (team invitations): an SMTP URL (smtp://user:pass@host:587, smtps://…)
  // and the sender address; invitations are mailed only when both are set.
  SMTP_URL: z.string().regex(/^smtps?:\/\//, 'must start with smtp:// or smtps://').optional(),
  MAIL_FROM: z.string().min(3).max(320).optional(),
  LLM_API_KEY: z.string().optional(),
  LLM_BASE_URL: z.string().url().optional(),
  // The optional model-based analysis (src/analysis/README.md, "Model-based analysis"):
  // `<provider>:<model>` as the writer names its model (LLM_PROVIDER:LLM_MODEL), behind an
  // OpenAI-compatible Chat Completions API; its key and endpoint as analysisModelSettings says.
  ANALYSIS_MODEL: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9][\w.-]*:\S+$/, 'must be <provider>:<model>, e.g. openai:gpt-4.1-mini')
    .optional(),
  ANALYSIS_API_KEY: z.string().optional(),
  ANALYSIS_BASE_URL: z.string().url().optional(),
  // Model calls in flight at once per process (the analysis of a collection run waits its turn).
  ANALYSIS_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(4),
  // The origin of every link the service writes (invitations, reports, e-mails): never taken
  // from a request's Host or forwarded headers. Default http://localhost:$PORT.
  PUBLIC_URL: z
    .string()
    .url()
    .refine((v) => /^https?:\/\//.test(v), 'must be an http:// or https:// URL')
    .optional(),
});

export type Env = z.infer<typeof EnvSchema>;

/** ANALYSIS_MODEL and what it needs, resolved (analysisModelSettings). */
export interface AnalysisModelSettings {
  /** `<provider>:<model>`, as set: what each answer analysed by it records. */
  label: string;
  provider: string;
  model: string;
  /** Unset for `openai` only: the port's default, https://api.openai.com/v1. */
  baseUrl?: string;
  apiKey?: string;
  concurrency: number;
}

/**
 * ANALYSIS_MODEL (`<provider>:<model>`) with its key and endpoint, the writer's rules
 * (LLM_PROVIDER / LLM_MODEL): ANALYSIS_API_KEY and ANALYSIS_BASE_URL when set; else the
 * writer's LLM_API_KEY and LLM_BASE_URL when LLM_PROVIDER is the same provider; else, for
 * `openai`, OPENAI_API_KEY and OPENAI_BASE_URL (default api.openai.com). `openai` needs a key,
 * any other provider a base URL. Null when ANALYSIS_MODEL is unset: the lexicon alone.
 */
export function analysisModelSettings(env: Env): AnalysisModelSettings | null {
  const label = env.ANALYSIS_MODEL;
  if (!label) return null;
  const split = label.indexOf(':');
  const provider = label.slice(0, split);
  const model = label.slice(split + 1);
  const isOpenAI = provider.toLowerCase() === 'openai';
  const sameAsWriter = env.LLM_PROVIDER?.trim().toLowerCase() === provider.toLowerCase();
  const apiKey = env.ANALYSIS_API_KEY ?? (sameAsWriter ? env.LLM_API_KEY : undefined) ?? (isOpenAI ? env.OPENAI_API_KEY : undefined);
  const baseUrl = env.ANALYSIS_BASE_URL ?? (sameAsWriter ? env.LLM_BASE_URL : undefined) ?? (isOpenAI ? env.OPENAI_BASE_URL : undefined);
  if (isOpenAI && !apiKey) {
    throw new ConfigError(`Invalid configuration:\n  ANALYSIS_MODEL=${label} needs ANALYSIS_API_KEY or OPENAI_API_KEY (or LLM_API_KEY with LLM_PROVIDER=openai)`);
  }
  if (!isOpenAI && !baseUrl) {
    throw new ConfigError(
      `Invalid configuration:\n  ANALYSIS_MODEL=${label} needs ANALYSIS_BASE_URL (its OpenAI-compatible endpoint), or LLM_BASE_URL with LLM_PROVIDER=${provider}; only openai has a default`,
    );
  }
  return { label, provider, model, baseUrl, apiKey, concurrency: env.ANALYSIS_CONCURRENCY };
}

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  /** In-memory embedded store (tests): no folder, no lock. */
  memoryStore: boolean;
  /**
   * In-memory store only: a file holding the data directory of a migrated store (PGlite's
   * dumpDataDir), opened instead of running initdb and the migrations from scratch (tests).
   */
  memoryStoreSnapshot?: string;
  databaseUrl?: string;
  /** DATABASE_READ_URL: a streaming replica of databaseUrl that serves analytics reads (docs/replicas.md). */
  databaseReadUrl?: string;
  /** REPLICA_MAX_LAG_MS: a replica further behind than this serves no read. */
  replicaMaxLagMs: number;
  redisUrl?: string;
  /** PostgreSQL connections per process (server mode). */
  databasePoolSize: number;
  /** Fastify's trustProxy: false, a hop count, or the trusted proxy addresses and CIDRs. */
  trustProxy: boolean | number | string[];
  role: 'all' | 'api' | 'worker';
  secretKey?: string;
  adminToken?: string;
  /** Where the embedded service keeps the ADMIN_TOKEN it generated (unset: from the environment or none). */
  adminTokenFile?: string;
  /** SIGNUP_PLAN: the plan of every team created by sign-up. */
  signupPlan: PlanName;
  /** DASHBOARD_RATE_LIMIT: requests per rate-limit window of one dashboard session. */
  dashboardRateLimit: number;
  callbackSigningSecret?: string;
  allowPrivateUrls: boolean;
  webhookRetryBaseMs: number;
  webhookTimeoutMs: number;
  /** Extra CA certificates trusted for outbound HTTPS (tests with a self-signed receiver). Not from the environment. */
  outboundCa?: string | Buffer;
  /**
   * Where the favicon proxy fetches every site's icon from instead of https://{domain} (tests:
   * a local fake site, told the domain by the Host header). Not from the environment.
   */
  faviconOrigin?: string;
  providersMode: 'auto' | 'simulated' | 'live';
  logLevel: Env['LOG_LEVEL'];
  rateLimitWindowMs: number;
  authCacheMs: number;
  /** Bytes of serialized analytics responses each process may cache (0: off). */
  readCacheBytes: number;
  redisKeyPrefix: string;
  /** pg-boss's job heartbeat and supervision interval. */
  jobTimings: JobTimings;
  /** RETENTION_MONTHS: whole months of answers kept (0: every answer kept); docs/retention.md. */
  retentionMonths: number;
  /** SMTP server and sender of outgoing mail (invitations); mail is off unless both are set. */
  smtpUrl?: string;
  mailFrom?: string;
  /** Browser origins allowed to call /mcp (MCP_ALLOWED_ORIGINS); any other Origin is a 403. */
  mcpAllowedOrigins: string[];
  /** ANALYSIS_MODEL resolved: the model that judges each answer's sentiment toward each brand; null: the lexicon alone. */
  analysisModel: AnalysisModelSettings | null;
  /** Origin (and optional base path, no trailing slash) of every link the service writes (PUBLIC_URL). */
  publicUrl: string;
  env: Env;
}

export class ConfigError extends Error {}

const ADDRESS = /^[0-9a-fA-F:.]+$/;

/**
 * TRUST_PROXY: unset or `false` trusts no proxy (the peer address is the client); a whole
 * number trusts that many hops; otherwise a comma-separated list of proxy addresses or
 * CIDR ranges (`10.0.0.0/8, 127.0.0.1`). `true` (trust any hop) is refused: anyone could
 * then choose their own address and escape the per-address limits.
 */
export function parseTrustProxy(value: string | undefined): boolean | number | string[] {
  const v = value?.trim() ?? '';
  if (v === '' || v === 'false' || v === '0') return false;
  if (/^\d+$/.test(v)) return Number(v);
  const items = v.split(',').map((x) => x.trim()).filter(Boolean);
  for (const item of items) {
    const [addr, bits, extra] = item.split('/');
    const ip = net.isIP(addr ?? '');
    const max = ip === 4 ? 32 : 128;
    const okBits = bits === undefined || (/^\d+$/.test(bits) && Number(bits) <= max);
    if (!ADDRESS.test(addr ?? '') || !ip || !okBits || extra !== undefined) {
      throw new ConfigError(
        `Invalid configuration:\n  TRUST_PROXY: "${item}" is neither a hop count nor an IP address or CIDR range (false, 1, or 10.0.0.0/8,127.0.0.1)`,
      );
    }
  }
  return items;
}

/**
 * MCP_ALLOWED_ORIGINS: origins (scheme, host and port, nothing else) whose browser pages may
 * call /mcp. Each is kept in the form the URL parser gives it, as browsers send it.
 */
export function parseOrigins(value: string | undefined): string[] {
  const items = (value ?? '').split(',').map((x) => x.trim()).filter(Boolean);
  return items.map((item) => {
    let url: URL | undefined;
    try {
      url = new URL(item);
    } catch {
      url = undefined;
    }
    if (!url || !/^https?:$/.test(url.protocol) || url.origin !== item.replace(/\/$/, '').toLowerCase()) {
      throw new ConfigError(`Invalid configuration:\n  MCP_ALLOWED_ORIGINS: "${item}" is not an origin (scheme://host[:port], e.g. http://localhost:6274)`);
    }
    return url.origin;
  });
}

export function loadConfig(source: NodeJS.ProcessEnv = process.env, overrides: Partial<Config> = {}): Config {
  // Empty strings mean "unset" for every variable, as in most deploy tools.
  const cleaned = Object.fromEntries(
    Object.entries(source).filter(([k, v]) => k in EnvSchema.shape && v !== undefined && v !== ''),
  );
  const retired = Object.entries(RETIRED).filter(([name]) => source[name] !== undefined && source[name] !== '');
  if (retired.length) {
    const lines = retired.map(([name, now]) => `${name}: replaced by ${now} (pg-boss's job heartbeat, in seconds; see docs/self-hosting.md)`);
    throw new ConfigError(`Invalid configuration:\n  ${lines.join('\n  ')}`);
  }
  const parsed = EnvSchema.safeParse(cleaned);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n  ${lines.join('\n  ')}`);
  }
  const env = parsed.data;
  const config: Config = {
    port: env.PORT,
    host: env.HOST,
    dataDir: env.DATA_DIR,
    memoryStore: false,
    databaseUrl: env.DATABASE_URL,
    databaseReadUrl: env.DATABASE_READ_URL,
    replicaMaxLagMs: env.REPLICA_MAX_LAG_MS,
    redisUrl: env.REDIS_URL,
    databasePoolSize: env.DATABASE_POOL_SIZE ?? (env.ROLE === 'worker' ? 10 : 20),
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
    mcpAllowedOrigins: parseOrigins(env.MCP_ALLOWED_ORIGINS),
    role: env.ROLE,
    secretKey: env.SECRET_KEY,
    adminToken: env.ADMIN_TOKEN,
    signupPlan: env.SIGNUP_PLAN,
    dashboardRateLimit: env.DASHBOARD_RATE_LIMIT,
    callbackSigningSecret: env.CALLBACK_SIGNING_SECRET,
    allowPrivateUrls: env.ALLOW_PRIVATE_URLS,
    webhookRetryBaseMs: env.WEBHOOK_RETRY_BASE_MS,
    webhookTimeoutMs: env.WEBHOOK_TIMEOUT_MS,
    providersMode: env.PROVIDERS_MODE,
    logLevel: env.LOG_LEVEL,
    rateLimitWindowMs: env.RATE_LIMIT_WINDOW_MS,
    authCacheMs: env.AUTH_CACHE_MS,
    readCacheBytes: Math.round(env.READ_CACHE_MB * 1024 * 1024),
    redisKeyPrefix: env.REDIS_KEY_PREFIX,
    jobTimings: { heartbeatSeconds: env.JOB_HEARTBEAT_SECONDS, superviseSeconds: env.JOB_SUPERVISE_SECONDS, pollSeconds: env.JOB_POLL_SECONDS },
    retentionMonths: env.RETENTION_MONTHS,
    smtpUrl: env.SMTP_URL,
    mailFrom: env.MAIL_FROM,
    publicUrl: (env.PUBLIC_URL ?? `http://localhost:${env.PORT}`).replace(/\/+$/, ''),
    analysisModel: analysisModelSettings(env),
    env,
    ...overrides,
  };
  if (config.databaseReadUrl && !config.databaseUrl) {
    throw new ConfigError('Invalid configuration:\n  DATABASE_READ_URL: needs DATABASE_URL (a replica of the server-mode primary; the embedded store has none)');
  }
  if (config.databaseReadUrl && config.databaseReadUrl === config.databaseUrl) {
    throw new ConfigError('Invalid configuration:\n  DATABASE_READ_URL: is DATABASE_URL itself; name a streaming replica of it, or leave it unset');
  }
  if (config.databaseUrl && !config.secretKey) {
    throw new ConfigError('SECRET_KEY is required when DATABASE_URL is set (server mode)');
  }
  return config;
}
