import {
  CancelledNotificationSchema,
  isJSONRPCRequest,
  type JSONRPCRequest,
  type RequestId,
} from '@modelcontextprotocol/sdk/types.js';

/** The JSON-RPC messages of one POST to /mcp: one, or a batch. */
const messagesOf = (body: unknown): unknown[] => (Array.isArray(body) ? body : [body]);

/** The ids of the requests a POST carries: what a later cancellation names. */
export const requestIdsIn = (body: unknown): RequestId[] =>
  messagesOf(body)
    .filter((message): message is JSONRPCRequest => isJSONRPCRequest(message))
    .map((message) => message.id);

/** The request ids a POST's notifications/cancelled name. */
export const cancelledIdsIn = (body: unknown): RequestId[] =>
  messagesOf(body).flatMap((message) => {
    const parsed = CancelledNotificationSchema.safeParse(message);
    return parsed.success && parsed.data.params.requestId !== undefined ? [parsed.data.params.requestId] : [];
  });

/**
 * The calls in flight on this instance, by the personal token that made them and their JSON-RPC ids. The server is
 * stateless, so an agent's notifications/cancelled comes in a POST of its own, to a server that never saw the call:
 * this is how it reaches the POST that did. Only the same token cancels a call (one reader's agent, never another's);
 * two agents sharing a token and an id cancel both. A cancellation that the balancer sends to another instance finds
 * nothing there, and the call runs to its end (or until its agent hangs up).
 */
export function cancellableCalls() {
  const running = new Map<string, Set<() => void>>();
  const keyOf = (token: string, id: RequestId) => JSON.stringify([token, id]);
  return {
    /** Runs `cancel` when a cancellation of one of `ids` comes with `token`; the function returned forgets them. */
    track(token: string, ids: RequestId[], cancel: () => void): () => void {
      for (const id of ids) {
        const key = keyOf(token, id);
        running.set(key, (running.get(key) ?? new Set()).add(cancel));
      }
      return () => {
        for (const id of ids) {
          const key = keyOf(token, id);
          const cancels = running.get(key);
          cancels?.delete(cancel);
          if (cancels?.size === 0) running.delete(key);
        }
      };
    },
    cancel(token: string, ids: RequestId[]): void {
      for (const id of ids) for (const cancel of [...(running.get(keyOf(token, id)) ?? [])]) cancel();
    },
  };
}

export type CancellableCalls = ReturnType<typeof cancellableCalls>;
