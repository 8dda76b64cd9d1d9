/**
 * The AI agents Sightline names (by their user-agent token) and the AI engines whose
 * referrals it counts. The site audit reads robots.txt for the same names.
 */
export type AgentPurpose = 'training' | 'search' | 'user';

export interface AgentInfo {
  agent: string;
  operator: string;
  purpose: AgentPurpose;
}

export const AGENTS: readonly AgentInfo[] = [
  { agent: 'GPTBot', operator: 'OpenAI', purpose: 'training' },
  { agent: 'OAI-SearchBot', operator: 'OpenAI', purpose: 'search' },
  { agent: 'ChatGPT-User', operator: 'OpenAI', purpose: 'user' },
  { agent: 'ClaudeBot', operator: 'Anthropic', purpose: 'training' },
  { agent: 'Claude-User', operator: 'Anthropic', purpose: 'user' },
  { agent: 'Claude-SearchBot', operator: 'Anthropic', purpose: 'search' },
  { agent: 'PerplexityBot', operator: 'Perplexity', purpose: 'search' },
  { agent: 'Perplexity-User', operator: 'Perplexity', purpose: 'user' },
  // Google-Extended and Applebot-Extended are robots.txt tokens only: no request carries
  // them in its user agent, so a log never shows them (Googlebot and Applebot fetch for them).
  { agent: 'Google-Extended', operator: 'Google', purpose: 'training' },
  { agent: 'Googlebot', operator: 'Google', purpose: 'search' },
  { agent: 'Bingbot', operator: 'Microsoft', purpose: 'search' },
  { agent: 'Applebot-Extended', operator: 'Apple', purpose: 'training' },
  { agent: 'CCBot', operator: 'Common Crawl', purpose: 'training' },
  { agent: 'Meta-ExternalAgent', operator: 'Meta', purpose: 'training' },
  { agent: 'Bytespider', operator: 'ByteDance', purpose: 'training' },
];

export const AGENT_NAMES = AGENTS.map((a) => a.agent);
export const agentInfo = new Map(AGENTS.map((a) => [a.agent, a]));

/** Tokens a user agent can carry, longest first so `Claude-SearchBot` is not read as a shorter token. */
const UA_TOKENS = AGENTS.filter((a) => !a.agent.endsWith('-Extended'))
  .map((a) => a.agent)
  .sort((x, y) => y.length - x.length);
const UA_PATTERN = new RegExp(UA_TOKENS.map((t) => t.replace(/[-]/g, '\\-')).join('|'), 'i');
const canonicalToken = new Map(UA_TOKENS.map((t) => [t.toLowerCase(), t]));

/** The agent a user agent names, or null. Case-insensitive (Bing writes `bingbot`). */
export function agentOfUserAgent(userAgent: string): string | null {
  const m = UA_PATTERN.exec(userAgent);
  return m ? (canonicalToken.get(m[0].toLowerCase()) ?? null) : null;
}

/**
 * AI engines by referrer host (after `www.`): the engine is named by its current host, so
 * chat.openai.com's visits count as chatgpt.com's.
 */
const ENGINE_HOSTS: Record<string, string> = {
  'chatgpt.com': 'chatgpt.com',
  'chat.openai.com': 'chatgpt.com',
  'perplexity.ai': 'perplexity.ai',
  'gemini.google.com': 'gemini.google.com',
  'bard.google.com': 'gemini.google.com',
  'claude.ai': 'claude.ai',
  'copilot.microsoft.com': 'copilot.microsoft.com',
  'chat.deepseek.com': 'chat.deepseek.com',
  'grok.com': 'grok.com',
  'meta.ai': 'meta.ai',
  'chat.mistral.ai': 'chat.mistral.ai',
  'you.com': 'you.com',
  'phind.com': 'phind.com',
};
export const AI_ENGINES = [...new Set(Object.values(ENGINE_HOSTS))];

/** The AI engine a referrer URL (or a bare host, as `utm_source` carries) points at, or null. */
export function engineOfReferrer(referrer: string): string | null {
  if (referrer.length < 4 || referrer === '-') return null;
  const m = /^(?:[a-z][a-z0-9+.-]*:\/\/)?([^/?#:\s]+)/i.exec(referrer);
  if (!m) return null;
  let host = m[1].toLowerCase();
  if (host.startsWith('www.')) host = host.slice(4);
  return ENGINE_HOSTS[host] ?? null;
}
