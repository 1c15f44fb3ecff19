/**
 * The reference for the server's event-loop delay: a Node process that does nothing, measured as prom-client measures
 * the server's (perf_hooks' monitorEventLoopDelay, 10 ms resolution), run beside it at its priority. What it sees is
 * what this machine does to any process's thread under the same load (other threads and processes running, the
 * virtual machine's own pauses); the server's delay above it is the server's own.
 */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

const idleProcess = `
const { monitorEventLoopDelay } = require('node:perf_hooks');
const delay = monitorEventLoopDelay({ resolution: 10 });
delay.enable();
require('node:readline').createInterface({ input: process.stdin }).on('line', () => {
  process.stdout.write(String(delay.max / 1e6) + '\\n');
  delay.reset();
});
`;

/** Starts the idle process; `longestMs` gives its longest delay since last asked, as loopLagMaxMs does the server's. */
export function startLoopReference() {
  const child = spawn(process.execPath, ['-e', idleProcess], { stdio: ['pipe', 'pipe', 'inherit'] });
  // A reference that could not start or died gives no figure ("n/a"), never a failed bench.
  child.on('error', () => undefined);
  child.stdin.on('error', () => undefined);
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  return {
    async longestMs(): Promise<number> {
      if (child.exitCode !== null || child.signalCode !== null) return Number.NaN;
      child.stdin.write('\n');
      const line = await lines.next();
      return line.done ? Number.NaN : Number(line.value);
    },
    stop() {
      child.kill();
    },
  };
}
