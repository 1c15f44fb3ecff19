import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/**
 * Ways of writing an error body by hand instead of through the registry (`errorBody`, `sendApiError`, `ApiError` of
 * packages/contract): each would give a reader or a script a code or words the registry does not have.
 */
const handWritten: Array<[kind: string, pattern: RegExp]> = [
  ['an { error: { code: ... } } literal', /\berror:\s*\{\s*code:\s*['"`]/],
  ["Fastify's { error: 'Text' } shape", /\berror:\s*['"`][A-Z]/],
  ['a JSON body sent with an error status', /\.code\(\s*[45]\d\d\s*\)[^;]*?\.send\(\s*(\{|JSON\.stringify)/s],
];

/** Answers with an error status whose body is another API's own, not a refusal of ours. */
const ownShapes: Record<string, string> = {
  // GET /api/me answers a stranger 401 and a refused account 403 with their state, which the widget reads.
  'server/src/auth/routes.ts': 'the sign-in state API',
  // JSON-RPC has its own error object (numeric codes), which MCP clients read.
  'server/src/mcp/routes.ts': 'JSON-RPC',
  // OAuth 2.1 has its own error body ({ error, error_description }, RFC 6749 5.2), which coding agents' clients read.
  'server/src/auth/oauth/oauth-error.ts': 'OAuth',
};

/**
 * Ways of giving a registry code words of its own: a detail message must be built by `errorDetails` of
 * packages/contract (the type `ErrorDetail` takes nothing else), so that every word a reader or a script is shown is
 * written in one place.
 */
const ownWords: Array<[kind: string, pattern: RegExp]> = [
  [
    'a detail message written in place',
    /\b(?:(?:ApiError|sendApiError|errorBody)\(\s*(?:reply\s*,\s*)?['"][a-z_]+:[a-z_]+['"]\s*,|refused\()\s*['"`]/,
  ],
  ['an ErrorDetail made outside the registry', /\bas\s+(?:unknown\s+as\s+)?ErrorDetail\b/],
];

/** The one file that makes detail messages. */
const registryOfDetails = 'packages/contract/src/error-details.ts';

const sourceFiles = (folder: string) =>
  readdirSync(path.join(repoRoot, folder), { recursive: true, encoding: 'utf8' })
    .filter((file) => /\.tsx?$/.test(file) && !/\.test\.tsx?$/.test(file))
    .map((file) => `${folder}/${file.split(path.sep).join('/')}`);

function ownWordsIn(file: string, source: string): string[] {
  return ownWords.filter(([, pattern]) => pattern.test(source)).map(([kind]) => `${file}: ${kind}`);
}

function handWrittenBodies(file: string, source: string): string[] {
  return handWritten.filter(([, pattern]) => pattern.test(source)).map(([kind]) => `${file}: ${kind}`);
}

describe('error bodies', () => {
  it('are written only through the registry: no file of server/src builds one by hand', () => {
    const files = readdirSync(path.join(repoRoot, 'server/src'), { recursive: true, encoding: 'utf8' })
      .filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts'))
      .map((file) => `server/src/${file.split(path.sep).join('/')}`);
    expect(files.length).toBeGreaterThan(100);
    const found = files
      .filter((file) => !(file in ownShapes))
      .flatMap((file) => handWrittenBodies(file, readFileSync(path.join(repoRoot, file), 'utf8')));
    expect(found).toEqual([]);
  });

  it("carry only the registry's words: no detail message is written outside packages/contract", () => {
    const files = ['server/src', 'site/src', 'packages/contract/src'].flatMap(sourceFiles);
    expect(files).toContain(registryOfDetails);
    const found = files
      .filter((file) => file !== registryOfDetails)
      .flatMap((file) => ownWordsIn(file, readFileSync(path.join(repoRoot, file), 'utf8')));
    expect(found).toEqual([]);
  });

  it.each([
    ["new ApiError('bad_request:parent_id', 'parentId must be an answer.')", 'in place'],
    ["sendApiError(reply, 'forbidden:origin', `Use search from the handbook itself.`)", 'in place'],
    ['throw refused(`attachments.0: the image is empty`)', 'in place'],
    ["return { kind: 'bad-request', reason: 'Bad path.' as ErrorDetail }", 'outside the registry'],
    ['const words = text as unknown as ErrorDetail;', 'outside the registry'],
  ])('finds a detail message of its own: %s', (source, kind) => {
    expect(ownWordsIn('example.ts', source).join()).toContain(kind);
  });

  it.each([
    "sendApiError(reply, 'forbidden:origin', errorDetails.guard.fromOurPages(options.feature))",
    "new ApiError('rate_limited:concurrent', errorDetails.tooManyAtOnce(this.perReader), 1)",
    "new ApiError('unavailable:search', undefined, searchRetryAfterSeconds)",
    'throw refused(errorDetails.attachment.empty(label))',
  ])('lets details built by the registry pass: %s', (source) => {
    expect(ownWordsIn('example.ts', source)).toEqual([]);
  });

  it.each([
    ["JSON.stringify({ error: { code: 'unauthorized:session', message: 'Sign in.' } })", 'code'],
    ["reply.code(500).send({ statusCode: 500, error: 'Internal Server Error', message: 'Oops' })", 'Fastify'],
    ["reply\n  .code(401)\n  .header('cache-control', 'no-store')\n  .send({ reason: 'signed out' })", 'status'],
  ])('finds a body written by hand: %s', (source, kind) => {
    expect(handWrittenBodies('example.ts', source).join()).toContain(kind);
  });

  it.each([
    "sendApiError(reply, 'unauthorized:session')",
    "JSON.stringify(errorBody('forbidden:access'))",
    'reply.code(204).send()',
    "reply.code(400).type('text/html').send(renderPage({ problem }))",
  ])('lets the registry and bodiless answers pass: %s', (source) => {
    expect(handWrittenBodies('example.ts', source)).toEqual([]);
  });
});
