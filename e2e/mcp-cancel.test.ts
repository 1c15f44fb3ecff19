import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeModelServer, startFakeModelServer } from '../server/test-support/fake-model-server.js';
import { copilotClient } from './ask-fixtures';
import { type Balancer, startBalancer } from './balancer';
import { freePort } from './harness';
import { type Instance, startTestInstance } from './instance-process';
import { sessionCookieFor } from './sign-in';
import { tokensApi } from './tokens-api';

/**
 * ask_dev_copilot when the agent gives up, driven by the SDK's own client: it cancels the call (its abort signal, which
 * sends notifications/cancelled in a POST of its own) or closes its connection, to the compiled server directly and
 * through nginx with the deployed rules. The model never answers (it would be given up on after 20 s): its request
 * must be closed at once, as a plain askAi's is, the reader's answer slots freed, and nothing logged as an error.
 */
const modelTimeoutSeconds = 20;
/** How soon after the agent gave up the model's request must be closed. */
const closedWithinMs = 2_000;
const workDirectory = mkdtempSync(path.join(tmpdir(), 'acme-mcp-cancel-'));
// nginx's worker runs as another user and reads the deployed error pages from here.
chmodSync(workDirectory, 0o755);
let fakeModel: FakeModelServer;
let instance: Instance;
let balancer: Balancer;

beforeAll(async () => {
  fakeModel = await startFakeModelServer();
  const balancerPort = await freePort();
  instance = await startTestInstance(workDirectory, {
    PUBLIC_URL: `http://127.0.0.1:${balancerPort}`,
    TRUST_PROXY: '127.0.0.1',
    LOG_LEVEL: 'info',
    ASK_REQUESTS_PER_MINUTE: '1000',
    COPILOT_PROVIDER: 'openai-compatible',
    COPILOT_MODEL: 'test-model',
    COPILOT_BASE_URL: `${fakeModel.url}/v1`,
    COPILOT_TIMEOUT_SECONDS: String(modelTimeoutSeconds),
  });
  const address = `127.0.0.1:${instance.port}`;
  // The template names two instances; both are this one.
  balancer = await startBalancer({
    directory: path.join(workDirectory, 'nginx'),
    port: balancerPort,
    instances: [address, address],
  });
}, 120_000);

afterAll(async () => {
  await balancer?.stop();
  await instance?.stop('SIGKILL');
  await fakeModel?.close();
  rmSync(workDirectory, { recursive: true, force: true });
});

let readerSerial = 0;
/** A reader of the test's own (each has two answer slots), signed in through the balancer, and a token of theirs. */
async function newReader() {
  readerSerial += 1;
  const cookie = await sessionCookieFor(balancer.url, `mcp-canceller-${readerSerial}@acme.dev`);
  const { token } = await tokensApi(balancer.url, cookie).create('agent');
  return { cookie, token };
}

async function connect(baseUrl: string, token: string) {
  const transport = new StreamableHTTPClientTransport(new URL('/mcp', baseUrl), {
    requestInit: { headers: { authorization: `Bearer ${token}` } },
  });
  const client = new Client({ name: 'handbook-e2e-cancel', version: '1.0.0' });
  await client.connect(transport);
  return client;
}

const modelRequests = () => fakeModel.received.filter((request) => request.protocol !== 'embeddings');

/** Starts ask_dev_copilot and resolves once the model has been asked: the call is then waiting on the model. */
async function askUntilTheModelIsAsked(client: Client, signal?: AbortSignal) {
  const before = modelRequests().length;
  const question = { name: 'ask_dev_copilot', arguments: { question: 'How do I roll back a deploy?' } };
  const asking = client.callTool(question, undefined, { signal }).then(
    () => 'answered',
    () => 'gave up',
  );
  await expect.poll(() => modelRequests().length, { timeout: 5_000 }).toBe(before + 1);
  return { asking, index: before };
}

/** How long after `gaveUpAt` the model's `index`-th request was closed unanswered. */
async function closedAfter(index: number, gaveUpAt: number) {
  await expect.poll(() => modelRequests()[index]?.closedEarlyAt, { timeout: closedWithinMs + 1_000 }).toBeDefined();
  return (modelRequests()[index]?.closedEarlyAt ?? Number.POSITIVE_INFINITY) - gaveUpAt;
}

describe('ask_dev_copilot when the agent gives up', () => {
  it.for([
    ['directly', 'cancels the call'],
    ['directly', 'closes its connection'],
    ['through the balancer', 'cancels the call'],
    ['through the balancer', 'closes its connection'],
  ] as const)('stops the model request at once when the agent, %s, %s', async ([route, how]) => {
    fakeModel.reset();
    fakeModel.behave({ hang: true });
    const { token } = await newReader();
    const client = await connect(route === 'directly' ? instance.url : balancer.url, token);
    const caller = new AbortController();
    const { asking, index } = await askUntilTheModelIsAsked(client, caller.signal);
    const gaveUpAt = Date.now();
    if (how === 'cancels the call') caller.abort();
    else await client.close();
    expect(await asking).toBe('gave up');
    expect(await closedAfter(index, gaveUpAt)).toBeLessThan(closedWithinMs);
    await client.close();
  });

  it("frees the reader's answer slots: after two abandoned calls, the next askAi is answered", async () => {
    fakeModel.reset();
    fakeModel.behave({ hang: true });
    const { cookie, token } = await newReader();
    const cancelled = await connect(balancer.url, token);
    const caller = new AbortController();
    const first = await askUntilTheModelIsAsked(cancelled, caller.signal);
    const closed = await connect(balancer.url, token);
    const second = await askUntilTheModelIsAsked(closed);
    const gaveUpAt = Date.now();
    caller.abort();
    await closed.close();
    expect(await Promise.all([first.asking, second.asking])).toEqual(['gave up', 'gave up']);
    expect(await closedAfter(first.index, gaveUpAt)).toBeLessThan(closedWithinMs);
    expect(await closedAfter(second.index, gaveUpAt)).toBeLessThan(closedWithinMs);
    // Two answer slots per reader: had the abandoned calls kept theirs, this would be 429 rate_limited:concurrent.
    fakeModel.behave({ reply: 'Roll back with the pipeline.' });
    const copilot = copilotClient(balancer.url, cookie);
    const question = { role: 'user', content: [{ type: 'text', text: 'How do I roll back?' }], attachments: [] };
    await expect.poll(async () => (await copilot.ask({ messages: [question] })).status, { timeout: 1_000 }).toBe(200);
    await cancelled.close();
  });

  it('logs no error for a call its agent gave up, as for a plain askAi whose caller left', async () => {
    // The log is written asynchronously; by now the calls above have long been given up.
    await expect.poll(() => instance.logLines().filter((line) => line.path === '/mcp').length).toBeGreaterThan(0);
    const lines = instance.logLines();
    expect(lines.filter((line) => (line.level as number) >= 50)).toEqual([]);
    expect(JSON.stringify(lines)).not.toContain('"stack"');
  });
});
