import v8 from 'node:v8';
import { buildApp } from './app.js';
import { loadConfig } from './config.js';

// Before any WebAssembly is compiled: V8's optimizing tier would compile the embedded database's hot functions a
// second time, about 60 MB more resident for a database that takes under 1 % of a request's time.
v8.setFlagsFromString('--liftoff-only');

const config = loadConfig();
const app = await buildApp(config);
await app.listen({ host: config.host, port: config.port });

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    app.log.info({ signal }, 'shutting down');
    void app.close().then(() => process.exit(0));
  });
}
