import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.js';

describe('loadConfig for Dev Copilot models', () => {
  it('answers from the docs alone when no provider is set', () => {
    expect(loadConfig({}).model).toBeUndefined();
  });

  it('reads a hosted provider with images on by default', () => {
    const config = loadConfig({
      COPILOT_PROVIDER: 'anthropic',
      COPILOT_MODEL: 'claude-sonnet-4-5',
      COPILOT_API_KEY: 'k',
    });
    expect(config.model).toEqual({
      provider: 'anthropic',
      model: 'claude-sonnet-4-5',
      apiKey: 'k',
      baseUrl: undefined,
      timeoutMs: 60_000,
      vision: true,
      embeddingModel: undefined,
      maxOutputTokens: 4096,
    });
  });

  it('reads a self-hosted OpenAI-compatible server without a key, images off unless told', () => {
    const config = loadConfig({
      COPILOT_PROVIDER: 'openai-compatible',
      COPILOT_MODEL: 'llama3.3',
      COPILOT_BASE_URL: 'http://localhost:11434/v1/',
      COPILOT_TIMEOUT_SECONDS: '5',
    });
    expect(config.model).toMatchObject({ baseUrl: 'http://localhost:11434/v1', timeoutMs: 5000, vision: false });
    expect(
      loadConfig({
        COPILOT_PROVIDER: 'openai-compatible',
        COPILOT_MODEL: 'qwen2.5-vl',
        COPILOT_BASE_URL: 'http://localhost:11434/v1',
        COPILOT_VISION: 'true',
      }).model?.vision,
    ).toBe(true);
  });
});
