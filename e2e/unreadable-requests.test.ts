import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { type ApiErrorBody, apiErrorBodySchema, errorDetails } from '@acme/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from './harness';
import { type Instance, startTestInstance } from './instance-process';
import { sessionCookieFor } from './sign-in';
import { tokensApi } from './tokens-api';

/**
 * Requests the server cannot read as sent are answered in the API's one error shape with a status that says why: a
 * JSON API's body sent as text/plain or compressed (415), and what Node refuses before any route sees it (malformed
 * chunked framing, headers too large or not HTTP, headers that never end), each on a connection then closed.
 */
const workDirectory = mkdtempSync(path.join(tmpdir(), 'acme-unreadable-requests-'));
let instance: Instance;
let cookie: string;

beforeAll(async () => {
  instance = await startTestInstance(workDirectory, { LOG_LEVEL: 'info' });
  cookie = await sessionCookieFor(instance.url, 'unreadable@acme.dev');
});

afterAll(async () => {
  await instance?.stop('SIGTERM');
  rmSync(workDirectory, { recursive: true, force: true });
});

const question = { messages: [{ role: 'user', content: [{ type: 'text', text: 'How do I roll back?' }] }] };

/** The JSON APIs that take a body, each with one it accepts and the code its refusals carry. */
const jsonApis: [string, string, unknown, string][] = [
  ['POST', '/api/askAi', question, 'bad_request:ask'],
  ['POST', '/api/threads', {}, 'bad_request:input'],
  ['POST', '/api/tokens', { name: 'unreadable', expiresInDays: 30 }, 'bad_request:token'],
  ['POST', '/api/search/opened', { q: 'rollback' }, 'bad_request:search'],
];

const send = (method: string, apiPath: string, headers: Record<string, string>, body: string | Buffer) =>
  fetch(`${instance.url}${apiPath}`, {
    method,
    headers: { cookie, origin: instance.url, ...headers },
    body: new Uint8Array(body instanceof Buffer ? body : Buffer.from(body)),
  });

async function refusal(response: Response): Promise<ApiErrorBody['error']> {
  return apiErrorBodySchema.parse(await response.json()).error;
}

describe('a JSON API sent a body it cannot read as JSON', () => {
  it.each(jsonApis)('refusesTextPlainAs415NotJson: %s %s', async (method, apiPath, body, code) => {
    const response = await send(method, apiPath, { 'content-type': 'text/plain' }, JSON.stringify(body));

    expect(response.status).toBe(415);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(await refusal(response)).toEqual({ code, message: errorDetails.requestBody.notJson });
  });

  it.each([
    ['gzip', gzipSync],
    ['deflate', deflateSync],
    ['br', brotliCompressSync],
  ] as const)('refusesACompressedBodyAs415: Content-Encoding %s', async (encoding, compress) => {
    for (const [method, apiPath, body, code] of jsonApis) {
      const headers = { 'content-type': 'application/json', 'content-encoding': encoding };
      const response = await send(method, apiPath, headers, compress(JSON.stringify(body)));

      expect(response.status, apiPath).toBe(415);
      expect(await refusal(response), apiPath).toEqual({
        code,
        message: errorDetails.requestBody.compressed(encoding),
      });
    }
  });

  it('acceptsIdentityAsNoEncoding', async () => {
    const headers = { 'content-type': 'application/json', 'content-encoding': 'identity' };
    const response = await send('POST', '/api/threads', headers, '{}');

    expect(response.status).toBe(201);
  });

  it('refusesACompressedOAuthRequestInOAuthTerms', async () => {
    const headers = { 'content-type': 'application/x-www-form-urlencoded', 'content-encoding': 'gzip' };
    const response = await send('POST', '/oauth/token', headers, gzipSync('grant_type=refresh_token&refresh_token=x'));

    expect(response.status).toBe(415);
    expect(await response.json()).toEqual({
      error: 'invalid_request',
      error_description: errorDetails.requestBody.compressed('gzip'),
    });
  });

  it('refusesACompressedMcpRequestAsJsonRpc', async () => {
    const { token } = await tokensApi(instance.url, cookie).create('unreadable mcp');
    const call = { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} };
    const response = await fetch(`${instance.url}/mcp`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        accept: 'application/json, text/event-stream',
        'content-type': 'application/json',
        'content-encoding': 'gzip',
      },
      body: new Uint8Array(gzipSync(JSON.stringify(call))),
    });

    expect(response.status).toBe(415);
    expect(await response.json()).toMatchObject({ jsonrpc: '2.0', error: { code: -32600 }, id: null });
  });
});

/** Sends `request` as is on a connection of its own: all the server wrote back, once it closed the connection. */
function rawExchange(port: number, request: string) {
  return new Promise<string>((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(request));
    let received = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => {
      received += chunk;
    });
    socket.on('error', reject);
    socket.on('close', () => resolve(received));
  });
}

function parsedAnswer(raw: string) {
  const [head = '', body = ''] = raw.split('\r\n\r\n');
  const [statusLine = '', ...headerLines] = head.split('\r\n');
  const headers = Object.fromEntries(
    headerLines.map((line) => [
      line.slice(0, line.indexOf(':')).toLowerCase(),
      line.slice(line.indexOf(':') + 1).trim(),
    ]),
  );
  return { status: Number(statusLine.split(' ')[1]), headers, body };
}

const framingRefusals = () =>
  instance.logLines().filter((line) => line.msg === 'a request Node could not read was refused');

describe('a request Node cannot read', () => {
  const host = () => `Host: 127.0.0.1:${instance.port}\r\n`;
  it.each([
    [
      'malformed chunked framing',
      () =>
        // Signed in, so nothing answers the request before its body is read.
        `POST /api/askAi HTTP/1.1\r\n${host()}Cookie: ${cookie}\r\nOrigin: ${instance.url}\r\n` +
        'Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\nzz\r\n',
      400,
      errorDetails.framing.malformed,
    ],
    [
      'headers too large',
      () => `GET /api/me HTTP/1.1\r\n${host()}X-Padding: ${'a'.repeat(20_000)}\r\n\r\n`,
      431,
      errorDetails.framing.headersTooLarge,
    ],
    [
      'a header name that is not a token',
      () => `GET /api/me HTTP/1.1\r\n${host()}Bad Header: y\r\n\r\n`,
      400,
      errorDetails.framing.malformed,
    ],
  ] as const)('answersInTheErrorShapeAndCloses: %s', async (_name, request, status, message) => {
    const before = framingRefusals().length;
    const raw = await rawExchange(instance.port, request());
    const answer = parsedAnswer(raw);

    expect(raw.match(/^HTTP\/1\.1 /gm), 'one answer').toHaveLength(1);
    expect(answer.status).toBe(status);
    expect(answer.headers).toMatchObject({
      connection: 'close',
      'cache-control': 'no-store',
      'content-type': 'application/json; charset=utf-8',
      'content-length': String(Buffer.byteLength(answer.body)),
    });
    expect(apiErrorBodySchema.parse(JSON.parse(answer.body))).toEqual({
      error: { code: 'bad_request:input', message },
    });
    await expect.poll(() => framingRefusals().length).toBe(before + 1);
    expect(framingRefusals().at(-1)).toMatchObject({ level: 30, status });
  });

  it('logsNoErrorAndNoStackForAnyOfThem', () => {
    const lines = instance.logLines();
    expect(lines.filter((line) => (line.level as number) >= 50)).toEqual([]);
    expect(JSON.stringify(lines)).not.toContain('"stack"');
  });
});

describe('an HTTP/1.1 request without a Host header', () => {
  it.each([
    ['a stranger asking for health', () => 'GET /healthz HTTP/1.1\r\n\r\n'],
    // Signed in, a page the fast lane would serve from memory before Fastify sees the request.
    ['a reader asking for a page', () => `GET /firestore-ttl HTTP/1.1\r\nCookie: ${cookie}\r\n\r\n`],
  ])('isAnswered400InTheErrorShapeWithTheSiteHeaders: %s', async (_name, request) => {
    const answer = parsedAnswer(await rawExchange(instance.port, request()));

    expect(answer.status).toBe(400);
    expect(answer.headers).toMatchObject({
      connection: 'close',
      'cache-control': 'no-store',
      'content-type': 'application/json; charset=utf-8',
      'x-content-type-options': 'nosniff',
    });
    expect(answer.headers['content-security-policy']).toContain("default-src 'self'");
    expect(apiErrorBodySchema.parse(JSON.parse(answer.body))).toEqual({
      error: { code: 'bad_request:input', message: errorDetails.framing.noHost },
    });
  });

  it('isServedOverHttp10, which has no Host header', async () => {
    const answer = parsedAnswer(await rawExchange(instance.port, 'GET /healthz HTTP/1.0\r\n\r\n'));

    expect(answer.status).toBe(200);
  });
});

describe('an address the router cannot decode', () => {
  it.each([
    ['signed in', () => ({ cookie })],
    ['signed out', () => ({})],
  ])('isRefusedAsABadPathWithTheSiteHeaders: %s', async (_name, headers) => {
    // Percent-escapes of bytes that are not UTF-8: Fastify's router refuses them before any hook or route runs.
    const response = await fetch(`${instance.url}/%c0%ae%c0%ae/x`, { headers: headers() });

    expect(response.status).toBe(400);
    expect(response.headers.get('content-security-policy')).toContain("default-src 'self'");
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(await refusal(response)).toEqual({ code: 'bad_request:path', message: errorDetails.path.notPercentEncoded });
  });
});

describe('headers that never end', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startServer({}, { headersTimeoutMs: 500 });
  });

  afterAll(async () => {
    await server?.close();
  });

  it('areAnswered408InTheErrorShapeAndClosed', async () => {
    const port = Number(new URL(server.baseUrl).port);
    const answer = parsedAnswer(await rawExchange(port, 'GET /api/me HTTP/1.1\r\nHost: 127.0.0.1\r\n'));

    expect(answer.status).toBe(408);
    expect(answer.headers.connection).toBe('close');
    expect(apiErrorBodySchema.parse(JSON.parse(answer.body))).toEqual({
      error: { code: 'bad_request:input', message: errorDetails.framing.timeout },
    });
  });
});
