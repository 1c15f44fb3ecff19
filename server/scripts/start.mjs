/**
 * `npm start`: compiles the server when dist/ is missing or older than its sources (a fresh clone, a pull), then runs
 * the compiled server in this same process, so signals reach it directly. Production images run dist/start.js itself.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const serverDirectory = fileURLToPath(new URL('..', import.meta.url));
const compiled = path.join(serverDirectory, 'dist', 'start.js');
const sources = [
  path.join(serverDirectory, 'src'),
  path.join(serverDirectory, 'package.json'),
  path.join(serverDirectory, '..', 'packages', 'contract', 'src'),
];

function newestModification(entry) {
  if (!existsSync(entry)) return 0;
  const stats = statSync(entry);
  if (!stats.isDirectory()) return stats.mtimeMs;
  return readdirSync(entry).reduce(
    (newest, child) => Math.max(newest, newestModification(path.join(entry, child))),
    stats.mtimeMs,
  );
}

const compiledAt = existsSync(compiled) ? statSync(compiled).mtimeMs : 0;
if (compiledAt === 0 || Math.max(...sources.map(newestModification)) > compiledAt) {
  console.log('Compiling the server (missing or older than its sources)...');
  const { buildServer } = await import('./build.mjs');
  await buildServer();
}
await import(compiled);
