import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BUNDLED_RANGES } from './ranges-bundled.js';
import { currentRanges } from './ranges.js';

// The operators' published ranges: the bundled copies, and the files an operator drops into
// CRAWLER_RANGES_DIR (same names and format as published) to refresh them without a release.
const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

function rangesDir(files: Record<string, { creationTime: string; prefixes: string[] }>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sightline-ranges-'));
  dirs.push(dir);
  for (const [name, doc] of Object.entries(files)) {
    const body = { creationTime: doc.creationTime, prefixes: doc.prefixes.map((p) => (p.includes(':') ? { ipv6Prefix: p } : { ipv4Prefix: p })) };
    fs.writeFileSync(path.join(dir, name), JSON.stringify(body));
  }
  return dir;
}

const perplexityBot = BUNDLED_RANGES.PerplexityBot;

describe('published address ranges', () => {
  it('verifies an address in the bundled ranges only for its own agent', () => {
    const ranges = currentRanges();
    expect(ranges.verify('GPTBot', '20.171.207.12')).toBe(true);
    expect(ranges.verify('GPTBot', '203.0.113.9')).toBe(false);
    expect(ranges.verify('PerplexityBot', '20.171.207.12')).toBe(false);
    expect(ranges.verify('PerplexityBot', '18.97.9.100')).toBe(true);
    expect(ranges.verify('ClaudeBot', '20.171.207.12')).toBe(false);
  });

  it("takes an operator's file republished under the bundled creationTime, with more prefixes", () => {
    // Perplexity's live perplexitybot.json keeps the creationTime of the bundled copy and
    // lists more prefixes than it: the operator's copy must win a tie.
    const dir = rangesDir({
      'perplexitybot.json': { creationTime: `${perplexityBot.published.slice(0, 19)}.000000`, prefixes: [...perplexityBot.prefixes, '198.51.100.0/29'] },
    });
    expect(currentRanges().verify('PerplexityBot', '198.51.100.3')).toBe(false);
    const ranges = currentRanges(dir);
    expect(ranges.verify('PerplexityBot', '198.51.100.3')).toBe(true);
    expect(ranges.verify('PerplexityBot', '18.97.9.100')).toBe(true);
    expect(ranges.sources.PerplexityBot.prefixes).toBe(perplexityBot.prefixes.length + 1);
  });

  it("keeps the bundled copy when the operator's file is older", () => {
    const dir = rangesDir({ 'perplexitybot.json': { creationTime: '2024-01-01T00:00:00.000000', prefixes: ['198.51.100.0/29'] } });
    const ranges = currentRanges(dir);
    expect(ranges.verify('PerplexityBot', '198.51.100.3')).toBe(false);
    expect(ranges.sources.PerplexityBot.published).toBe(perplexityBot.published);
  });

  it('verifies Perplexity-User from its published file, which is not bundled', () => {
    expect(currentRanges().verify('Perplexity-User', '192.0.2.10')).toBe(false);
    const dir = rangesDir({ 'perplexity-user.json': { creationTime: '2025-10-17T00:00:00.000000', prefixes: ['192.0.2.8/29'] } });
    const ranges = currentRanges(dir);
    expect(ranges.verify('Perplexity-User', '192.0.2.10')).toBe(true);
    expect(ranges.verify('Perplexity-User', '192.0.2.20')).toBe(false);
    expect(ranges.sources['Perplexity-User']).toEqual({ source: 'https://www.perplexity.ai/perplexity-user.json', published: '2025-10-17T00:00:00Z', prefixes: 1 });
  });

  it('reads the folder again when a file in it changes', () => {
    const dir = rangesDir({ 'perplexity-user.json': { creationTime: '2025-10-17T00:00:00.000000', prefixes: ['192.0.2.8/29'] } });
    expect(currentRanges(dir).verify('Perplexity-User', '192.0.2.40')).toBe(false);
    const file = path.join(dir, 'perplexity-user.json');
    fs.writeFileSync(file, JSON.stringify({ creationTime: '2025-11-01T00:00:00.000000', prefixes: [{ ipv4Prefix: '192.0.2.32/28' }] }));
    const later = new Date(Date.now() + 5_000);
    fs.utimesSync(file, later, later);
    expect(currentRanges(dir).verify('Perplexity-User', '192.0.2.40')).toBe(true);
  });
});
