// Crawler-log ingestion and its reads, through HTTP on a real store: one known log (verified,
// spoofed, malformed, other-host, referral and asset lines) in the combined format, in the
// NDJSON of the three CDNs, and gzipped, gives the same exact counts; a re-sent file adds
// nothing; bad bodies are 4xx.
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { combinedLine, ndjsonLine, UA, type HitSpec } from '../../../test/access-logs.js';
import { data, storeSpecs, type FixtureProject } from '../../../test/analytics-fixture.js';
import { client, createAccount, createProject, errorBody, setTeam, startTestApp, type TestApp } from '../../../test/helpers.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ role: 'api' });
});
afterAll(async () => {
  await t?.stop();
});

const D = '20/Nov/2026';
const HITS: HitSpec[] = [
  { address: '20.171.207.10', time: `${D}:10:00:00 +0000`, target: '/pricing', userAgent: UA.gptbot }, // verified (gptbot.json)
  { address: '1.2.3.4', time: `${D}:10:01:00 +0000`, target: '/pricing?x=1', userAgent: UA.gptbot }, // spoofed
  { address: '18.97.9.97', time: `${D}:10:02:00 +0000`, target: '/docs', userAgent: UA.perplexity }, // verified (perplexitybot.json)
  { address: '5.6.7.8', time: `${D}:10:03:00 +0000`, target: '/pricing', userAgent: UA.claude, status: 403 }, // no ranges bundled
  { address: '9.9.9.1', time: `${D}:11:00:00 +0000`, target: '/pricing', userAgent: UA.browser, referrer: 'https://chatgpt.com/' },
  { address: '9.9.9.2', time: `21/Nov/2026:01:00:00 +0200`, target: '/docs?ref=1', userAgent: UA.browser, referrer: 'https://www.perplexity.ai/search?q=acme' },
  { address: '9.9.9.3', time: `${D}:12:00:00 +0000`, target: '/pricing', userAgent: UA.browser, referrer: 'https://www.google.com/' }, // not AI
  { address: '9.9.9.4', time: `${D}:12:30:00 +0000`, target: '/pricing?utm_source=chatgpt.com', userAgent: UA.browser }, // referrer dropped
  { address: '9.9.9.5', time: `${D}:12:31:00 +0000`, target: '/app.js', userAgent: UA.browser, referrer: 'https://chatgpt.com/' }, // asset
  { host: 'other.com', address: '20.171.207.10', time: `${D}:13:00:00 +0000`, target: '/pricing', userAgent: UA.gptbot }, // other host
  { host: 'www.acme.com:443', address: '20.171.207.11', time: `${D}:14:00:00 +0000`, target: '/blog/', userAgent: UA.gptbot }, // own host, verified
];
const MALFORMED_TEXT = ['this is not an access log line', '1.2.3.4 - - [32/Nov/2026:10:00:00 +0000] "GET / HTTP/1.1" 200 1 "-" "x"'];
const MALFORMED_JSON = ['{"ClientRequestURI": "/x"', '{"unrelated": true}'];
const EXPECTED = { lines: 13, parsed: 11, rejected: 2, bot_hits: 5, referrals: 3, other_hosts: 1 };

const combinedLog = [...HITS.map(combinedLine), '', ...MALFORMED_TEXT, ''].join('\n');
const ndjsonLog = [...HITS.map(ndjsonLine), ...MALFORMED_JSON].join('\r\n');

type LogProject = FixtureProject & { key: string };

/** A team (premium tier), its key, and a project of acme.com whose answers cite three of its pages. */
async function project(): Promise<LogProject> {
  const acct = await createAccount(t.app);
  await setTeam(t, acct.teamId, { rate_limit_tier: 'premium' });
  const api = client(t.app, acct.key);
  const projectId = await createProject(t.app, acct.key, { brand_name: 'Acme', brand_url: 'https://acme.com' });
  const topic = await api.post(`/projects/${projectId}/topics`, { name: 'Acme topic' });
  const prompts = await api.post(`/projects/${projectId}/prompts`, { prompts: ['best widget tools'], topicId: topic.json().data.topic_id });
  const p = { api, projectId, key: acct.key, topicId: '', competitorIds: {}, promptIds: prompts.json().data.prompts.map((x: { id: string }) => x.id) };
  const cite = (url: string) => ({ url, domain: 'acme.com', category: 0, urlType: null });
  await storeSpecs(
    t,
    p.projectId,
    [
      { prompt: p.promptIds[0], provider: 'chatgpt', day: '2026-11-20', cites: [cite('https://acme.com/pricing'), cite('https://acme.com/blog')] },
      { prompt: p.promptIds[0], provider: 'perplexity', day: '2026-11-20', cites: [cite('https://acme.com/pricing'), cite('https://acme.com/about')] },
      { prompt: p.promptIds[0], provider: 'chatgpt', day: '2026-10-01', cites: [cite('https://acme.com/docs')] }, // outside the window
    ],
    'acme.com',
  );
  return p;
}

function send(p: LogProject, body: string | Buffer, headers: Record<string, string>, key = p.key) {
  return t.app.inject({ method: 'POST', url: `/v1/projects/${p.projectId}/crawler-logs`, headers: { 'x-api-key': key, ...headers }, payload: body });
}

const WINDOW = '?start_date=2026-11-19&end_date=2026-11-21';
const EXPECTED_CRAWLERS = {
  bots: [
    { agent: 'GPTBot', operator: 'OpenAI', purpose: 'training', hits: 3, verified_hits: 2, pages: 2 },
    { agent: 'ClaudeBot', operator: 'Anthropic', purpose: 'training', hits: 1, verified_hits: 0, pages: 1 },
    { agent: 'PerplexityBot', operator: 'Perplexity', purpose: 'search', hits: 1, verified_hits: 1, pages: 1 },
  ],
  pages: [
    { path: '/pricing', hits: 3, by_agent: { GPTBot: 2, ClaudeBot: 1 }, cited: 2 },
    { path: '/blog/', hits: 1, by_agent: { GPTBot: 1 }, cited: 1 },
    { path: '/docs', hits: 1, by_agent: { PerplexityBot: 1 }, cited: 0 },
    { path: '/about', hits: 0, by_agent: {}, cited: 1 },
  ],
};
const EXPECTED_TRAFFIC = {
  engines: [
    { engine: 'chatgpt.com', visits: 2 },
    { engine: 'perplexity.ai', visits: 1 },
  ],
  pages: [
    { path: '/pricing', visits: 2, by_engine: { 'chatgpt.com': 2 } },
    { path: '/docs', visits: 1, by_engine: { 'perplexity.ai': 1 } },
  ],
};

describe('POST /projects/{id}/crawler-logs', () => {
  it('counts a combined log exactly, and the reads show it joined with the citations', async () => {
    const p = await project();
    const res = await send(p, combinedLog, { 'content-type': 'text/plain' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toEqual({ ...EXPECTED, duplicate: false });
    expect(await data(p.api, `/projects/${p.projectId}/crawlers${WINDOW}`)).toEqual(EXPECTED_CRAWLERS);
    expect(await data(p.api, `/projects/${p.projectId}/ai-traffic${WINDOW}`)).toEqual(EXPECTED_TRAFFIC);
    // a window without the day: nothing crawled, nothing cited
    expect(await data(p.api, `/projects/${p.projectId}/crawlers?start_date=2026-11-22&end_date=2026-11-25`)).toEqual({ bots: [], pages: [] });

    // the same file again, plain or gzipped: reported as a duplicate, nothing added
    for (const [body, headers] of [
      [combinedLog, { 'content-type': 'text/plain; charset=utf-8' }],
      [gzipSync(combinedLog), { 'content-type': 'text/plain', 'content-encoding': 'gzip' }],
    ] as const) {
      const again = await send(p, body, headers);
      expect(again.statusCode, again.body).toBe(200);
      expect(again.json().data).toEqual({ ...EXPECTED, duplicate: true });
    }
    expect(await data(p.api, `/projects/${p.projectId}/crawlers${WINDOW}`)).toEqual(EXPECTED_CRAWLERS);
    expect(await data(p.api, `/projects/${p.projectId}/ai-traffic${WINDOW}`)).toEqual(EXPECTED_TRAFFIC);
  });

  it('counts the same log as Cloudflare, Vercel and CloudFront NDJSON, gzipped, exactly alike', async () => {
    const p = await project();
    const res = await send(p, gzipSync(ndjsonLog), { 'content-type': 'application/x-ndjson', 'content-encoding': 'gzip' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toEqual({ ...EXPECTED, duplicate: false });
    expect(await data(p.api, `/projects/${p.projectId}/crawlers${WINDOW}`)).toEqual(EXPECTED_CRAWLERS);
    expect(await data(p.api, `/projects/${p.projectId}/ai-traffic${WINDOW}`)).toEqual(EXPECTED_TRAFFIC);
  });

  it('adds a second, different file to the first', async () => {
    const p = await project();
    expect((await send(p, combinedLog, { 'content-type': 'text/plain' })).statusCode).toBe(200);
    const more = combinedLine({ address: '20.171.207.99', time: `${D}:18:00:00 +0000`, target: '/pricing', userAgent: UA.gptbot });
    const res = await send(p, `${more}\n`, { 'content-type': 'text/plain' });
    expect(res.json().data).toMatchObject({ lines: 1, bot_hits: 1, duplicate: false });
    const report = await data(p.api, `/projects/${p.projectId}/crawlers${WINDOW}`);
    expect(report.bots[0]).toEqual({ agent: 'GPTBot', operator: 'OpenAI', purpose: 'training', hits: 4, verified_hits: 3, pages: 2 });
  });

  it('answers bad bodies and callers with a clear 4xx', async () => {
    const p = await project();
    const url = `/v1/projects/${p.projectId}/crawler-logs`;
    const cases: Array<[string | Buffer | undefined, Record<string, string>, number, RegExp]> = [
      ['', { 'content-type': 'text/plain' }, 400, /empty/],
      [undefined, {}, 400, /empty/],
      [gzipSync(''), { 'content-type': 'text/plain', 'content-encoding': 'gzip' }, 400, /empty/],
      ['not gzip at all', { 'content-type': 'text/plain', 'content-encoding': 'gzip' }, 400, /gzip/],
      ['{"a":1}', { 'content-type': 'application/json' }, 415, /text\/plain/],
      ['a,b', { 'content-type': 'text/csv' }, 415, /text\/plain/],
      ['x', { 'content-type': 'text/plain', 'content-encoding': 'br' }, 415, /gzip/],
    ];
    for (const [body, headers, status, detail] of cases) {
      const res = await t.app.inject({ method: 'POST', url, headers: { 'x-api-key': p.key, ...headers }, ...(body === undefined ? {} : { payload: body }) });
      expect(res.statusCode, `${JSON.stringify(headers)}: ${res.body}`).toBe(status);
      expect(res.json()).toEqual(errorBody(expect.stringMatching(detail)));
    }
    // a NUL in a path, invalid UTF-8: rejected lines, never a 500
    const odd = await send(p, Buffer.concat([Buffer.from('1.2.3.4 - - [20/Nov/2026:10:00:00 +0000] "GET /a\u0000b HTTP/1.1" 200 1 "-" "GPTBot"\n'), Buffer.from([0xff, 0xfe, 0x0a])]), { 'content-type': 'text/plain' });
    expect(odd.statusCode, odd.body).toBe(200);
    expect(odd.json().data).toMatchObject({ lines: 2, parsed: 0, rejected: 2 });

    const other = await createAccount(t.app);
    expect((await send(p, combinedLog, { 'content-type': 'text/plain' }, other.key)).statusCode).toBe(403);
    expect((await send(p, combinedLog, { 'content-type': 'text/plain' }, 'tk_live_nope')).statusCode).toBe(401);
    const missing = await t.app.inject({ method: 'POST', url: '/v1/projects/6d1f8a4e-0000-4000-8000-000000000000/crawler-logs', headers: { 'x-api-key': p.key, 'content-type': 'text/plain' }, payload: combinedLog });
    expect(missing.statusCode).toBe(404);
  });
});

describe('GET crawlers and ai-traffic windows', () => {
  it('refuses bad dates with a 400', async () => {
    const p = await project();
    for (const q of ['?start_date=2026-13-01', '?end_date=yesterday', '?start_date=2026-11-22&end_date=2026-11-21', '?start_date=2024-01-01&end_date=2026-01-01', '?day=1']) {
      for (const path of ['crawlers', 'ai-traffic']) {
        const res = await p.api.get(`/projects/${p.projectId}/${path}${q}`);
        expect(res.statusCode, `${path}${q}: ${res.body}`).toBe(400);
        expect(res.json()).toEqual(errorBody(expect.any(String)));
      }
    }
  });
});

describe('log drains (a CDN pushes to a URL, no key)', () => {
  const push = (url: string, body: string | Buffer, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'POST', url: new URL(url).pathname, headers, payload: body });

  it('counts pushed batches like an upload, a repeated batch once, and stops at revocation', async () => {
    const p = await project();
    const created = await p.api.post(`/projects/${p.projectId}/crawler-log-drains`, { name: 'Cloudflare Logpush' });
    expect(created.statusCode).toBe(200);
    const drain = created.json().data;
    expect(drain.url).toBe(`${t.config.publicUrl}/v1/crawler-log-drains/${drain.token}`);
    expect(drain.token).toMatch(/^ld_[0-9A-Za-z]{32}$/);

    // an empty push (the CDN's test request) counts nothing and is not an error
    const empty = await push(drain.url, '');
    expect(empty.statusCode).toBe(200);
    expect(empty.json().data).toMatchObject({ lines: 0, parsed: 0, duplicate: false });

    const batch = gzipSync(ndjsonLog);
    const first = await push(drain.url, batch, { 'content-type': 'application/x-ndjson', 'content-encoding': 'gzip' });
    expect(first.statusCode).toBe(200);
    expect(first.json().data).toEqual({ ...EXPECTED, duplicate: false });
    const again = await push(drain.url, batch, { 'content-type': 'application/x-ndjson', 'content-encoding': 'gzip' });
    expect(again.json().data).toEqual({ ...EXPECTED, duplicate: true });
    expect(await data(p.api, `/projects/${p.projectId}/crawlers${WINDOW}`)).toEqual(EXPECTED_CRAWLERS);

    const listed = await data(p.api, `/projects/${p.projectId}/crawler-log-drains`);
    expect(listed).toEqual([
      { drain_id: drain.drain_id, name: 'Cloudflare Logpush', token_prefix: drain.token.slice(0, 7), vercel_verify: false, created_at: drain.created_at, last_used_at: expect.any(String), status: 'active' },
    ]);
    expect(JSON.stringify(listed)).not.toContain(drain.token);

    const revoked = await p.api.delete(`/projects/${p.projectId}/crawler-log-drains/${drain.drain_id}`);
    expect(revoked.json().data).toEqual({ drain_id: drain.drain_id, message: 'Log drain revoked' });
    const after = await push(drain.url, combinedLog, { 'content-type': 'text/plain' });
    expect(after.statusCode).toBe(404);
    expect(after.json()).toEqual(errorBody('Unknown or revoked log drain'));
    expect((await data(p.api, `/projects/${p.projectId}/crawler-log-drains`))[0].status).toBe('revoked');
  });

  it("sends Vercel's verification value back, and refuses unknown tokens, bad types and viewers", async () => {
    const p = await project();
    const drain = (await p.api.post(`/projects/${p.projectId}/crawler-log-drains`, { vercel_verify: 'vercel-check-123' })).json().data;
    const verified = await push(drain.url, combinedLog, { 'content-type': 'text/plain' });
    expect(verified.statusCode).toBe(200);
    expect(verified.headers['x-vercel-verify']).toBe('vercel-check-123');
    expect(verified.json().data).toMatchObject({ bot_hits: EXPECTED.bot_hits });

    const unknown = await push(`${t.config.publicUrl}/v1/crawler-log-drains/ld_${'A'.repeat(32)}`, combinedLog, { 'content-type': 'text/plain' });
    expect(unknown.statusCode).toBe(404);
    const malformed = await push(`${t.config.publicUrl}/v1/crawler-log-drains/not-a-token`, combinedLog, { 'content-type': 'text/plain' });
    expect(malformed.statusCode).toBe(404);
    // NDJSON labelled as JSON (as Logpush may send it) is read line by line all the same
    const labelledJson = await push(drain.url, ndjsonLog, { 'content-type': 'application/json' });
    expect(labelledJson.statusCode).toBe(200);
    expect(labelledJson.json().data).toMatchObject({ lines: EXPECTED.lines, parsed: EXPECTED.parsed });
    const badEncoding = await push(drain.url, 'x', { 'content-type': 'text/plain', 'content-encoding': 'br' });
    expect(badEncoding.statusCode).toBe(415);

    // another team's key sees no drain of this project; a viewer key may not create one
    const other = await createAccount(t.app);
    expect((await client(t.app, other.key).get(`/projects/${p.projectId}/crawler-log-drains`)).statusCode).toBe(403);
    const viewer = await p.api.post('/keys', { scope: 'viewer' });
    const viewerKey = viewer.json().data.api_key;
    const refused = await client(t.app, viewerKey).post(`/projects/${p.projectId}/crawler-log-drains`, { name: 'x' });
    expect(refused.statusCode).toBe(403);
  });
});
