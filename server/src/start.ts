import v8 from 'node:v8';
import { buildApp } from './app.js';
import { loadConfig } from './config.js';
import { stopOnSignals } from './ops/shutdown.js';
import { privateUmask } from './store/private-files.js';

// Everything the server writes (DATA_DIR, PGlite's files as it makes them) is its own user's only.
process.umask(privateUmask);

// Before any WebAssembly is compiled: V8's optimizing tier would compile the embedded database's hot functions a
// second time, about 60 MB more resident for a database that takes under 1 % of a request's time. Node 24 takes the
// flag only on the command line (`npm start` and the image pass it): set here, it changes nothing there.
v8.setFlagsFromString('--liftoff-only');

let app: Awaited<ReturnType<typeof buildApp>> | undefined;
try {
  const config = loadConfig();
  app = await buildApp(config);
  await app.listen({ host: config.host, port: config.port });
  stopOnSignals(app, { drainMs: config.shutdownTimeoutMs });
} catch (error) {
  // One readable line (a bad setting, a data directory in use, a port taken), not a stack trace.
  console.error(`The server could not start: ${(error as Error).message}`);
  await app?.close().catch(() => {});
  process.exit(1);
}
