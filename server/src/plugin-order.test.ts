import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { copilotRoutes } from './copilot/routes.js';
import { limitsPlugin } from './limits/limits-plugin.js';
import { searchIndexPlugin } from './search/search-index-plugin.js';

describe('the order of the plugins, as Fastify checks it', () => {
  it('refuses a shared part registered before the decorations it reads', async () => {
    await expect(Fastify().register(searchIndexPlugin)).rejects.toThrow(
      "The decorator 'site' required by 'search-index' is not present in Fastify",
    );
  });

  it('refuses a shared part whose plugins have not run, even with their decorations in place', async () => {
    const app = Fastify();
    app.decorate('config', {} as never);
    app.decorate('store', {} as never);
    await expect(app.register(limitsPlugin)).rejects.toThrow(
      "The dependency 'store' of plugin 'limits' is not registered",
    );
  });

  it('refuses routes whose decorations are missing, naming the first', async () => {
    const app = Fastify();
    app.decorate('config', {} as never);
    await expect(app.register(copilotRoutes)).rejects.toThrow("The decorator 'store' required by 'copilot'");
  });
});
