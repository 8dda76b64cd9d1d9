import { describe, expect, it } from 'vitest';
import { readArticle } from '../pages/extract.js';
import { fixtureHtml } from '../../../test/fixtures/page-fixtures.js';
import { createBuiltinWriter } from './builtin.js';
import { clearerWording, STAT_PLACEHOLDER } from './builtin-edits.js';
import { countWords } from './builtin-forum.js';
import type { ActionCategory, ArticleBrief, SuggestEditsInput } from './types.js';

const writer = createBuiltinWriter();
const brand = { name: 'Pipewise', domain: 'pipewise.example' };

describe('built-in writer: enrichAction', () => {
  it.each([
    ['new_content', 'publishable_content', 'major'],
    ['content_update', 'prompt', 'moderate'],
    ['forum_engagement', 'forum_reply', 'quick-win'],
    ['on_page_seo', 'manual', 'quick-win'],
  ] as const)('%s gets execution type %s', async (category, execution, effort) => {
    const out = await writer.enrichAction({ brand, action_type: category as ActionCategory, target_url: 'https://pipewise.example/blog/crm', keywords: ['crm for startups'] });
    expect(out.execution.type).toBe(execution);
    expect(out.effort).toBe(effort);
    expect(out.title.length).toBeGreaterThan(10);
    expect(out.description.length).toBeGreaterThan(20);
    expect(out.targets).toContainEqual({ type: 'url', value: 'https://pipewise.example/blog/crm' });
    expect(out.targets).toContainEqual({ type: 'keyword', value: 'crm for startups' });
    expect(out.expected_impact_min).toBeGreaterThan(0);
    expect(out.expected_impact_max!).toBeGreaterThanOrEqual(out.expected_impact_min!);
    expect(out.execution.params).toMatchObject({ target_url: 'https://pipewise.example/blog/crm', keywords: ['crm for startups'] });
    if (execution === 'manual') expect(out.execution.prompt).toBeNull();
    else expect(out.execution.prompt).toContain('Pipewise');
  });

  it('keeps a given title and description, adds instructions, and is deterministic', async () => {
    const input = { brand, action_type: 'new_content' as const, title: 'Write the CRM buyer guide', description: 'A guide for small teams.', instructions: 'Mention the free plan.' };
    const a = await writer.enrichAction(input);
    expect(a.title).toBe('Write the CRM buyer guide');
    expect(a.description).toContain('A guide for small teams.');
    expect(a.description).toContain('Mention the free plan.');
    expect(a.targets).toContainEqual({ type: 'page_type', value: 'article' });
    expect(await writer.enrichAction(input)).toEqual(a);
  });

  it('words the action from facts when nothing else is given', async () => {
    const out = await writer.enrichAction({ brand, action_type: 'new_content', facts: { prompts: ['What is the best CRM for startups?'] } });
    expect(out.title).toContain('What is the best CRM for startups?');
  });
});

describe('built-in writer: wordRecommendation', () => {
  it('grounds the wording in the facts (prompts, competitors, figures)', async () => {
    const out = await writer.wordRecommendation({
      brand,
      category: 'new_content',
      facts: { prompts: ['What is the best CRM for startups?'], competitors: ['HubSpot', 'Salesforce'], brand_visibility: 12.5 },
    });
    expect(out.title).toContain('What is the best CRM for startups?');
    expect(out.description).toContain('HubSpot and Salesforce');
    expect(out.description).toContain('brand visibility: 12.5');
    expect(out.description).toContain('Pipewise');
  });

  it.each(['on_page_seo', 'content_update', 'forum_engagement', 'new_content'] as const)('%s without facts still reads well', async (category) => {
    const out = await writer.wordRecommendation({ brand, category, facts: {} });
    expect(out.title).toMatch(/Pipewise|forum|page/i);
    expect(out.description).not.toMatch(/undefined|null|\{|\}/);
  });

  it('names the thread of a forum recommendation', async () => {
    const out = await writer.wordRecommendation({ brand, category: 'forum_engagement', facts: { url: 'https://www.reddit.com/r/sales/comments/abc/best_crm/' } });
    expect(out.title).toContain('reddit.com/r/sales/comments/abc/best_crm');
    expect(out.description).toMatch(/disclos/i);
  });
});

describe('built-in writer: suggestEdits', () => {
  const article = readArticle(fixtureHtml('article'), 'https://pipewise.example/blog/choose-a-crm');
  const input: SuggestEditsInput = {
    brand,
    page: { url: 'https://pipewise.example/blog/choose-a-crm', title: article.title, paragraphs: article.paragraphs },
    prompts: ['Which running shoes are best for flat feet?', 'What is the best CRM for a small business?'],
    competitors: ['HubSpot', 'Salesforce', 'Pipewise'],
    keywords: ['sales forecasting'],
  };

  it('quotes real paragraphs in `before` and covers the GEO signals', async () => {
    const edits = await writer.suggestEdits(input);
    const signals = edits.map((e) => e.signal);
    expect(signals).toEqual(expect.arrayContaining(['cite_sources', 'add_statistics', 'add_quotations', 'fluency', 'answer_prompt', 'comparison']));
    for (const e of edits) {
      expect(e.reason.length).toBeGreaterThan(20);
      expect(e.section.length).toBeGreaterThan(0);
      if (e.type === 'replace') {
        expect(article.paragraphs).toContain(e.before);
        expect(e.after).not.toBe(e.before);
      }
      if (e.type === 'insert') expect(e.before).toBeNull();
    }
    // no two replace edits rewrite the same paragraph
    const befores = edits.filter((e) => e.type === 'replace').map((e) => e.before);
    expect(new Set(befores).size).toBe(befores.length);
  });

  it('never invents facts: statistics, sources and quotes are placeholders', async () => {
    const edits = await writer.suggestEdits(input);
    const stat = edits.find((e) => e.signal === 'add_statistics')!;
    expect(stat.after).toContain(STAT_PLACEHOLDER);
    expect(stat.after!.startsWith(stat.before!)).toBe(true);
    expect(edits.find((e) => e.signal === 'cite_sources')!.after).toMatch(/\[cite [^\]]+\]/);
    // the page's quote has no speaker: the edit asks for one
    const quote = edits.find((e) => e.signal === 'add_quotations')!;
    expect(quote.before).toContain('We switched because our old CRM did not sync email');
    expect(quote.after).toMatch(/\[name, role and company/);
    // figures in `after` text come from the page only
    const pageNumbers = new Set(article.text.match(/\d+/g));
    for (const e of edits) for (const n of e.after?.match(/\d+/g) ?? []) expect(pageNumbers.has(n)).toBe(true);
  });

  it('answers the project prompt that fits the page and compares with the named competitors', async () => {
    const edits = await writer.suggestEdits(input);
    const faq = edits.find((e) => e.signal === 'answer_prompt')!;
    expect(faq.after).toContain('What is the best CRM for a small business?');
    expect(faq.after).not.toContain('running shoes');
    const cmp = edits.find((e) => e.signal === 'comparison')!;
    expect(cmp.after).toContain('HubSpot');
    expect(cmp.after).toContain('Salesforce');
    expect(cmp.section).not.toMatch(/Pipewise compared with .*Pipewise/);
    expect(edits.find((e) => e.signal === 'keyword_coverage')?.after).toContain('sales forecasting');
  });

  it('rewrites a long sentence for fluency without changing its words', async () => {
    const edits = await writer.suggestEdits(input);
    const fluency = edits.find((e) => e.signal === 'fluency')!;
    expect(fluency.before).toContain('joins, and then deals begin');
    expect(fluency.after).toContain('joins. Then deals begin');
    expect(clearerWording('Prices rose 3.5 percent in 2024. All good.')).toBeNull();
    expect(clearerWording('In order to win, you need it.')).toBe('To win, you need it.');
  });

  it('is deterministic and copes with a page without text or competitors', async () => {
    expect(await writer.suggestEdits(input)).toEqual(await writer.suggestEdits(input));
    const empty = await writer.suggestEdits({ brand, page: { url: 'https://x.example/', title: null, paragraphs: [] }, prompts: ['What is a CRM?'], competitors: [] });
    expect(empty.map((e) => e.signal)).toEqual(['answer_prompt']);
    expect(empty[0].type).toBe('insert');
  });
});

describe('built-in writer: forumComment', () => {
  it('writes a helpful reply that discloses the affiliation and carries no link', async () => {
    const { comment } = await writer.forumComment({
      brand,
      thread: { url: 'https://www.reddit.com/r/sales/comments/abc/best_crm/', title: 'What is the best CRM for a 5-person agency? : r/sales' },
    });
    expect(comment).toContain('"What is the best CRM for a 5-person agency?"');
    expect(comment).toMatch(/disclosure: I work at Pipewise/i);
    expect(comment).not.toMatch(/https?:\/\//);
    expect(comment.match(/Pipewise/g)!.length).toBeLessThanOrEqual(3);
    expect(countWords(comment)).toBeGreaterThan(60);
    expect(countWords(comment)).toBeLessThan(250);
  });

  it('counts words', () => {
    expect(countWords("Full disclosure: I'm at Pipewise, 5-person team.")).toBe(7);
    expect(countWords('')).toBe(0);
  });
});

describe('built-in writer: article steps', () => {
  const brief: ArticleBrief = {
    brand,
    title: 'How to choose a CRM for a small agency',
    description: 'A guide for agencies picking their first CRM.',
    keywords: ['crm for agencies', 'pipeline tracking'],
  };

  it('outline → draft → final follow each other', async () => {
    const outline = await writer.writeOutline(brief);
    expect(outline).toMatch(/^# How to choose a CRM for a small agency$/m);
    const headings = outline.match(/^## .+$/gm)!;
    expect(headings).toEqual(expect.arrayContaining(['## The short answer', '## CRM for agencies', '## Pipeline tracking', '## Sources']));
    const draft = await writer.writeDraft({ ...brief, outline });
    expect(draft.match(/^## .+$/gm)).toEqual(headings);
    expect(draft).toContain(STAT_PLACEHOLDER);
    expect(draft).not.toMatch(/^- What .* means for the reader/m); // prose, not the outline's bullets
    const final = await writer.writeFinal({ ...brief, draft });
    expect(final.title).toBe('How to choose a CRM for a small agency');
    expect(final.content).toMatch(/^# How to choose a CRM/);
    expect(final.content).toContain('## Sources');
    expect(await writer.writeOutline(brief)).toBe(outline);
  });

  it('applies feedback and says how', async () => {
    const outline = await writer.writeOutline(brief);
    const revised = await writer.writeOutline({ ...brief, feedback: 'Add a section on pricing and remove the how to choose part.' });
    expect(revised).not.toBe(outline);
    expect(revised).toContain('## Pricing');
    expect(revised).not.toContain('## How to choose');
    expect(revised).toMatch(/_Revised for feedback: .*added a section on pricing.*_/);

    const draft = await writer.writeDraft({ ...brief, outline });
    const longer = await writer.writeDraft({ ...brief, outline, feedback: 'Too short, more detail please.' });
    expect(longer).toContain('## Common mistakes to avoid');
    expect(longer).toMatch(/Revised for feedback: "Too short, more detail please"/);
    expect(longer.length).toBeGreaterThan(draft.length);

    const vague = await writer.writeFinal({ ...brief, draft, feedback: 'Use a friendlier tone' });
    expect(vague.content).toMatch(/<!-- Revised for feedback: "Use a friendlier tone"/);
    // a later step drops the earlier step's note
    const final = await writer.writeFinal({ ...brief, draft: longer });
    expect(final.content).not.toContain('Revised for feedback');
    expect(final.content).toContain('## Common mistakes to avoid');
  });
});

describe('wordRecommendation for an outside source', () => {
  it('words an opportunity domain as getting cited there, not as the brand site', async () => {
    const { createBuiltinWriter } = await import('./builtin.js');
    const w = createBuiltinWriter();
    const brand = { name: 'Acme CRM', domain: 'acmecrm.com' };
    const outside = await w.wordRecommendation({ brand, category: 'on_page_seo', facts: { domain: 'g2.com' } });
    expect(outside.title).toBe('Get Acme CRM cited on g2.com');
    expect(outside.description).toMatch(/g2\.com/);
    const own = await w.wordRecommendation({ brand, category: 'on_page_seo', facts: { domain: 'acmecrm.com' } });
    expect(own.title).toBe("Improve on-page SEO of Acme CRM's site");
  });
});
