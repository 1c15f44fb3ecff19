import type { Reporter, TestCase, TestModule } from 'vitest/node';

const minute = 60_000;
/** A file still running after this long is named, with the test it is in, once a minute. */
const slowFileAfter = 5 * minute;
/**
 * The whole run is ended, red, after this long. CI gives up at 90 minutes with only part of the output; ending
 * here first prints which files never finished, so a hang says where it is.
 */
const runLimit = Number(process.env.TEST_RUN_LIMIT_MINUTES ?? 70) * minute;

/** Names the test files that run too long, and ends a run that would outlast CI's limit. */
export default class HangWatchReporter implements Reporter {
  private readonly running = new Map<string, { since: number; test?: string }>();
  private readonly startedAt = Date.now();
  private timer?: NodeJS.Timeout;

  onTestRunStart() {
    this.timer = setInterval(() => this.look(), minute);
    this.timer.unref();
  }

  onTestModuleQueued(testModule: TestModule) {
    this.running.set(testModule.moduleId, { since: Date.now() });
  }

  onTestCaseReady(testCase: TestCase) {
    const entry = this.running.get(testCase.module.moduleId);
    if (entry) entry.test = testCase.fullName;
  }

  onTestModuleEnd(testModule: TestModule) {
    this.running.delete(testModule.moduleId);
  }

  onTestRunEnd() {
    clearInterval(this.timer);
  }

  private look() {
    const now = Date.now();
    const overLimit = now - this.startedAt > runLimit;
    for (const [file, { since, test }] of this.running) {
      if (!overLimit && now - since < slowFileAfter) continue;
      const minutes = ((now - since) / minute).toFixed(0);
      console.log(`Still running after ${minutes} min: ${relative(file)}${test ? ` (in "${test}")` : ''}`);
    }
    if (overLimit) {
      console.log(`\nThe run passed its ${runLimit / minute} minutes; ending it, red.`);
      process.exit(1);
    }
  }
}

function relative(file: string) {
  return file.startsWith(process.cwd()) ? file.slice(process.cwd().length + 1) : file;
}
