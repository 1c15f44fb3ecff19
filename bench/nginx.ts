/** Debian's nginx run as a plain process over a site build: the yardstick bench/serving.ts measures us against. */
import { mkdirSync } from 'node:fs';
import { type Nginx, runNginx } from '../e2e/nginx-process';

export type { Nginx };

/** Serves the build as Docusaurus links it: clean URLs, precompressed twins. */
function serverBlock(port: number, root: string): string {
  return `  gzip_static on;
  server {
    listen 127.0.0.1:${port};
    root ${JSON.stringify(root)};
    location / { try_files $uri $uri/index.html =404; }
  }`;
}

/**
 * Starts nginx with a generated configuration in `directory` (`nginx -c <conf> -p <directory>`) and waits until it
 * answers; resolves with why not instead when it cannot start (it needs root here, for its worker's user).
 */
export async function startNginx(directory: string, port: number, root: string): Promise<Nginx | { problem: string }> {
  mkdirSync(directory, { recursive: true });
  return runNginx(directory, port, serverBlock(port, root));
}
