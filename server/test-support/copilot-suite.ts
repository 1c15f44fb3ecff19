import { afterAll, beforeAll, beforeEach } from 'vitest';
import { inMemoryDataDirectory, openStore, type Store } from '../src/store/database.js';
import { questions, threads } from '../src/store/schema.js';
import { startCopilotApi } from './copilot-api.js';
import { type FakeModelServer, startFakeModelServer } from './fake-model-server.js';

export type CopilotApi = Awaited<ReturnType<typeof startCopilotApi>>;
export type CopilotSuite = { store: Store; model: FakeModelServer; docsOnly: CopilotApi; withModel: CopilotApi };

/**
 * For a describe block: Dev Copilot's API twice over one in-memory store, answering from the docs alone and with a
 * local model stand-in; every chat and the questions log are emptied before each test. Read the fields in tests.
 */
export function copilotSuite(): CopilotSuite {
  const suite = {} as CopilotSuite;
  beforeAll(async () => {
    suite.store = await openStore({ dataDirectory: inMemoryDataDirectory });
    suite.model = await startFakeModelServer();
    suite.docsOnly = await startCopilotApi(suite.store);
    suite.withModel = await startCopilotApi(suite.store, { modelUrl: suite.model.url });
  });
  afterAll(async () => {
    await suite.docsOnly?.close();
    await suite.withModel?.close();
    await suite.model?.close();
    await suite.store?.close();
  });
  beforeEach(async () => {
    suite.model.reset();
    await suite.store.db.delete(threads);
    await suite.store.db.delete(questions);
  });
  return suite;
}
