import type { Reporter, TestModule } from 'vitest/node';

/**
 * Ends the run with the ten slowest files (to keep `npm test` within its time) and one plain
 * "N passed, N failed" line, which CI reads as the verdict.
 */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>) {
    const counts = { passed: 0, failed: 0, skipped: 0 };
    for (const testModule of testModules) {
      for (const testCase of testModule.children.allTests()) {
        const state = testCase.result().state;
        if (state === 'passed') counts.passed++;
        else if (state === 'failed') counts.failed++;
        else counts.skipped++;
      }
    }
    const slowest = testModules
      .map((testModule) => ({ file: testModule.relativeModuleId, ms: testModule.diagnostic().duration }))
      .sort((a, b) => b.ms - a.ms)
      .slice(0, 10);
    console.log('\nSlowest test files:');
    for (const { file, ms } of slowest) console.log(`  ${(ms / 1000).toFixed(1).padStart(6)} s  ${file}`);
    console.log(`\n${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped`);
  }
}
