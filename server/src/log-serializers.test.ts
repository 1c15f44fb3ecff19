import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { serializeError } from './log-serializers.js';
import { inMemoryDataDirectory, openStore, type Store } from './store/database.js';
import { messages } from './store/schema.js';

let store: Store;

beforeAll(async () => {
  store = await openStore({ dataDirectory: inMemoryDataDirectory });
});

afterAll(async () => {
  await store?.close();
});

/** A logger as the server's, whose lines the test reads. */
function serverLikeLog() {
  const lines: string[] = [];
  const log = pino(
    { serializers: { err: serializeError } },
    new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    }),
  );
  return { log, lines };
}

const question = `My password is hunter2 and ${'this question is long '.repeat(5000)}`;

/** A write that really fails: the message's thread does not exist. */
async function failedWrite() {
  try {
    await store.db.insert(messages).values({
      id: 'answer-1',
      threadId: 'no-such-thread',
      parentId: null,
      role: 'user',
      content: [{ type: 'text', text: question }],
    });
  } catch (error) {
    return error;
  }
  throw new Error('the write did not fail');
}

it('logsAFailedQueryWithoutItsParameters: the SQL and how many, never what the reader wrote', async () => {
  const error = await failedWrite();
  const { log, lines } = serverLikeLog();

  log.error({ err: error }, 'API request failed');
  // Wrapped as start-up and callers wrap it: the cause is cleaned too.
  log.error({ err: new Error('Could not store the question', { cause: error }) }, 'wrapped');

  expect(lines).toHaveLength(2);
  for (const line of lines) {
    expect(line).not.toContain('hunter2');
    expect(line).not.toContain('this question is long');
    expect(line.length).toBeLessThan(5000);
  }
  const first = JSON.parse(lines[0] ?? '{}');
  expect(first.err.message).toMatch(/^Failed query: insert into "messages" .*\nparams: \d+ not logged/s);
  expect(first.err.message).toContain('foreign key');
  expect(first.err.params).toBeUndefined();
  expect(first.err.stack).toContain('    at ');
  expect(JSON.parse(lines[1] ?? '{}').err.message).toMatch(/^Could not store the question: Failed query: insert/);
});

it('leavesOtherErrorsAsPinoSerializesThem', () => {
  const error = Object.assign(new Error('the model failed'), { code: 'E_MODEL' });
  expect(serializeError(error)).toMatchObject({ type: 'Error', message: 'the model failed', code: 'E_MODEL' });
});
