import { describe, expect, it } from 'vitest';
import { countTests, replaceFiles, unfinishedFiles, V8_WASM_CRASH } from '../scripts/test-report.mjs';

// The shape of vitest's JSON report (4.x) for a run whose worker died in a.test.ts: the
// test it was running and the one after stay `pending`; skipped tests are `skipped`.
const crashed = {
  numPassedTests: 6,
  testResults: [
    {
      name: '/repo/test/a.test.ts',
      status: 'passed',
      assertionResults: [{ status: 'passed' }, { status: 'pending' }, { status: 'pending' }, { status: 'skipped' }],
    },
    {
      name: '/repo/test/b.test.ts',
      status: 'passed',
      assertionResults: [{ status: 'passed' }, { status: 'passed' }, { status: 'todo' }],
    },
    { name: '/repo/test/c.test.ts', status: 'failed', message: 'did not load', assertionResults: [] },
  ],
};

describe('reading vitest reports (scripts/test-report.mjs)', () => {
  it('counts tests by how they ended; pending ones are neither passed nor skipped', () => {
    expect(countTests(crashed.testResults)).toEqual({ passed: 3, failed: 0, skipped: 2 });
    expect(countTests([{ name: 'x', assertionResults: [{ status: 'failed' }, { status: 'passed' }] }])).toEqual({
      passed: 1,
      failed: 1,
      skipped: 0,
    });
  });

  it('names the files a dead worker left unfinished, and only those', () => {
    expect(unfinishedFiles(crashed)).toEqual(['/repo/test/a.test.ts']);
    expect(unfinishedFiles({ testResults: crashed.testResults.slice(1) })).toEqual([]);
  });

  it("replaces those files' results with the second run's, keeping every other file", () => {
    const again = {
      testResults: [
        {
          name: '/repo/test/a.test.ts',
          status: 'passed',
          assertionResults: [{ status: 'passed' }, { status: 'passed' }, { status: 'failed' }, { status: 'skipped' }],
        },
      ],
    };
    const merged = replaceFiles(crashed, ['/repo/test/a.test.ts'], again);
    expect(merged.testResults?.map((f) => f.name).sort()).toEqual([
      '/repo/test/a.test.ts',
      '/repo/test/b.test.ts',
      '/repo/test/c.test.ts',
    ]);
    expect(unfinishedFiles(merged)).toEqual([]);
    expect(countTests(merged.testResults ?? [])).toEqual({ passed: 4, failed: 1, skipped: 2 });
  });

  it("recognises V8's CHECK as it prints it, and nothing else", () => {
    const printed = '\n#\n# Fatal error in , line 0\n# Check failed: jit_page_->allocations_.erase(addr) == 1.\n#\n';
    expect(V8_WASM_CRASH.test(printed)).toBe(true);
    expect(V8_WASM_CRASH.test('# Check failed: heap->allocations_.erase(addr) == 1.')).toBe(false);
    expect(V8_WASM_CRASH.test('FATAL ERROR: Reached heap limit Allocation failed')).toBe(false);
  });
});
