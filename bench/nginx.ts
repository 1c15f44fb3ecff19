/** Debian's nginx run as a plain process over a site build: the yardstick bench/serving.ts measures us against. */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { type Nginx, runNginx } from '../e2e/nginx-process';

export type { Nginx };

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

/**
 * Starts nginx with a generated configuration in `directory` (`nginx -c <conf> -p <directory>`) and waits until it
 * answers; resolves with why not instead when it cannot start (it needs root here, for its worker's user).
 */
export async function startNginx(directory: string, port: number, root: string): Promise<Nginx | { problem: string }> {
  mkdirSync(directory, { recursive: true });
  writeFileSync(path.join(directory, 'nginx.conf'), configuration(directory, port, root));
  return runNginx(directory, port);
}
