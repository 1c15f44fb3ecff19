import { buildApp } from './app.js';
import { loadConfig } from './config.js';
import { ensureSiteBuilt } from './site-build.js';

const config = loadConfig();
await ensureSiteBuilt(config.siteDirectory);
const app = await buildApp(config);
await app.listen({ host: config.host, port: config.port });
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    app.log.info({ signal }, 'shutting down');
    void app.close().then(() => process.exit(0));
  });
}
