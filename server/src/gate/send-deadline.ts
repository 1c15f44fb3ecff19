import type { Server, ServerResponse } from 'node:http';

/**
 * How long a reader may take no byte of what the server has written: 60 s, nginx's `send_timeout` (between two
 * successive writes, not over the whole transfer). Node has no such bound (Fastify's connection timeout of 0 turns its
 * idle timeout off, and an idle timeout would also cut an answer still waiting for the model): a client that stopped
 * reading held every response it had asked for, 13 MB a conversation, until it went away (a fault review: 40 such
 * sockets, 1.3 GB resident for as long as it liked).
 */
export const sendDeadlineMs = 60_000;

/** What a response's socket still holds unsent, as far as Node lets it be seen. */
type Waiting = { since: number; queued: number | undefined };

/**
 * Bytes the socket's handle still has to send: libuv's write queue, which shrinks as the reader takes them. Node
 * counts a response handed over whole (`end(buffer)`) as written at once, so only the queue shows a slow reader still
 * reading; undefined where the handle does not say.
 */
const queuedBytes = (response: ServerResponse): number | undefined => {
  const handle = (response.socket as { _handle?: { writeQueueSize?: unknown } } | null)?._handle;
  return typeof handle?.writeQueueSize === 'number' ? handle.writeQueueSize : undefined;
};

/**
 * Ends the connection of a response its reader does not take: one with bytes waiting to be sent (a stream whose
 * buffer is full, or a response handed over whole and not all sent) of which no byte left for `deadlineMs`. An answer
 * waiting for its next piece has nothing unsent and is never cut; a reader taking bytes slowly is never cut either.
 */
export function enforceSendDeadline(server: Server, deadlineMs = sendDeadlineMs) {
  const writing = new Map<ServerResponse, Waiting | undefined>();
  // A pipelined response waiting for its turn has no socket yet: it waits for the one before it, not for its reader.
  const unsent = (response: ServerResponse) =>
    response.socket !== null && (response.writableNeedDrain || (response.writableEnded && !response.writableFinished));
  const check = setInterval(
    () => {
      const now = Date.now();
      for (const [response, waiting] of writing) {
        if (!unsent(response)) {
          writing.set(response, undefined);
          continue;
        }
        const queued = queuedBytes(response);
        if (waiting === undefined || queued !== waiting.queued) writing.set(response, { since: now, queued });
        else if (now - waiting.since >= deadlineMs) {
          writing.delete(response);
          response.destroy();
        }
      }
    },
    Math.max(50, deadlineMs / 10),
  );
  check.unref();
  server.on('close', () => clearInterval(check));
  server.on('request', (_request, response: ServerResponse) => {
    writing.set(response, undefined);
    response.on('drain', () => {
      if (writing.has(response)) writing.set(response, undefined);
    });
    response.once('close', () => writing.delete(response));
  });
}
