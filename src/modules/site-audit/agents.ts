import { AGENTS } from '../crawler-logs/agents.js';

/** The user agent each agent fetches with (as its operator documents it); -Extended tokens have none. */
const FULL_UA: Record<string, string> = {
  Googlebot: 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
  Bingbot: 'Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)',
  CCBot: 'CCBot/2.0 (https://commoncrawl.org/faq/)',
  'Meta-ExternalAgent': 'meta-externalagent/1.1 (+https://developers.facebook.com/docs/sharing/webmasters/crawler)',
  Bytespider: 'Mozilla/5.0 (Linux; Android 5.0) AppleWebKit/537.36 (KHTML, like Gecko) Mobile Safari/537.36 (compatible; Bytespider; spider-feedback@bytedance.com)',
};

export const BROWSER_UA = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

/** The agents whose fetches the audit tries, with their user agents. */
export const FETCHING_AGENTS = AGENTS.filter((a) => !a.agent.endsWith('-Extended')).map((a) => ({
  ...a,
  userAgent: FULL_UA[a.agent] ?? `Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ${a.agent}/1.0)`,
}));

/** Every agent, robots.txt tokens included. */
export const ROBOTS_AGENTS = AGENTS;
