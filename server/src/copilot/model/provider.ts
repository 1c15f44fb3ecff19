import type { EmbeddingModel, LanguageModel } from 'ai';
import type { ModelSettings } from '../../config.js';

const connection = (settings: ModelSettings) => ({
  ...(settings.baseUrl ? { baseURL: settings.baseUrl } : {}),
  apiKey: settings.apiKey,
});

// Each provider's package is loaded only when configured: together they would cost a server without a model about
// 30 MB of memory for code it never runs.
const openAi = async (settings: ModelSettings) => (await import('@ai-sdk/openai')).createOpenAI(connection(settings));
const google = async (settings: ModelSettings) =>
  (await import('@ai-sdk/google')).createGoogleGenerativeAI(connection(settings));
const compatible = async (settings: ModelSettings) =>
  (await import('@ai-sdk/openai-compatible')).createOpenAICompatible({
    name: 'openai-compatible',
    baseURL: settings.baseUrl ?? '',
    ...(settings.apiKey ? { apiKey: settings.apiKey } : {}),
  });

/**
 * The configured chat model. OpenAI is called through chat completions, the protocol every OpenAI-compatible server
 * also speaks, so one wire format covers OpenAI, Ollama, vLLM, LM Studio and gateways.
 */
export async function createChatModel(settings: ModelSettings): Promise<LanguageModel> {
  switch (settings.provider) {
    case 'openai':
      return (await openAi(settings)).chat(settings.model);
    case 'anthropic':
      return (await import('@ai-sdk/anthropic')).createAnthropic(connection(settings))(settings.model);
    case 'google':
      return (await google(settings))(settings.model);
    case 'openai-compatible':
      return (await compatible(settings)).chatModel(settings.model);
  }
}

/** The configured embedding model, or undefined when none is set (Anthropic has none). */
export async function createEmbeddingModel(settings: ModelSettings): Promise<EmbeddingModel | undefined> {
  const id = settings.embeddingModel;
  if (!id) return undefined;
  switch (settings.provider) {
    case 'openai':
      return (await openAi(settings)).embeddingModel(id);
    case 'google':
      return (await google(settings)).embeddingModel(id);
    case 'openai-compatible':
      return (await compatible(settings)).embeddingModel(id);
    case 'anthropic':
      return undefined;
  }
}
