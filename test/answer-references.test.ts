// An answer's references as stored: a reference whose link is one of the answer's cited
// pages names that page by its place in `cited` instead of repeating its link and title
// (src/modules/answers/answer-body.ts). Every reader must give back the references exactly
// as the engine sent them, a re-analysis included.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAnalyzer } from '../src/analysis/index.js';
import type { Analysis } from '../src/analysis/types.js';
import { reanalyseProject } from '../src/collection/reanalyse.js';
import { unpackBytes } from '../src/lib/packed-json.js';
import { decodeAnswerBody, encodeAnswerBody } from '../src/modules/answers/answer-body.js';
import { storeAnswers } from '../src/modules/answers/store-answers.js';
import { loadBrandSpecs } from '../src/modules/projects/brands.js';
import { loadProjectWithPlan } from '../src/modules/projects/project-row.js';
import type { Reference } from '../src/ports/providers/types.js';
import { data, fixtureProject, type FixtureProject } from './analytics-fixture.js';
import { startTestApp, type TestApp } from './helpers.js';
import { expectConsistentRollups } from './rollup-invariants.js';

const ref = (link: string, title: string, n: number): Reference => ({ title, link, snippet: `Snippet ${n}`, reference_index: n });
/** A reference as stored when its reference_index is its place in the list. */
const unnumbered = ({ reference_index: _n, ...rest }: Reference) => rest;
/** The references of a body as stored: the second of its lines (answer-body.ts). */
const storedReferences = (body: Uint8Array) => (JSON.parse(unpackBytes(body).toString('utf8').split('\n')[1]) as [string, Array<Record<string, unknown>>])[1];
const bodyOf = (text: string, references: Reference[], raw: unknown) => ({ text, references, searchQueries: [], raw });

describe('encoding', () => {
  const pages = [
    { url: 'https://a.example/one', title: 'One' },
    { url: 'https://b.example/two', title: 'Two' },
  ];
  const refs = [
    ref('https://b.example/two', 'Two', 1),
    ref('https://a.example/one', 'One, as this reference titles it', 2),
    ref('https://a.example/one?utm_source=x', 'One', 3),
    ref('https://c.example/', 'Not among the pages', 4),
  ];


  it('names a page by its place, keeps a title of its own, keeps the others whole, each numbered by its place', () => {
    const body = encodeAnswerBody(bodyOf('text', refs, { raw: true }), pages);
    const stored = storedReferences(body);
    expect(stored).toEqual([
      { c: 1, snippet: 'Snippet 1' },
      { c: 0, title: 'One, as this reference titles it', snippet: 'Snippet 2' },
      unnumbered(refs[2]),
      unnumbered(refs[3]),
    ]);
    const decoded = decodeAnswerBody(body, pages, 'chatgpt');
    expect(decoded).toEqual({ text: 'text', references: refs, searchQueries: [], raw: { raw: true } });
    // in the order of keys they always had
    expect(decoded.references.map((r) => Object.keys(r))).toEqual(refs.map(() => ['link', 'title', 'snippet', 'reference_index']));
    // smaller than the references whole
    expect(body.length).toBeLessThan(encodeAnswerBody(bodyOf('text', refs, { raw: true })).length);
  });

  it('keeps a reference_index other than the place of its reference', () => {
    const renumbered = [ref('https://b.example/two', 'Two', 3), ref('https://c.example/', 'C', 5), ref('https://d.example/', 'D', 3)];
    const body = encodeAnswerBody(bodyOf('text', renumbered, null), pages);
    expect(storedReferences(body)).toEqual([{ c: 1, snippet: 'Snippet 3', reference_index: 3 }, renumbered[1], unnumbered(renumbered[2])]);
    expect(decodeAnswerBody(body, pages, 'chatgpt').references).toEqual(renumbered);
  });

  it('refuses to read a reference without the page it names', () => {
    const body = encodeAnswerBody(bodyOf('text', refs, null), pages);
    expect(() => decodeAnswerBody(body, pages.slice(0, 1), 'chatgpt')).toThrow(/cited page 1 of 1/);
    // a body stored with no pages keeps every reference whole and needs none
    expect(decodeAnswerBody(encodeAnswerBody(bodyOf('text', refs, null)), [], 'chatgpt').references).toEqual(refs);
  });
});

describe('stored and read back', () => {
  let t: TestApp;
  let f: FixtureProject;
  beforeAll(async () => {
    t = await startTestApp({ role: 'api' });
    f = await fixtureProject(t, { brand: 'Refco', url: 'https://refco.io', prompts: ['Which reference tool?'] });
  });
  afterAll(async () => t?.stop());

  const day = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
  const sent: Reference[] = [
    ref('https://guidepages.com/guide', 'The guide', 1),
    ref('https://guidepages.com/guide', 'The guide, again', 2), // the same URL: one citation, the first title
    ref('https://trackednews.com/post?utm_source=chatgpt.com', 'A tracked link', 3), // normalised: kept whole
    ref('https://refco.io/pricing', '[4]', 4), // a title the analysis drops: kept
    ref('not a link at all', 'Nothing', 5), // no citation: kept whole
    ref('https://otherpage.com/page', 'Other page', 6),
  ];
  const text = 'Refco and Rival are both fine choices for references.';

  async function analyser() {
    const project = await loadProjectWithPlan(t.runtime.ctx.store, f.projectId);
    return createAnalyzer(await loadBrandSpecs(t.runtime.ctx.store, project!));
  }
  const chats = async () => (await data(f.api, `/projects/${f.projectId}/prompts/${f.promptIds[0]}/chats?duration_days=7`)).items as any[];
  const bodies = async () =>
    (await t.runtime.ctx.store.query<{ provider: string; body: Uint8Array }>(`select provider, body from responses where project_id = $1 order by provider`, [f.projectId])).rows;

  it('come back as sent, through the chats and after a re-analysis', async () => {
    const analysis = (await analyser())(text, sent);
    expect(analysis.citations.map((c) => c.url)).toEqual(['https://guidepages.com/guide', 'https://trackednews.com/post', 'https://refco.io/pricing', 'https://otherpage.com/page']);
    // chatgpt: stored with the analysis's citations; perplexity: with them in another order
    // (as an analyser of another version might have), so the re-analysis must store its body again
    const reordered: Analysis = { ...analysis, citations: [...analysis.citations].reverse() };
    await t.runtime.ctx.store.tx((tx) =>
      storeAnswers(tx, f.projectId, [
        { promptId: f.promptIds[0], provider: 'chatgpt', day, market: 'US-en', answer: { provider: 'chatgpt', model: 'gpt-x', text, references: sent, raw: null, simulated: false }, analysis },
        {
          promptId: f.promptIds[0],
          provider: 'perplexity',
          day,
          market: 'US-en',
          answer: { provider: 'perplexity', model: 'sonar', text, references: sent, raw: null, simulated: false },
          analysis: reordered,
        },
      ]),
    );
    const asSent = sent.map((r) => ({ title: r.title, link: r.link, snippet: r.snippet, reference_index: r.reference_index }));
    const before = await chats();
    expect(before).toHaveLength(2);
    for (const chat of before) expect(chat.references).toEqual(asSent);
    // the first reference is stored as its page's place, not its link
    const stored = (await bodies()).map((b) => storedReferences(b.body));
    expect(stored[0][0]).toEqual({ c: 0, snippet: 'Snippet 1' });
    expect(stored[1][0]).toEqual({ c: 3, snippet: 'Snippet 1' });
    expect(stored[0][2]).toEqual(unnumbered(sent[2]));
    expect(stored[0][4]).toEqual(unnumbered(sent[4]));

    // a competitor on a cited domain changes that page's category: a new page row
    const added = await f.api.post(`/projects/${f.projectId}/competitors`, { competitors: [{ name: 'Other', website: 'https://otherpage.com' }] });
    expect(added.statusCode, added.body).toBe(200);
    const chatgptBody = (await bodies())[0].body;
    expect(await reanalyseProject(t.runtime.ctx, f.projectId)).toBe(2);
    const after = await bodies();
    expect(Buffer.from(after[0].body).equals(Buffer.from(chatgptBody))).toBe(true); // its citations did not change
    expect(storedReferences(after[1].body)[0]).toEqual({ c: 0, snippet: 'Snippet 1' });
    for (const chat of await chats()) expect(chat.references).toEqual(asSent);
    // no page is left that no answer cites, and every cited id is a page
    const orphans = await t.runtime.ctx.store.query(
      `select id from cited_pages where project_id = $1 and id not in (select unnest(cited) from responses where project_id = $1)`,
      [f.projectId],
    );
    expect(orphans.rows).toEqual([]);
    const missing = await t.runtime.ctx.store.query(
      `select k from responses r cross join unnest(r.cited) k where r.project_id = $1 and not exists (select 1 from cited_pages p where p.id = k)`,
      [f.projectId],
    );
    expect(missing.rows).toEqual([]);
    const categories = await t.runtime.ctx.store.query<{ url: string; category: number }>(`select url, category from cited_pages where project_id = $1 and url like 'https://otherpage.com%'`, [f.projectId]);
    expect(categories.rows).toHaveLength(1);
    await expectConsistentRollups(t.runtime.ctx.store, f.projectId);
  });
});
