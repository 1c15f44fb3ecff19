/** Debian's nginx run as a plain process over a site build: the yardstick bench/serving.ts measures us against. */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export const nginxBinary = '/usr/sbin/nginx';

export type Nginx = { url: string; stop(): Promise<void> };

function configuration(directory: string, port: number, root: string): string {
  return `daemon off;
worker_processes 1;
pid ${directory}/nginx.pid;
error_log ${directory}/error.log;
events {}
http {
  include /etc/nginx/mime.types;
  gzip_static on;
  access_log ${directory}/access.log;
  server {
    listen 127.0.0.1:${port};
    root ${JSON.stringify(root)};
    location / { try_files $uri $uri/index.html =404; }
  }
}
`;
}

async function answers(url: string): Promise<boolean> {
  try {
    await (await fetch(url)).arrayBuffer();
    return true;
  } catch {
    return false;
  }
}

/**
 * Starts nginx with a generated configuration in `directory` (`nginx -c <conf> -p <directory>`) and waits until it
 * answers; resolves with why not instead when it cannot start (it needs root here, for its worker's user).
 */
export async function startNginx(directory: string, port: number, root: string): Promise<Nginx | { problem: string }> {
  if (!existsSync(nginxBinary)) return { problem: 'nginx not installed: apt-get install nginx' };
  mkdirSync(directory, { recursive: true });
  const configFile = path.join(directory, 'nginx.conf');
  writeFileSync(configFile, configuration(directory, port, root));
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
