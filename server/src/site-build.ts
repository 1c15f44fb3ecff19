import { spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

const sourceEntries = [
  'docs',
  'src',
  'static',
  'plugins',
  'docusaurus.config.ts',
  'sidebars.ts',
  'site.config.ts',
  'tags.yml',
  'package.json',
];

function newestModification(entry: string): number {
  if (!existsSync(entry)) return 0;
  const stats = statSync(entry);
  if (!stats.isDirectory()) return stats.mtimeMs;
  return readdirSync(entry).reduce(
    (newest, child) => Math.max(newest, newestModification(path.join(entry, child))),
    stats.mtimeMs,
  );
}

/** True when the build is missing or any site source changed after it was made. */
export function isSiteBuildStale(siteDirectory: string): boolean {
  const builtAt = existsSync(path.join(siteDirectory, '404.html'))
    ? statSync(path.join(siteDirectory, '404.html')).mtimeMs
    : 0;
  const sourceDirectory = path.dirname(siteDirectory);
  const newestSource = Math.max(...sourceEntries.map((entry) => newestModification(path.join(sourceDirectory, entry))));
  return builtAt === 0 || newestSource > builtAt;
}

/**
 * Builds the site before the server starts when the build is missing or stale. Only for a build directory that sits
 * in a Docusaurus project (the default site/build); a SITE_DIR elsewhere must already hold a build.
 */
export async function ensureSiteBuilt(siteDirectory: string): Promise<void> {
  const sourceDirectory = path.dirname(siteDirectory);
  if (path.basename(siteDirectory) !== 'build' || !existsSync(path.join(sourceDirectory, 'docusaurus.config.ts')))
    return;
  if (!isSiteBuildStale(siteDirectory)) return;
  console.log(`Building the site into ${siteDirectory} (missing or older than its sources)...`);
  await new Promise<void>((resolve, reject) => {
    const build = spawn('npm', ['run', 'build'], {
      cwd: sourceDirectory,
      stdio: 'inherit',
    });
    build.on('error', reject);
    build.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`The site build failed (exit ${code}).`))));
  });
}
