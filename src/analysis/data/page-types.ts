import type { UrlTypeName } from '../types.js';

/**
 * Page-type rules, tried in order after the homepage rule (empty path or "/"); the first
 * that matches names the type, and a URL no rule matches is `other`. `host` is tested on
 * the lower-case host name, `path` on the lower-case path plus query; both must match
 * when both are given.
 */
export interface PageTypeRule {
  type: UrlTypeName;
  host?: RegExp;
  path?: RegExp;
}

export const PAGE_TYPE_RULES: readonly PageTypeRule[] = [
  // video
  { type: 'video', host: /(^|\.)youtube\.com$/, path: /^\/(watch|shorts\/|live\/|embed\/)/ },
  { type: 'video', host: /^youtu\.be$/ },
  { type: 'video', host: /(^|\.)vimeo\.com$/, path: /^\/(\d+|video\/\d+)/ },
  { type: 'video', host: /(^|\.)tiktok\.com$/, path: /\/video\/\d+/ },
  { type: 'video', host: /(^|\.)(loom\.com|wistia\.com|dailymotion\.com|twitch\.tv)$/, path: /^\/(share|medias|video|videos)\// },
  // forum threads
  { type: 'forum_thread', host: /(^|\.)reddit\.com$/, path: /\/comments\// },
  { type: 'forum_thread', host: /(^|\.)quora\.com$/, path: /^\/(?!(profile|topic|spaces?|search|about)\b)[^/]+-[^/]+\/?$/ },
  { type: 'forum_thread', host: /(^|\.)(stackoverflow\.com|stackexchange\.com|superuser\.com|serverfault\.com|askubuntu\.com|mathoverflow\.net)$/, path: /^\/(questions|q|a)\/\d+/ },
  { type: 'forum_thread', host: /^news\.ycombinator\.com$/, path: /^\/item\b/ },
  { type: 'forum_thread', host: /(^|\.)github\.com$/, path: /^\/[^/]+\/[^/]+\/(issues|discussions|pull)\/\d+/ },
  { type: 'forum_thread', host: /^(forum|forums|community|communities|discuss|discussion|answers|groups)\./, path: /^\/.+/ },
  { type: 'forum_thread', path: /\/(t|thread|threads|discussions?|questions)\/[^/]+|\/(viewtopic|showthread)\.php/ },
  // documentation
  { type: 'documentation', host: /^(docs?|documentation|developers?|devdocs|apidocs|api|support|help|helpcenter|kb|knowledge|knowledgebase|manual|reference)\./ },
  { type: 'documentation', host: /(^|\.)(readthedocs\.io|readthedocs\.org|developer\.mozilla\.org|learn\.microsoft\.com|devdocs\.io)$/ },
  { type: 'documentation', path: /\/(docs?|documentation|api-reference|api-docs|reference|manual|kb|knowledge-?base|help-?center|hc)(\/|$)/ },
  // comparisons
  { type: 'comparison', path: /(\/vs\/|[-_/]vs[-_.]|[-_/]versus[-_/]|\/compare|comparison|[-_/]alternatives?([-_/.]|$)|alternative-to)/ },
  // listicles
  { type: 'listicle', path: /(\/best[-_]|[-_]best[-_]|\/top[-_]?\d+|[-_]top[-_]?\d+|\/top[-_]|\d+[-_](best|top)[-_]|\/the-best)/ },
  // review pages (G2, Capterra, Trustpilot): reviews of a product, not the product's own page
  { type: 'article', path: /\/reviews?(\/|$)/ },
  // product pages
  { type: 'product', path: /\/(pricing|prices?|plans?|products?|features?|solutions?|editions|buy|demo|trial|free-trial|integrations?)(\/|$|\?)/ },
  // articles
  { type: 'article', path: /\/(blog|blogs|news|article|articles|post|posts|stories|story|insights|resources|guide|guides|learn|magazine|press|wiki|research|reviews?|report|reports)(\/|$)/ },
  { type: 'article', path: /\/(19|20)\d\d\/(\d\d?\/)?/ },
  { type: 'article', path: /\/[a-z0-9]+([-_][a-z0-9]+){2,}(\.html?|\.php|\.aspx?)?\/?(\?|$)/ },
];
