/** Debian's nginx run as a plain process on a configuration written to `directory/nginx.conf` (tests and bench). */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export const nginxBinary = '/usr/sbin/nginx';

export type Nginx = { url: string; stop(): Promise<void> };

async function answers(url: string): Promise<boolean> {
  try {
    // Not followed: a redirect to HTTPS elsewhere is an answer.
    await (await fetch(url, { redirect: 'manual' })).arrayBuffer();
    return true;
  } catch {
    return false;
  }
}

/**
 * Writes `directory/nginx.conf` (one worker in the foreground, its pid, logs and temporary files in `directory`, then
 * `http` inside the http block), starts `nginx -c <that file> -p <directory>` and waits until it answers on `port`;
 * resolves with why not instead when it is missing or cannot start (it needs root here, for its worker's user).
 */
export async function runNginx(directory: string, port: number, http: string): Promise<Nginx | { problem: string }> {
  if (!existsSync(nginxBinary)) return { problem: 'nginx not installed: apt-get install nginx' };
  // Writable by nginx's worker, which runs as another user.
  for (const temporary of ['body', 'proxy'])
    mkdirSync(path.join(directory, temporary), { recursive: true, mode: 0o777 });
  const configFile = path.join(directory, 'nginx.conf');
  writeFileSync(
    configFile,
    `daemon off;
worker_processes 1;
pid ${directory}/nginx.pid;
error_log ${directory}/error.log;
events {}
http {
  include /etc/nginx/mime.types;
  access_log ${directory}/access.log;
  client_body_temp_path ${directory}/body;
  proxy_temp_path ${directory}/proxy;
${http}
}
`,
  );
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
