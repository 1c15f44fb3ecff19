import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it, onTestFinished } from 'vitest';
import { type Copy, readDockerfile, repositoryRoot, type Stage } from './dockerfile';
import { freePort } from './harness';

/**
 * The production image, assembled as the Dockerfile says and run as a plain process (no container engine here): its
 * dependencies stage installs the packages for real (npm ci from the lockfile), its final stage's COPY lines lay out
 * the image's directory, and its ENV, CMD and HEALTHCHECK are what start and check the server.
 */
const dockerfile = readDockerfile();
const workDirectory = mkdtempSync(path.join(tmpdir(), 'acme-image-'));
afterAll(() => rmSync(workDirectory, { recursive: true, force: true }));

const stageNamed = (name: string) => {
  const stage = dockerfile.stages.find((candidate) => candidate.name === name);
  if (!stage) throw new Error(`the Dockerfile has no stage named ${name}`);
  return stage;
};

/** COPY's rules for what we use: a directory's contents go to the destination, a file into a `dir/` destination. */
function copy(source: string, destination: string) {
  if (statSync(source).isDirectory()) return cpSync(source, destination, { recursive: true });
  const target = destination.endsWith('/') ? path.join(destination, path.basename(source)) : destination;
  mkdirSync(path.dirname(target), { recursive: true });
  cpSync(source, target);
}

/** The stages' own /app is the repository for `build` (it copies the whole context and runs `npm run build`). */
function sourceOf(item: Copy, stageRoots: Record<string, string>): string {
  if (item.from === undefined) return path.join(repositoryRoot, item.source);
  const root = stageRoots[item.from];
  if (!root) throw new Error(`COPY --from=${item.from}: no such stage here`);
  return path.join(root, path.relative(dockerfile.workingDirectory, item.source));
}

/** The stage and those it is built on, the first base first: their files and commands in the order they apply. */
function lineageOf(name: string): Stage[] {
  const stage = stageNamed(name);
  return stage.base ? [...lineageOf(stage.base), stage] : [stage];
}

function installDependencies(): string {
  const lineage = lineageOf('dependencies');
  const directory = path.join(workDirectory, 'dependencies');
  for (const item of lineage.flatMap((stage) => stage.copies)) {
    copy(sourceOf(item, {}), path.join(directory, item.destination));
  }
  for (const command of lineage.flatMap((stage) => stage.runs)) {
    execFileSync('sh', ['-c', command], { cwd: directory, stdio: 'pipe', timeout: 240_000 });
  }
  return directory;
}

function assembleImage(dependencies: string): string {
  const image = path.join(workDirectory, 'image');
  const final = dockerfile.stages.at(-1);
  for (const item of final?.copies ?? []) {
    // path.join keeps a trailing slash: `server/` stays a directory to copy into.
    copy(sourceOf(item, { dependencies, build: repositoryRoot }), path.join(image, item.destination));
  }
  return image;
}

/**
 * The build stage as the Dockerfile lays it out: its COPY lines (never the whole context), the packages installed
 * (linked from this checkout instead of a second `npm ci`, which the dependencies stage already runs for real), then
 * its commands. Returns the stage's directory and what its COPY lines took.
 */
function runBuildStage(): { directory: string; sources: string[] } {
  const lineage = lineageOf('build');
  const directory = path.join(workDirectory, 'build');
  const sources = lineage.flatMap((stage) => stage.copies).map((item) => item.source);
  for (const item of lineage.flatMap((stage) => stage.copies)) {
    copy(sourceOf(item, {}), path.join(directory, item.destination));
  }
  for (const workspace of ['.', 'site', 'server']) {
    const installed = path.join(repositoryRoot, workspace, 'node_modules');
    if (existsSync(installed)) symlinkSync(installed, path.join(directory, workspace, 'node_modules'));
  }
  // The site's and the server's whole build: minutes on a busy machine.
  for (const command of lineage.flatMap((stage) => stage.runs).filter((run) => !run.startsWith('npm ci'))) {
    execFileSync('sh', ['-c', command], { cwd: directory, stdio: 'pipe', timeout: 540_000 });
  }
  return { directory, sources };
}

describe('the build stage', () => {
  it('keepsSecretsOutOfTheBuild: builds from what it copies alone, never the context with .env or the TLS key', () => {
    for (const ignoreFile of ['.gitignore', '.dockerignore']) {
      const lines = readFileSync(path.join(repositoryRoot, ignoreFile), 'utf8').split('\n');
      expect(lines, ignoreFile).toEqual(
        expect.arrayContaining(['.env', expect.stringMatching(/^deploy\/nginx\/certs\/?$/)]),
      );
    }
    const ignoredByGit = spawnSync('git', ['check-ignore', '--no-index', '.env', 'deploy/nginx/certs/privkey.pem'], {
      cwd: repositoryRoot,
      encoding: 'utf8',
    });
    expect(ignoredByGit.stdout.trim().split('\n')).toEqual(['.env', 'deploy/nginx/certs/privkey.pem']);

    const { directory, sources } = runBuildStage();
    onTestFinished(() => {
      // The links first, so that removing the stage can never reach this checkout's packages.
      for (const workspace of ['.', 'site', 'server'])
        rmSync(path.join(directory, workspace, 'node_modules'), { force: true });
      rmSync(directory, { recursive: true, force: true });
    }, 300_000);
    // Nothing copied holds the secrets' places: not the context, not deploy/, not a directory above them.
    const takes = (source: string, secret: string) => {
      const root = path.posix.normalize(source).replace(/\/$/, '');
      return root === '.' || secret === root || secret.startsWith(`${root}/`);
    };
    for (const source of sources) {
      for (const secret of ['.env', 'deploy/nginx/certs/privkey.pem']) {
        expect(takes(source, secret), `${source} takes ${secret}`).toBe(false);
      }
    }
    expect(existsSync(path.join(directory, 'server', 'dist', 'start.js'))).toBe(true);
    expect(existsSync(path.join(directory, 'site', 'build', 'index.html'))).toBe(true);
    expect(existsSync(path.join(directory, 'site', 'build', 'prepared-search.bin'))).toBe(true);
  }, 600_000);
});

describe('the production image, run as processes', () => {
  it('holds production packages only, starts with its command as a non-root user would, and passes its health check', async () => {
    expect(dockerfile.user).toBe('node');
    expect(dockerfile.command[0]).toBe('node');
    const image = assembleImage(installDependencies());
    expect(existsSync(path.join(image, 'node_modules', 'fastify'))).toBe(true);
    for (const developmentOnly of ['vitest', '@docusaurus/core', 'drizzle-kit', 'autocannon', 'tsx', 'esbuild']) {
      expect(existsSync(path.join(image, 'node_modules', developmentOnly)), developmentOnly).toBe(false);
    }

    const port = await freePort();
    const dataDirectory = path.join(workDirectory, 'data');
    mkdirSync(dataDirectory);
    const environment = {
      PATH: process.env.PATH,
      ...dockerfile.environment,
      // As `docker run -e` would set them for one container on this machine.
      HOST: '127.0.0.1',
      PORT: String(port),
      DATA_DIR: dataDirectory,
      PUBLIC_URL: 'https://docs.acme.dev',
      OIDC_ISSUER: 'https://accounts.google.com',
      OIDC_CLIENT_ID: 'handbook.apps.googleusercontent.com',
      OIDC_CLIENT_SECRET: 'not-used-before-a-sign-in',
      SESSION_SECRET: 'a-secret-of-at-least-thirty-two-characters',
    };
    expect(dockerfile.environment.NODE_ENV).toBe('production');
    const server = spawn(process.execPath, dockerfile.command.slice(1), {
      cwd: image,
      env: environment,
      stdio: 'pipe',
    });
    let output = '';
    server.stdout.on('data', (chunk) => {
      output += chunk;
    });
    server.stderr.on('data', (chunk) => {
      output += chunk;
    });
    const exited = new Promise<number | null>((resolve) => server.once('exit', (code) => resolve(code)));
    try {
      const healthCheck = () =>
        spawnSync(process.execPath, dockerfile.healthCheck.slice(1), { env: environment, timeout: 10_000 }).status;
      let healthy = false;
      for (let attempt = 0; attempt < 300 && !healthy; attempt += 1) {
        healthy = healthCheck() === 0;
        if (!healthy) await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(healthy, output).toBe(true);
      const page = await fetch(`http://127.0.0.1:${port}/`, { headers: { accept: 'text/html' } });
      expect(page.status).toBe(401);
      expect(await page.text()).toContain('Sign in');
      // A new data directory is copied from the template the build made, not initdb'd.
      expect(existsSync(path.join(dataDirectory, 'pglite', 'PG_VERSION'))).toBe(true);
    } finally {
      server.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
  }, 300_000);
});
