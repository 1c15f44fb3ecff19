/**
 * Runs drizzle-kit for the server: `npm run db:generate -w server -- --name <change>`.
 *
 * npm hoists drizzle-kit to the repository's node_modules while drizzle-orm stays in server/node_modules, so
 * drizzle-kit cannot find drizzle-orm ("Please install latest version of drizzle-orm"). It loads drizzle-orm both
 * with require() and with import(): NODE_PATH answers the first, the hook in drizzle-kit-hooks.mjs the second.
 */
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const serverDirectory = fileURLToPath(new URL('..', import.meta.url));
const drizzleKitPackage = createRequire(path.join(serverDirectory, 'package.json')).resolve('drizzle-kit');
const drizzleKitBin = path.join(path.dirname(drizzleKitPackage), 'bin.cjs');
const hooks = new URL('drizzle-kit-hooks.mjs', import.meta.url).href;
const registerHooks = `data:text/javascript,${encodeURIComponent(`import { register } from 'node:module'; register(${JSON.stringify(hooks)});`)}`;

const { status, error } = spawnSync(
  process.execPath,
  ['--import', registerHooks, drizzleKitBin, ...process.argv.slice(2)],
  {
    cwd: serverDirectory,
    stdio: 'inherit',
    env: {
      ...process.env,
      NODE_PATH: [path.join(serverDirectory, 'node_modules'), process.env.NODE_PATH]
        .filter(Boolean)
        .join(path.delimiter),
    },
  },
);
if (error) throw error;
process.exit(status ?? 1);
