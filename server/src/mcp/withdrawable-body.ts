import { Readable } from 'node:stream';

/**
 * A request body for Fastify's inject that `signal` takes back, even once the route has read it whole, so that the
 * injected request ends as one whose client hung up: its response closes unfinished, which is how a route hears its
 * caller leave (askAi stops the answer, the model's request included, and frees the reader's slot).
 *
 * inject's own `signal` cannot do this: light-my-request lets it go once the body has been sent, and a string body
 * cannot be destroyed at all. What it does do, for a body given as a stream, is destroy the request (and with it the
 * response) when the stream emits 'error'. The 'error' carries no error: with one, the response would emit an 'error'
 * of its own, which Fastify logs as a failed request, where a real client hanging up closes it quietly.
 * `release` forgets the signal once the request is answered.
 */
export function withdrawableBody(body: string, signal: AbortSignal) {
  const stream = Readable.from([body], { objectMode: false });
  // Only light-my-request listens; should it ever stop, emitting 'error' would throw instead of taking anything back.
  const withdraw = () => stream.listenerCount('error') > 0 && stream.emit('error');
  signal.addEventListener('abort', withdraw, { once: true });
  return { stream, release: () => signal.removeEventListener('abort', withdraw) };
}
