import { configDefaults, defineConfig } from 'vitest/config';

/**
 * The layers below the store (src/lib, src/analysis, src/ports: the dependency rules keep
 * them from importing it) have tests that never open a store, so the PostgreSQL run
 * (TEST_STORE=postgres, scripts/test.mjs) leaves them to the embedded run.
 */
export const STORE_FREE_TESTS = ['src/lib/**', 'src/analysis/**', 'src/ports/**'];

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    exclude: process.env.TEST_STORE === 'postgres' ? [...configDefaults.exclude, ...STORE_FREE_TESTS] : configDefaults.exclude,
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    maxWorkers: 2,
    fileParallelism: true,
    isolate: false,
  },
});
