import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // CI also keeps a machine-readable result, from which .ci/run prints one closing count line.
    reporters: process.env.CI ? ['default', 'json'] : ['default'],
    outputFile: { json: 'test-artifacts/vitest-results.json' },
  },
});
