import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Two files at a time, also on the 2-core CI box (vitest's default there is one): most of a
    // file's time is waiting on servers, sockets and child processes, and one at a time the
    // suite took 14-15 min (822-899 s) where two take 8-11 (678 s with other work on the box).
    maxWorkers: 2,
    // Each worker process runs file after file instead of a new process per file: loading vitest
    // and the server's modules again for each of 230 files cost 270 s of the suite's time (588 s
    // wall on this machine; 434 s without). Nothing in src keeps module-level state (the
    // composition root builds everything), and every test that fakes timers restores them.
    isolate: false,
    // CI also keeps a machine-readable result, from which .ci/run prints one closing count line.
    reporters: process.env.CI ? ['default', 'json'] : ['default'],
    outputFile: { json: 'test-artifacts/vitest-results.json' },
  },
});
