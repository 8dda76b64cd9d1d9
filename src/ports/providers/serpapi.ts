import { createCaller, type HttpSettings, type LiveProviderOptions } from './call.js';
import { numberReferences, type SourceRef } from './references.js';
import type { AskInput, ProviderAdapter, ProviderAnswer } from './types.js';
import { badBody, joinUrl } from './wire.js';

export const SERPAPI_DEFAULT_BASE_URL = 'https://serpapi.com';
/** SerpApi names no model; this is what Sightline records for an AI Overview. */
export const AI_OVERVIEW_MODEL = 'google-ai-overview';

// SerpApi wire format (only the fields read here).
export interface TextBlock {
  type?: string;
  title?: string;
  snippet?: string;
  /** Copilot headings carry a level (1..6). */
  level?: number;
  /** Copilot code blocks. */
  code?: string;
  language?: string;
  /** Copilot tables name their columns apart from the rows. */
  headers?: string[];
  list?: TextBlock[];
  text_blocks?: TextBlock[];
  table?: string[][];
  product_labels?: string[];
  comparison?: Array<{ feature?: string; values?: string[] }>;
  reference_indexes?: number[];
}
export interface SerpReference {
  title?: string;
  link?: string;
  snippet?: string;
  source?: string;
  index?: number;
}
interface AiOverview {
  text_blocks?: TextBlock[];
  references?: SerpReference[];
  page_token?: string;
  error?: string;
}
interface SerpBody {
  search_metadata?: { status?: string };
  ai_overview?: AiOverview;
  error?: string;
}

/**
 * google_ai_overview: SerpApi's Google engine. When Google loads the overview lazily,
 * the search returns only `ai_overview.page_token`, and a second call to the
 * google_ai_overview engine fetches it (the token expires within minutes).
 */
export function createSerpApiProvider(opts: LiveProviderOptions): ProviderAdapter {
  const caller = createCaller('google_ai_overview', opts);
  const base = opts.baseUrl ?? SERPAPI_DEFAULT_BASE_URL;
  const search = (params: Record<string, string>, signal?: AbortSignal) =>
    // The key is in the query: the label keeps it out of error messages.
    caller.run(`GET /search (engine=${params.engine})`, (sig) => serpGet<SerpBody>(caller.settings, base, { ...params, api_key: opts.apiKey }, sig), signal);
  return {
    name: 'google_ai_overview',
    simulated: false,
    async ask(input: AskInput, signal?: AbortSignal): Promise<ProviderAnswer> {
      const params: Record<string, string> = { engine: 'google', q: input.prompt };
      if (input.country) params.gl = input.country.toLowerCase();
      if (input.language) params.hl = input.language.toLowerCase();
      const sent = { country: params.gl ?? null, language: params.hl ?? null };
      const first = await search(params, signal);
      const overview = first?.ai_overview;
      if (overview?.page_token && !overview.text_blocks?.length) {
        const second = await search({ engine: 'google_ai_overview', page_token: overview.page_token }, signal);
        return { ...parseAiOverview(second, { search: first, ai_overview: second }), sent, usage: { searches: 2 } };
      }
      return { ...parseAiOverview(first, first), sent, usage: { searches: 1 } };
    },
  };
}

/** A failed SerpApi GET, shaped as the SDKs' errors are (status, headers, the body's `error`). */
class SerpStatusError extends Error {
  constructor(
    readonly status: number,
    readonly headers: Headers,
    readonly error: unknown,
    text: string,
  ) {
    super(text.slice(0, 200));
  }
}

/**
 * One GET of SerpApi's JSON API (no maintained client does more: serpapi on npm is this
 * call without a configurable base URL). The timeout covers headers and body.
 */
export async function serpGet<T>(s: HttpSettings, base: string, params: Record<string, string>, signal?: AbortSignal): Promise<T> {
  const timeout = AbortSignal.timeout(s.timeoutMs);
  const res = await s.fetch(`${joinUrl(base, 'search')}?${new URLSearchParams(params)}`, {
    headers: { accept: 'application/json' },
    signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
  });
  const text = await res.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  if (!res.ok) throw new SerpStatusError(res.status, res.headers, (body as { error?: unknown } | undefined)?.error, text);
  if (body === undefined) throw badBody('google_ai_overview', 'a body that is not JSON');
  return body as T;
}

const NO_RESULTS = /hasn't returned any results/i;

/** The overview as markdown, references in order of first use. No overview: an empty answer. */
export function parseAiOverview(body: SerpBody, raw: unknown): ProviderAnswer {
  if (!body || typeof body !== 'object') throw badBody('google_ai_overview', 'not an object');
  if (body.error && !NO_RESULTS.test(body.error)) throw badBody('google_ai_overview', body.error);
  const ov = body.ai_overview;
  const { text, references } = renderAnswer(ov?.text_blocks, ov?.references);
  return { provider: 'google_ai_overview', model: AI_OVERVIEW_MODEL, text, references, raw, simulated: false };
}

/** SerpApi text blocks as markdown, and their references in order of first use, then the rest. */
export function renderAnswer(blocks: TextBlock[] | undefined, refs: SerpReference[] = []): { text: string; references: ProviderAnswer['references'] } {
  const order: number[] = [];
  const text = blocks ? renderBlocks(blocks, order, 0) : '';
  const byIndex = new Map(refs.map((r, i) => [r.index ?? i, r]));
  const used = new Set<unknown>();
  const sources: SourceRef[] = [];
  for (const i of order) {
    const r = byIndex.get(i);
    if (r && !used.has(r)) {
      used.add(r);
      sources.push({ link: r.link ?? '', title: r.title, snippet: r.snippet });
    }
  }
  for (const r of refs) if (!used.has(r)) sources.push({ link: r.link ?? '', title: r.title, snippet: r.snippet });
  return { text, references: numberReferences(sources) };
}

function collect(order: number[], idx?: number[]) {
  for (const i of idx ?? []) if (!order.includes(i)) order.push(i);
}

function renderBlocks(blocks: TextBlock[], order: number[], depth: number): string {
  const parts: string[] = [];
  for (const b of blocks) {
    const md = renderBlock(b, order, depth);
    if (md) parts.push(md);
  }
  return parts.join('\n\n');
}

function renderBlock(b: TextBlock, order: number[], depth: number): string {
  collect(order, b.reference_indexes);
  switch (b.type) {
    case 'heading':
      return b.snippet ? `${'#'.repeat(Math.min(6, Math.max(2, b.level ?? 3)))} ${b.snippet}` : '';
    case 'code_block':
      return b.code ? `\`\`\`${b.language ?? ''}\n${b.code}\n\`\`\`` : '';
    case 'list':
      return renderList(b.list ?? [], order, depth);
    case 'expandable': {
      const inner = renderBlocks(b.text_blocks ?? [], order, depth);
      return [b.title ? `### ${b.title}` : '', inner].filter(Boolean).join('\n\n');
    }
    case 'table': {
      const rows = [...(b.headers?.length ? [b.headers] : []), ...(b.table ?? [])];
      return rows.length ? markdownTable(rows) : '';
    }
    case 'comparison':
      return b.comparison?.length
        ? markdownTable([['', ...(b.product_labels ?? [])], ...b.comparison.map((c) => [c.feature ?? '', ...(c.values ?? [])])])
        : '';
    default:
      return b.snippet ?? '';
  }
}

function renderList(items: TextBlock[], order: number[], depth: number): string {
  const pad = '  '.repeat(depth);
  const lines: string[] = [];
  for (const it of items) {
    collect(order, it.reference_indexes);
    const title = it.title?.trim();
    const head = title ? (title.endsWith(':') ? `**${title}**` : `**${title}**:`) : '';
    lines.push(`${pad}- ${[head, it.snippet?.trim()].filter(Boolean).join(' ')}`);
    if (it.list?.length) lines.push(renderList(it.list, order, depth + 1));
    if (it.text_blocks?.length) lines.push(renderBlocks(it.text_blocks, order, depth + 1));
  }
  return lines.join('\n');
}

function markdownTable(rows: string[][]): string {
  const width = Math.max(...rows.map((r) => r.length));
  const cell = (r: string[], i: number) => (r[i] ?? '').replace(/\|/g, '\\|').replace(/\n/g, ' ');
  const line = (r: string[]) => `| ${Array.from({ length: width }, (_, i) => cell(r, i)).join(' | ')} |`;
  return [line(rows[0]), `|${' --- |'.repeat(width)}`, ...rows.slice(1).map(line)].join('\n');
}
