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
}
