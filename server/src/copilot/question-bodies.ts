import { ApiError, errorDetails, maxQuestionBodyMarks } from '@acme/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { readerOf } from './reader.js';
import type { RunningAnswers } from './turn/running-answers.js';

const bodyRead = new WeakMap<FastifyRequest, () => void>();

/**
 * For the question routes of `app` (askAi, turns): a reader's question body is read only while they have fewer than
 * their limit of questions being read or answered on this instance (`RunningAnswers.receive`); past it, 429
 * `rate_limited:concurrent` before a byte of it is read. The guard has already refused strangers (onRequest).
 */
export function limitQuestionBodies(app: FastifyInstance, running: RunningAnswers) {
  app.addHook('preParsing', async (request, reply, payload) => {
    const done = running.receive(readerOf(request));
    bodyRead.set(request, done);
    reply.raw.once('close', done);
    return payload;
  });
  // Read and parsed: from here the answer's own slot counts it (RunningAnswers.begin).
  app.addHook('preValidation', async (request) => bodyRead.get(request)?.());
  refuseSprawlingJson(app);
}

/**
 * Commas, colons and opening brackets in `body`, counted up to just past `limit`: anywhere, inside strings too, as
 * the count only has to bound the values a body can hold. `indexOf` skips the long runs of base64 between them at
 * native speed, so a 32 MB body with four screenshots is counted in milliseconds.
 */
function countMarks(body: string, limit: number): number {
  let count = 0;
  for (const mark of [',', ':', '{', '[']) {
    for (let at = body.indexOf(mark); at >= 0 && count <= limit; at = body.indexOf(mark, at + 1)) count += 1;
  }
  return count;
}

/**
 * A question body may be 32 MB for its screenshots, but one made of millions of tiny values (2.6 million unknown keys
 * in 30 MB) took `JSON.parse` and the schema 12 s, holding every other reader's request. Such a body is refused
 * before it is parsed (400 with the limit); the default parser, with its prototype-poisoning checks, takes the rest.
 */
function refuseSprawlingJson(app: FastifyInstance) {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = String(body);
    if (countMarks(text, maxQuestionBodyMarks) > maxQuestionBodyMarks) {
      done(new ApiError('bad_request:ask', errorDetails.requestBody.tooManyValues), undefined);
      return;
    }
    parseJson(request, text, done);
  });
}
