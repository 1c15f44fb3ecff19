import { type EmbeddingModel, type LanguageModel, wrapLanguageModel } from 'ai';
import type { ModelSettings } from '../../config.js';
import {
  embeddingResponseByteCap,
  guardedFetch,
  noLongRetryWait,
  responseByteCap,
  stallTimeoutMs,
} from './provider-bounds.js';

/** What a provider instance is for: answers and embeddings are bounded apart (provider-bounds.ts). */
type Use = 'chat' | 'embedding';

const connection = (settings: ModelSettings, use: Use) => ({
  ...(settings.baseUrl ? { baseURL: settings.baseUrl } : {}),
  ...(settings.apiKey ? { apiKey: settings.apiKey } : {}),
  // Both may stay silent as long as an answer may stall. A batch of the handbook's embeddings is legitimately large
  // (64 sections of up to 3,072 numbers in JSON), far below its cap.
  fetch: guardedFetch({
    firstByteMs: stallTimeoutMs(settings.timeoutMs),
    maxBytes: use === 'chat' ? responseByteCap(settings.maxOutputTokens) : embeddingResponseByteCap,
  }),
});

// Each provider's package is loaded only when configured: together they would cost a server without a model about
// 30 MB of memory for code it never runs.
const openAi = async (settings: ModelSettings, use: Use) =>
  (await import('@ai-sdk/openai')).createOpenAI(connection(settings, use));
const google = async (settings: ModelSettings, use: Use) =>
  (await import('@ai-sdk/google')).createGoogleGenerativeAI(connection(settings, use));
const compatible = async (settings: ModelSettings, use: Use) =>
  (await import('@ai-sdk/openai-compatible')).createOpenAICompatible({
    name: 'openai-compatible',
    ...connection(settings, use),
    baseURL: settings.baseUrl ?? '',
  });

/**
 * The configured chat model. OpenAI is called through chat completions, the protocol every OpenAI-compatible server
 * also speaks, so one wire format covers OpenAI, Ollama, vLLM, LM Studio and gateways.
 */
export async function createChatModel(settings: ModelSettings): Promise<LanguageModel> {
  const model = await providerChatModel(settings);
  return wrapLanguageModel({ model, middleware: noLongRetryWait });
}

async function providerChatModel(settings: ModelSettings) {
  switch (settings.provider) {
    case 'openai':
      return (await openAi(settings, 'chat')).chat(settings.model);
    case 'anthropic':
      return (await import('@ai-sdk/anthropic')).createAnthropic(connection(settings, 'chat'))(settings.model);
    case 'google':
      return (await google(settings, 'chat'))(settings.model);
    case 'openai-compatible':
      return (await compatible(settings, 'chat')).chatModel(settings.model);
  }
}

/** The configured embedding model, or undefined when none is set (Anthropic has none). */
export async function createEmbeddingModel(settings: ModelSettings): Promise<EmbeddingModel | undefined> {
  const id = settings.embeddingModel;
  if (!id) return undefined;
  switch (settings.provider) {
    case 'openai':
      return (await openAi(settings, 'embedding')).embeddingModel(id);
    case 'google':
      return (await google(settings, 'embedding')).embeddingModel(id);
    case 'openai-compatible':
      return (await compatible(settings, 'embedding')).embeddingModel(id);
    case 'anthropic':
      return undefined;
  }
}
