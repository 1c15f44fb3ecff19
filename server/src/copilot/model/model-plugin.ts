import type { EmbeddingModel, LanguageModel } from 'ai';
import fp from 'fastify-plugin';
import { createChatModel, createEmbeddingModel } from './provider.js';

/** The configured language model and how it is called. */
export type ChatModel = { languageModel: LanguageModel; timeoutMs: number; vision: boolean; maxOutputTokens: number };

declare module 'fastify' {
  interface FastifyInstance {
    /** The configured models (COPILOT_*): none means docs-only answers and keyword search alone. */
    model: { chat: ChatModel | undefined; embedding: EmbeddingModel | undefined };
  }
}

/** The chat and embedding models of the configuration, each provider's package loaded only when it is configured. */
export const modelPlugin = fp(
  async (app) => {
    const settings = app.config.model;
    app.decorate('model', {
      chat: settings && {
        languageModel: await createChatModel(settings),
        timeoutMs: settings.timeoutMs,
        vision: settings.vision,
        maxOutputTokens: settings.maxOutputTokens,
      },
      embedding: settings ? await createEmbeddingModel(settings) : undefined,
    });
  },
  { name: 'model', fastify: '5.x', decorators: { fastify: ['config'] } },
);
