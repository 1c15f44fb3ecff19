import type { Server, ServerResponse } from 'node:http';

/**
 * How long a reader may leave what the server has written unread: 60 s, nginx's `send_timeout`. Node has no such
 * bound (Fastify's connection timeout of 0 turns its idle timeout off, and an idle timeout would also cut an answer
 * still waiting for the model): a client that stops reading held every response it had asked for, 13 MB a
 * conversation, until it went away (a fault review: 40 such sockets, 1.3 GB resident for as long as it liked).
 */
export const sendDeadlineMs = 60_000;

/**
 * Ends the connection of a response its reader does not take: one with bytes the socket could not send (a stream
 * whose buffer is full, or a response handed over whole and not all sent) for `deadlineMs` without a `drain`. An
 * answer waiting for its next piece has nothing unsent and is never cut; a reader taking a stream slowly drains it.
 */
export function enforceSendDeadline(server: Server, deadlineMs = sendDeadlineMs) {
  /** Every response being written, and since when its unsent bytes have waited (0: none wait). */
  const writing = new Map<ServerResponse, number>();
  const unsent = (response: ServerResponse) =>
    response.writableNeedDrain || (response.writableEnded && !response.writableFinished);
  const check = setInterval(
    () => {
      const now = Date.now();
      for (const [response, since] of writing) {
        if (!unsent(response)) writing.set(response, 0);
        else if (since === 0) writing.set(response, now);
        else if (now - since >= deadlineMs) {
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
    writing.set(response, 0);
    response.on('drain', () => {
      if (writing.has(response)) writing.set(response, 0);
    });
    response.once('close', () => writing.delete(response));
  });
}
