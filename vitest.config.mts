import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: [
      'server/src/**/*.test.ts',
      'site/plugins/**/*.test.ts',
      'site/tests/**/*.test.ts',
      'e2e/**/*.test.ts',
      'tests/**/*.test.ts',
    ],
    exclude: ['**/node_modules/**', '**/build/**'],
    globalSetup: ['./tests/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 120_000,
    // expect.poll gives up after 1 s by default: too short for a page reloaded on a busy 2-core machine to fetch its
    // data (CI once saw an empty conversation list 1 s after a reload). A poll that succeeds returns at once anyway.
    expect: { poll: { timeout: 5_000 } },
    // Two files at a time, as many as CI's cores: most files wait on servers, browsers and databases, not on a core.
    fileParallelism: true,
    maxWorkers: 2,
    reporters: ['default', './tests/summary-reporter.ts', './tests/hang-watch-reporter.ts'],
  },
});
