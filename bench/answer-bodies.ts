import { performance } from 'node:perf_hooks';
import { packText } from '../src/lib/packed-json.js';
import { answerBody, decodeSearchQueries, decodeShownAnswer, encodeAnswerBody } from '../src/modules/answers/answer-body.js';
import { simulateAnswer } from '../src/ports/providers/simulated.js';
import type { ProviderName } from '../src/ports/providers/types.js';
import { recording } from '../test/fixtures/providers/index.js';
import { describeMachine, fmt, machineInfo, revision, table, updateReadmeSection, type Suite } from './lib/index.js';

// Reading stored answers with real provider bodies: a page of chats (50 answers) decoded as
// the chats endpoint decodes it, and the searches of the same answers as the prompt's
// search-queries read takes them, in the body's layout (answer-body.ts: searches, shown
// answer, raw body, one line each) beside the layout before it (one JSON array, the raw body
// parsed with the rest), measured in the same run. The raw bodies are the recorded real ones
// of test/fixtures/providers; the answers' texts and references are the simulated engines'.

const RAW: Array<[ProviderName, string]> = [
  ['chatgpt', 'chatgpt/openai-web-search-tool.1.json'],
  ['claude', 'claude/anthropic-web-search-tool.1.json'],
  ['gemini', 'gemini/google-search-docs-example.json'],
  ['grok', 'grok/xai-web-search-tool.1.json'],
  ['perplexity', 'perplexity/perplexity-citations.json'],
  ['google_ai_overview', 'google_ai_overview/serpapi-tutorials-google-coffee.json'],
  ['chatgpt_ui', 'chatgpt_ui/oxylabs-chatgpt-scraper-output.json'],
];
const PAGE = 50;
const ROUNDS = 15;
const REPEAT = 20;

/** Median over ROUNDS of the time of one call of `read`, each round REPEAT calls, the two layouts alternated. */
function median(times: number[]): number {
  const sorted = [...times].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

export const answerBodiesSuite: Suite = {
  name: 'answer-bodies',
  description: 'a page of chats and their searches decoded from bodies with real provider responses',
  async run() {
    const machine = machineInfo();
    const context = { brand: { name: 'Acme CRM', domain: 'acmecrm.com', aliases: ['Acme'] }, competitors: [{ name: 'HubSpot', domain: 'hubspot.com' }, { name: 'Zoho CRM', domain: 'zoho.com' }] };
    const rows: (string | number)[][] = [];
    for (const [provider, file] of RAW) {
      const raw = recording(file);
      const answers = Array.from({ length: PAGE }, (_, i) => simulateAnswer('chatgpt', { prompt: `What is the best CRM for team ${i}?`, day: '2026-05-01', country: 'US', language: 'en', context }));
      const before = answers.map((a) => packText(JSON.stringify([a.text, a.references, raw])));
      const after = answers.map((a) => encodeAnswerBody(answerBody(provider, { text: a.text, references: a.references, raw })));
      const time = (read: () => void): number => {
        const started = performance.now();
        for (let k = 0; k < REPEAT; k++) read();
        return (performance.now() - started) / REPEAT;
      };
      const shown = { before: [] as number[], after: [] as number[] };
      const searches = { before: [] as number[], after: [] as number[] };
      for (let round = 0; round < ROUNDS; round++) {
        shown.before.push(time(() => before.map((b) => decodeShownAnswer(b, [], provider))));
        shown.after.push(time(() => after.map((b) => decodeShownAnswer(b, [], provider))));
        searches.before.push(time(() => before.map((b) => decodeSearchQueries(b, provider))));
        searches.after.push(time(() => after.map((b) => decodeSearchQueries(b, provider))));
      }
      const bytes = (bodies: Buffer[]) => fmt.int(bodies.reduce((sum, b) => sum + b.length, 0) / bodies.length);
      const [s0, s1, q0, q1] = [median(shown.before), median(shown.after), median(searches.before), median(searches.after)];
      rows.push([
        `${provider} (${file.split('/')[1]})`,
        fmt.int(JSON.stringify(raw).length),
        `${bytes(before)} / ${bytes(after)}`,
        `${fmt.ms(s0)} / ${fmt.ms(s1)}`,
        `${(s0 / s1).toFixed(1)}×`,
        `${fmt.ms(q0)} / ${fmt.ms(q1)}`,
        `${(q0 / q1).toFixed(1)}×`,
      ]);
    }
    const report = [
      '## Reading stored answers with real provider bodies (`npm run bench -- answer-bodies`)',
      '',
      `${describeMachine(machine)}; ${revision()}.`,
      '',
      `A page of ${PAGE} chats decoded as the chats endpoint decodes it (text, references, searches), and the searches alone as the prompt's search-queries read takes them, from bodies holding each recorded real provider response (test/fixtures/providers) beside a simulated answer: the body's layout (searches, then text and references, then the raw body, a line each) against the layout before it (one JSON array whose raw body is parsed with the rest), alternated, median of ${ROUNDS} rounds of ${REPEAT} pages. Cells are before / after.`,
      '',
      table(['raw body of', 'raw JSON (bytes)', 'stored body (bytes)', 'a page of chats', 'faster', 'its searches', 'faster'], rows),
    ].join('\n');
    console.log(report);
    updateReadmeSection('answer-bodies', report);
  },
};
