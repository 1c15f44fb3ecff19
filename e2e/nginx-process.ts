/** Debian's nginx run as a plain process on a configuration written to `directory/nginx.conf` (tests and bench). */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

export const nginxBinary = '/usr/sbin/nginx';

export type Nginx = { url: string; stop(): Promise<void> };

async function answers(url: string): Promise<boolean> {
  try {
    await (await fetch(url)).arrayBuffer();
    return true;
  } catch {
    return false;
  }
}

/**
 * Starts `nginx -c <directory>/nginx.conf -p <directory>` and waits until it answers on `port`; resolves with why
 * not instead when it is missing or cannot start (it needs root here, for its worker's user).
 */
export async function runNginx(directory: string, port: number): Promise<Nginx | { problem: string }> {
  if (!existsSync(nginxBinary)) return { problem: 'nginx not installed: apt-get install nginx' };
  const configFile = path.join(directory, 'nginx.conf');
  const child = spawn(nginxBinary, ['-c', configFile, '-p', directory], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
  });
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
  const url = `http://127.0.0.1:${port}`;
  const startedAt = Date.now();
  while (!(await answers(`${url}/`))) {
    if (child.exitCode !== null || Date.now() - startedAt > 5000) {
      await stop();
      const errorLog = path.join(directory, 'error.log');
      const why = `${stderr}${existsSync(errorLog) ? readFileSync(errorLog, 'utf8') : ''}`.trim();
      return { problem: `nginx did not start: ${why || `exit code ${child.exitCode}`}` };
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return { url, stop };
}
