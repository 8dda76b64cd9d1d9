import { configDefaults, defineConfig } from 'vitest/config';

/**
 * The layers below the store (src/lib, src/analysis, src/ports: the dependency rules keep
 * them from importing it) have tests that never open a store, so the PostgreSQL run
 * (TEST_STORE=postgres, scripts/test.mjs) leaves them to the embedded run; so is the test
 * of the test script's report reading.
 */
export const STORE_FREE_TESTS = ['src/lib/**', 'src/analysis/**', 'src/ports/**', 'test/test-report.test.ts'];

/**
 * V8 (Node 24.21's) can abort a worker in the tier-up of a WebAssembly-to-JavaScript import
 * wrapper (Runtime_TierUpWasmToJSWrapper frees a wrapper from the shared cache and fails
 * `jit_page_->allocations_.erase(addr) == 1`). PGlite's imports take that path after 1,000
 * calls; a budget no worker spends keeps them on the generic wrapper (docs/testing.md).
 */
export const WORKER_EXEC_ARGV = ['--wasm-wrapper-tiering-budget=2000000000'];

export default defineConfig({
  test: {
    execArgv: WORKER_EXEC_ARGV,
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    exclude: process.env.TEST_STORE === 'postgres' ? [...configDefaults.exclude, ...STORE_FREE_TESTS] : configDefaults.exclude,
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 60_000,
    // expect.poll waits for what follows a redraw, a fetch or a job: a second (vitest's
    // default) is short on a loaded 2-core machine; a poll that fails still fails.
    expect: { poll: { timeout: 10_000 } },
    hookTimeout: 120_000,
    pool: 'forks',
    maxWorkers: 2,
    fileParallelism: true,
    isolate: false,
  },
});
