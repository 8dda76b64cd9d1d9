// The stored body's layout (answer-body.ts): the searches, the answer as shown, the provider's
// raw body, one line each, so a reader parses only what it shows.
import { describe, expect, it } from 'vitest';
import { recording } from '../../../test/fixtures/providers/index.js';
import { PLAIN, packText } from '../../lib/packed-json.js';
import { searchQueriesOf } from '../../ports/providers/search-queries.js';
import type { Reference } from '../../ports/providers/types.js';
import { answerBody, decodeAnswerBody, decodeAnswerText, decodeSearchQueries, decodeShownAnswer, encodeAnswerBodies, encodeAnswerBody } from './answer-body.js';

// a real ChatGPT (Responses API) body: its web_search_call items name the searches
const openaiRaw = recording('chatgpt/openai-web-search-tool.1.json');
const references: Reference[] = [{ title: 'A page', link: 'https://a.example/page', snippet: 'Line one\nline two', reference_index: 1 }];
const text = 'First line.\n\n- an item with "quotes" and a \\ backslash\n- ünïcödé 😀';

describe('the body of an answer', () => {
  it('keeps the searches the engine ran, read once from its raw body when stored', () => {
    const body = answerBody('chatgpt', { text, references, raw: openaiRaw });
    expect(body.searchQueries.length).toBeGreaterThan(0);
    expect(body.searchQueries).toEqual(searchQueriesOf('chatgpt', openaiRaw));
    const bytes = encodeAnswerBody(body);
    expect(decodeAnswerBody(bytes, [], 'chatgpt')).toEqual(body);
    expect(decodeShownAnswer(bytes, [], 'chatgpt')).toEqual({ text, references, searchQueries: body.searchQueries });
    expect(decodeAnswerText(bytes, [])).toEqual({ text, references });
    expect(decodeSearchQueries(bytes, 'chatgpt')).toEqual(body.searchQueries);
  });

  it('is the same bytes one at a time and in a batch packed on a worker thread', async () => {
    const bodies = Array.from({ length: 40 }, (_, i) => ({ ...answerBody('chatgpt', { text: `${text} ${i}`, references, raw: openaiRaw }), pages: [] }));
    const batch = await encodeAnswerBodies(bodies);
    for (const [i, bytes] of batch.entries()) expect(bytes.equals(encodeAnswerBody(bodies[i]))).toBe(true);
  });

  it('is shown, and its searches read, without parsing the raw body', () => {
    // a raw body that is no JSON at all: only the full read parses it
    const bytes = packText(`["one search"]\n${JSON.stringify([text, references])}\n{"not json`);
    expect(decodeShownAnswer(bytes, [], 'chatgpt')).toEqual({ text, references, searchQueries: ['one search'] });
    expect(decodeSearchQueries(bytes, 'chatgpt')).toEqual(['one search']);
    expect(() => decodeAnswerBody(bytes, [], 'chatgpt')).toThrow(SyntaxError);
  });

  it('reads a body stored before the searches were kept apart, its searches from its raw body', () => {
    const searches = searchQueriesOf('chatgpt', openaiRaw);
    for (const bytes of [packText(JSON.stringify([text, references, openaiRaw])), Buffer.concat([Buffer.from([PLAIN]), Buffer.from(JSON.stringify([text, references, openaiRaw]))])]) {
      expect(decodeAnswerBody(bytes, [], 'chatgpt')).toEqual({ text, references, searchQueries: searches, raw: openaiRaw });
      expect(decodeShownAnswer(bytes, [], 'chatgpt')).toEqual({ text, references, searchQueries: searches });
      expect(decodeSearchQueries(bytes, 'chatgpt')).toEqual(searches);
      // an engine that reports no searches: none
      expect(decodeSearchQueries(bytes, 'claude')).toEqual([]);
    }
  });
});
