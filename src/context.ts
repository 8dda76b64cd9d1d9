import type { Config } from './config.js';
import type { JobQueue } from './jobs/catalog.js';
import type { SecretBox } from './lib/crypto.js';
import type { Logger } from './lib/log.js';
import type { TtlCache } from './lib/ttl-cache.js';
import type { CachedProjectDetail, ProjectRow } from './modules/projects/project-row.js';
import type { ProviderAdapter, ProviderName } from './ports/providers/types.js';
import type { Writer } from './ports/writer/index.js';
import type { AnalysisModel } from './ports/analysis-model/index.js';
import type { Mailer } from './ports/mail/index.js';
import type { ReadRouter, Store, Tx } from './store/index.js';

/** Adapters to the outside world (AI providers, the writer model). */
export interface Ports {
  providers: Record<ProviderName, ProviderAdapter>;
  writer: Writer;
  /** Outgoing mail (invitations); null when SMTP_URL and MAIL_FROM are not set. */
  mailer?: Mailer | null;
  /** The model that judges each answer's sentiment toward each brand (ANALYSIS_MODEL); null or absent: the lexicon alone. */
  analysisModel?: AnalysisModel | null;
}

export interface Clock {
  now(): Date;
}

/**
 * What every service and job handler can reach; built once per process. Nothing of a
 * surface is here: the HTTP layer keeps its caches and its rate limiter to itself
 * (src/http/context.ts), and hears of changes through `teamChanged`.
 */
export interface ServiceContext {
  config: Config;
  /** The primary: every write, every transaction, and every read not routed below. */
  store: Store;
  /**
   * Where the analytics reads of a service call run: the primary (`store`) unless the call
   * was routed to the replica for one project (withProjectReads in
   * src/modules/projects/routed-reads.ts). Read-only: nothing writes through it.
   */
  reads: Tx;
  /** Chooses a project's reads: a replica that has replayed its latest change, or the primary. */
  readRouter: ReadRouter;
  jobs: JobQueue;
  box: SecretBox;
  log: Logger;
  clock: Clock;
  ports: Ports;
  callbackSecret: string;
  /**
   * Project rows by id, trusted for AUTH_CACHE_MS: the ownership check every project
   * call starts with. The projects service writes through it (an edit replaces the row).
   */
  projectCache: TtlCache<ProjectRow>;
  /**
   * GET /projects/{id}'s answers by project id, trusted for AUTH_CACHE_MS like the rows
   * above: forgotten at once in this process by whatever changes what they show (an edit,
   * a deletion, the bootstrap's end, its callback's fate: forgetProject), seen by other
   * processes within AUTH_CACHE_MS.
   */
  projectDetails: TtlCache<CachedProjectDetail>;
  /** A team's plan, tier, credits or keys changed: whatever this process caches of it is stale. */
  teamChanged(teamId: string): void;
}

export interface AuthInfo {
  keyId: string;
  teamId: string;
  scope: 'admin' | 'viewer';
  tier: string;
  plan: string;
  /** The signed-in person (a dashboard session opened with email and password); absent for an API key. */
  userId?: string | null;
  email?: string | null;
}

/** A service call made for an authenticated caller. */
export interface RequestContext extends ServiceContext {
  auth: AuthInfo;
}
