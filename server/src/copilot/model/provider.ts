import { createAnthropic } from '@ai-sdk/anthropic';
import { createGoogleGenerativeAI } from '@ai-sdk/google';
import { createOpenAI } from '@ai-sdk/openai';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import type { EmbeddingModel, LanguageModel } from 'ai';
import type { ModelSettings } from '../../config.js';

const connection = (settings: ModelSettings) => ({
  ...(settings.baseUrl ? { baseURL: settings.baseUrl } : {}),
  apiKey: settings.apiKey,
});

const compatible = (settings: ModelSettings) =>
  createOpenAICompatible({
    name: 'openai-compatible',
    baseURL: settings.baseUrl ?? '',
    ...(settings.apiKey ? { apiKey: settings.apiKey } : {}),
  });

/**
 * The configured chat model. OpenAI is called through chat completions, the protocol every OpenAI-compatible server
 * also speaks, so one wire format covers OpenAI, Ollama, vLLM, LM Studio and gateways.
 */
export function createChatModel(settings: ModelSettings): LanguageModel {
  switch (settings.provider) {
    case 'openai':
      return createOpenAI(connection(settings)).chat(settings.model);
    case 'anthropic':
      return createAnthropic(connection(settings))(settings.model);
    case 'google':
      return createGoogleGenerativeAI(connection(settings))(settings.model);
    case 'openai-compatible':
      return compatible(settings).chatModel(settings.model);
  }
}

/** The configured embedding model, or undefined when none is set (Anthropic has none). */
export function createEmbeddingModel(settings: ModelSettings): EmbeddingModel | undefined {
  const id = settings.embeddingModel;
  if (!id) return undefined;
  switch (settings.provider) {
    case 'openai':
      return createOpenAI(connection(settings)).embeddingModel(id);
    case 'google':
      return createGoogleGenerativeAI(connection(settings)).embeddingModel(id);
    case 'openai-compatible':
      return compatible(settings).embeddingModel(id);
    case 'anthropic':
      return undefined;
  }
}
