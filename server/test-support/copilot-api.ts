import { type TurnDataParts, threadWithMessagesResponseSchema } from '@acme/contract';
import { parseJsonEventStream, type UIMessageChunk, uiMessageChunkSchema } from 'ai';
import { eq } from 'drizzle-orm';
import Fastify from 'fastify';
import { afterAll, beforeAll } from 'vitest';
import type { RequestAccess } from '../src/auth/request-access.js';
import { loadConfig } from '../src/config.js';
import { modelPlugin } from '../src/copilot/model/model-plugin.js';
import type { ImageTextReader } from '../src/copilot/ocr/image-text-reader.js';
import { copilotRoutes } from '../src/copilot/routes.js';
import { openLimits } from '../src/limits/limits.js';
import { createSearchEngine } from '../src/search/engine.js';
import { inMemoryDataDirectory, openStore, type Store } from '../src/store/database.js';
import { questions } from '../src/store/schema.js';
import { docSection } from './doc-sections.js';

export const publicOrigin = 'https://handbook.acme.example';
export const testIssuer = 'https://accounts.acme.example';

/**
 * Stands in for auth/request-access.ts: `x-test-user` signs in as that address, `x-test-not-allowed` denies it access. The
 * account is `x-test-subject` when given, else one of its own for each address as typed.
 */
export function accessFrom(headers: Record<string, string | string[] | undefined>): RequestAccess {
  const email = headers['x-test-user'];
  if (typeof email !== 'string') return { state: 'signed-out' };
  const now = new Date();
  return {
    state: 'signed-in',
    idHash: `hash-of-${email}`,
    session: {
      idHash: `hash-of-${email}`,
      issuer: testIssuer,
      subject: typeof headers['x-test-subject'] === 'string' ? headers['x-test-subject'] : `subject-of-${email}`,
      email,
      emailVerified: true,
      hostedDomain: 'acme.example',
      name: null,
      createdAt: now,
      lastSeenAt: now,
      expiresAt: new Date(now.getTime() + 3_600_000),
    },
    decision: headers['x-test-not-allowed']
      ? { allowed: false, reason: 'not-on-allow-list' }
      : { allowed: true, reason: 'domain' },
  };
}

/** A small handbook: enough for docs-only answers and for checking the links a model writes. */
export const handbookSections = [
  docSection('/deployment', 'Deployment', 'Rollback', 'Roll back a release with the rollback job in the pipeline.'),
  docSection('/deployment', 'Deployment', 'Release checklist', 'Tag the release, run the smoke tests, then deploy.'),
  docSection('/faqs', 'FAQs', 'Staging access', 'Ask the tech lead for staging access in #dev-help.'),
];

/** Where each provider's API lives under the local model stand-in, as under its real host. */
const apiRoots = { openai: '/v1', anthropic: '/v1', google: '/v1beta' } as const;

/** The model settings of a server that calls the local model stand-in at `modelUrl` in `provider`'s protocol. */
const modelEnvironment = (modelUrl: string, provider: keyof typeof apiRoots) => ({
  COPILOT_PROVIDER: provider,
  COPILOT_MODEL: 'test-model',
  COPILOT_API_KEY: 'test-key',
  COPILOT_BASE_URL: `${modelUrl}${apiRoots[provider]}`,
  COPILOT_TIMEOUT_SECONDS: '10',
  COPILOT_VISION: 'false',
  COPILOT_MAX_OUTPUT_TOKENS: '500',
});

/** Stands in for the OCR engine: it finds no text on any screenshot. */
const readsNoText: ImageTextReader = { read: async () => ({ text: '' }), close: async () => {} };

/**
 * Dev Copilot's API on a real port, with the gate replaced by `accessFrom`, the search by one over `handbookSections`
 * and OCR by `readsNoText`: docs-only, or answering with the model at `modelUrl` (the local model stand-in, spoken to
 * in `provider`'s protocol, OpenAI's by default). `environment` adds settings (ASK_REQUESTS_PER_MINUTE, say).
 */
export async function startCopilotApi(
  store: Store,
  options: { modelUrl?: string; provider?: keyof typeof apiRoots; environment?: Record<string, string> } = {},
) {
  const { modelUrl, provider = 'openai' } = options;
  const app = Fastify();
  app.decorate(
    'config',
    loadConfig({
      NODE_ENV: 'test',
      PUBLIC_URL: publicOrigin,
      // Never asked: `accessFrom` stands in for signing in.
      OIDC_ISSUER: testIssuer,
      OIDC_CLIENT_ID: 'handbook',
      OIDC_CLIENT_SECRET: 'test-secret',
      ...(modelUrl ? modelEnvironment(modelUrl, provider) : {}),
      ...options.environment,
    }),
  );
  app.decorate('metrics', undefined);
  app.decorate('store', store);
  // Counted in this process alone.
  app.decorate('limits', await openLimits({ log: app.log }));
  const engine = createSearchEngine(handbookSections);
  app.decorate('searchIndex', { current: () => engine, semantic: undefined, ready: async () => {} });
  app.decorate('imageText', readsNoText);
  app.decorateRequest('access', null as never);
  app.addHook('onRequest', async (request) => {
    request.access = accessFrom(request.headers);
  });
  await app.register(modelPlugin);
  await app.register(copilotRoutes);
  const baseUrl = await app.listen({ host: '127.0.0.1', port: 0 });

  /** Calls the API as `as` (signed out without it), from our own origin unless told otherwise. */
  function call(
    method: string,
    path: string,
    {
      as,
      body,
      origin = publicOrigin,
      signal,
    }: { as?: string; body?: unknown; origin?: string | null; signal?: AbortSignal } = {},
  ) {
    const headers: Record<string, string> = {};
    if (as) headers['x-test-user'] = as;
    if (origin) headers.origin = origin;
    if (body !== undefined) headers['content-type'] = 'application/json';
    return fetch(`${baseUrl}${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      signal,
    });
  }

  /** A new thread of `as`. */
  async function newThread(as: string) {
    const response = await call('POST', '/api/threads', { as, body: {} });
    if (response.status !== 201) throw new Error(`creating a thread answered ${response.status}`);
    return ((await response.json()) as { id: string }).id;
  }

  /** One turn as `as`, read to its end with the AI SDK's parser; fails unless it is streamed as a turn must be. */
  async function turn(body: Record<string, unknown>, as: string) {
    const response = await call('POST', '/api/turns', { as, body });
    if (response.status !== 200) throw new Error(`a turn answered ${response.status}: ${await response.text()}`);
    if (!response.headers.get('content-type')?.includes('text/event-stream')) throw new Error('a turn must stream');
    if (response.headers.get('cache-control') !== 'no-store') throw new Error('a turn must not be cached');
    return readChunks(response);
  }

  /** The thread as its reader `as` reads it back. */
  async function stored(threadId: string, as: string) {
    const response = await call('GET', `/api/threads/${threadId}`, { as });
    return threadWithMessagesResponseSchema.parse(await response.json());
  }

  return { app, baseUrl, call, newThread, turn, stored, close: () => app.close() };
}

/**
 * For a describe block or a file: Dev Copilot's API (`startCopilotApi` with `options`) over an in-memory store of its
 * own, started before the tests and closed after them. Read `store` and `api` in tests and hooks, once started.
 */
export function copilotApiForSuite(options?: Parameters<typeof startCopilotApi>[1]) {
  const suite = {} as { store: Store; api: Awaited<ReturnType<typeof startCopilotApi>> };
  beforeAll(async () => {
    suite.store = await openStore({ dataDirectory: inMemoryDataDirectory });
    suite.api = await startCopilotApi(suite.store, options);
  });
  afterAll(async () => {
    await suite.api?.close();
    await suite.store?.close();
  });
  return suite;
}

/** The chunks of a UI message stream, read with the AI SDK's own parser; `onChunk` sees each as it arrives. */
export async function readChunks(
  response: Response,
  onChunk?: (chunk: UIMessageChunk) => void,
): Promise<UIMessageChunk[]> {
  if (!response.body) throw new Error('The response has no body');
  const chunks: UIMessageChunk[] = [];
  const parsed = parseJsonEventStream({ stream: response.body, schema: uiMessageChunkSchema });
  for await (const result of parsed) {
    if (!result.success) throw result.error;
    chunks.push(result.value as UIMessageChunk);
    onChunk?.(result.value as UIMessageChunk);
  }
  return chunks;
}

/** The ids the server gave a turn's question and answer, and the thread's title (its `data-turn` part). */
export function turnIds(chunks: readonly UIMessageChunk[]) {
  const turn = chunks.find((chunk) => chunk.type === 'data-turn');
  if (turn?.type !== 'data-turn') throw new Error(`no data-turn chunk in ${JSON.stringify(chunks)}`);
  return turn.data as TurnDataParts['turn'];
}

/**
 * How a turn's answer was made and how sure it is: `confidence` as its stream told the widget (`data-confidence`),
 * `mode` and `covered` as the questions log kept them (the stream carries only what the widget reads).
 */
export async function verdictOf(store: Store, chunks: readonly UIMessageChunk[]) {
  const streamed = chunks.find((chunk) => chunk.type === 'data-confidence') as
    | { data: { confidence: string } }
    | undefined;
  const [logged] = await store.db
    .select({ mode: questions.mode, covered: questions.covered })
    .from(questions)
    .where(eq(questions.answerMessageId, turnIds(chunks).answerId));
  return { ...logged, confidence: streamed?.data.confidence };
}

/** Checks until `check` holds (every 25 ms, 5 s at most). */
export async function waitFor(check: () => Promise<boolean>, what: string) {
  for (let attempt = 0; attempt < 200; attempt += 1) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** The text an answer's chunks spell out. */
export const textOf = (chunks: readonly UIMessageChunk[]) =>
  chunks.map((chunk) => (chunk.type === 'text-delta' ? chunk.delta : '')).join('');
