/**
 * Debian's nginx as the load balancer of compose.yaml, run as a process: the upstream block of
 * deploy/nginx/templates/default.conf.template with its instances replaced by local ports, and the proxy rules of
 * deploy/nginx/ included as they are. Plain HTTP: TLS is the one part of the deployed configuration left out.
 */
import { copyFileSync, cpSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { repositoryRoot } from './dockerfile';
import { runNginx } from './nginx-process';

const deployDirectory = path.join(repositoryRoot, 'deploy', 'nginx');

/** The template's upstream block, with its servers (`handbook-1:3000`, ...) replaced by these addresses in order. */
export function upstreamBlock(addresses: string[]): string {
  const template = readFileSync(path.join(deployDirectory, 'templates', 'default.conf.template'), 'utf8');
  const block = /upstream handbook \{[^}]*\}/.exec(template)?.[0];
  if (!block) throw new Error('deploy/nginx/templates/default.conf.template has no upstream handbook block');
  let next = 0;
  const replaced = block.replace(/server (\S+?)(?=[\s;])/g, () => {
    const address = addresses[next++];
    if (!address) throw new Error(`the template names more instances than the ${addresses.length} given`);
    return `server ${address}`;
  });
  if (next !== addresses.length) throw new Error(`the template names ${next} instances, not ${addresses.length}`);
  return replaced;
}

/** The files compose.yaml mounts into /etc/nginx, into `directory` (nginx's prefix in the tests). */
function copyDeployedRules(directory: string) {
  for (const file of ['handbook-proxy.conf', 'handbook-proxy-headers.conf', 'handbook-security-headers.conf']) {
    copyFileSync(path.join(deployDirectory, file), path.join(directory, file));
  }
  cpSync(path.join(deployDirectory, 'error-pages'), path.join(directory, 'error-pages'), { recursive: true });
}

/** What nginx's image replaces with SERVER_NAME from the environment (envsubst). */
// biome-ignore lint/suspicious/noTemplateCurlyInString: the template's placeholder, filled by nginx's image
const serverNamePlaceholder = '${SERVER_NAME}';

/**
 * The template's plain-HTTP server (the redirect to HTTPS) as nginx's image renders it for `serverName`, listening on
 * `port` here instead of 80.
 */
export async function startRedirectServer(options: { directory: string; port: number; serverName: string }) {
  const template = readFileSync(path.join(deployDirectory, 'templates', 'default.conf.template'), 'utf8');
  const rendered = /server \{\s*listen 80;[^}]*\}/
    .exec(template.replaceAll(serverNamePlaceholder, options.serverName))?.[0]
    ?.replace('listen 80;', `listen 127.0.0.1:${options.port};`);
  if (!rendered) throw new Error('deploy/nginx/templates/default.conf.template has no server listening on 80');
  mkdirSync(options.directory, { recursive: true });
  const nginx = await runNginx(options.directory, options.port, rendered);
  if ('problem' in nginx) throw new Error(nginx.problem);
  return nginx;
}

export type Balancer = { url: string; accessLog: string; stop(): Promise<void> };

/**
 * Starts nginx on `port` in front of `instances` (host:port). `extraLocations` go into the server block before the
 * deployed rules (the tests pin the development sign-in, which stands in for Google, to one instance).
 */
export async function startBalancer(options: {
  directory: string;
  port: number;
  instances: string[];
  extraLocations?: string;
}): Promise<Balancer> {
  const { directory, port } = options;
  mkdirSync(directory, { recursive: true });
  copyDeployedRules(directory);
  const nginx = await runNginx(
    directory,
    port,
    `  ${upstreamBlock(options.instances)}
  server {
    listen 127.0.0.1:${port};
    ${options.extraLocations ?? ''}
    include handbook-proxy.conf;
  }`,
  );
  if ('problem' in nginx) throw new Error(nginx.problem);
  return { ...nginx, accessLog: path.join(directory, 'access.log') };
}
