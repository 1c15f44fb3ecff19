import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../server/src/config.js';
import { repositoryRoot } from './dockerfile';

/**
 * deploy/nginx/handbook-proxy.conf waits longer for an answer than the server may take to give one, so that the
 * server, not nginx's 504, ends a slow answer: the longest model timeout it accepts (COPILOT_TIMEOUT_SECONDS) and two
 * minutes for the rest (screenshots read, the search, the question logged), for every location a whole answer comes
 * from. The rules themselves are run by balancer-edge, balanced-instances and mcp-cancel.
 */
const proxyRules = readFileSync(path.join(repositoryRoot, 'deploy', 'nginx', 'handbook-proxy.conf'), 'utf8');
const besidesTheModelSeconds = 120;

/** The block of `location <match> {`, without its nested blocks (the rules have none). */
function locationBlock(match: string): string {
  const start = proxyRules.indexOf(`location ${match} {`);
  if (start === -1) throw new Error(`handbook-proxy.conf has no "location ${match}"`);
  return proxyRules.slice(start, proxyRules.indexOf('}', start));
}

function seconds(block: string, directive: string): number | undefined {
  const value = new RegExp(`^\\s*${directive}\\s+(\\d+)s?;`, 'm').exec(block)?.[1];
  return value === undefined ? undefined : Number(value);
}

const model = {
  COPILOT_PROVIDER: 'openai-compatible',
  COPILOT_MODEL: 'any',
  COPILOT_BASE_URL: 'http://127.0.0.1:1/v1',
};

const modelTimeoutAccepted = (value: number) => {
  try {
    const config = loadConfig({ NODE_ENV: 'test', ...model, COPILOT_TIMEOUT_SECONDS: String(value) });
    return config.model?.timeoutMs === value * 1000;
  } catch {
    return false;
  }
};

describe('how long nginx waits for an answer', () => {
  it.for(['/api/', '= /mcp'])('%s waits longer than the slowest answer the server may give', (match) => {
    const block = locationBlock(match);
    const readTimeout = seconds(block, 'proxy_read_timeout') ?? 60;
    expect(modelTimeoutAccepted(60)).toBe(true);
    expect(modelTimeoutAccepted(readTimeout - besidesTheModelSeconds + 1)).toBe(false);
    // Passed on as it comes (an answer streamed as events), never held back for the whole.
    expect(block).toMatch(/^\s*proxy_buffering off;/m);
  });
});
