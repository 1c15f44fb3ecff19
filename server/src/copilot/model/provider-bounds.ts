import { APICallError, type LanguageModelMiddleware } from 'ai';

/**
 * Bounds on what one request to the model provider may cost, whatever the provider does: how long it may stay
 * silent, how many bytes it may send, and how long the SDK's one retry may wait. Each provider is given
 * `guardedFetch` as its `fetch`, and the chat model is wrapped in `noLongRetryWait`.
 */

/** How long an answer's stream may stall: between two chunks (the SDK's chunk timeout) and before the first. */
export const stallTimeoutMs = (timeoutMs: number) => Math.max(1000, Math.round(timeoutMs / 3));

/**
 * Bytes of response a provider may send per output token it is allowed. Streamed, a token can come in an event of
 * its own: an OpenAI chat-completion chunk wraps a few characters in about 250 bytes of JSON, and gateways add fields,
 * so twice that. All output, reasoning included, counts against the token limit, so no honest answer comes near it.
 */
const bytesPerOutputToken = 512;
/** ... plus room for the stream's start and end, tool calls, a thought signature or two, or an error's body. */
const bytesBesidesTokens = 1024 * 1024;

/**
 * Most bytes one response may bring: 3 MB at the default 4096 tokens. The SDK holds a line of the stream whole until
 * its newline comes, and the answer's character limit counts only parsed text: a provider streaming one line without
 * end held hundreds of megabytes (a 700 MB line ended the server with "Invalid string length") before this cut.
 */
export const responseByteCap = (maxOutputTokens: number) => maxOutputTokens * bytesPerOutputToken + bytesBesidesTokens;

/**
 * Most bytes one embeddings response may bring: a batch of 64 sections of 3,072 dimensions, each number written out
 * in JSON (about 25 bytes), is under 5 MB; a provider sending more is broken or hostile.
 */
export const embeddingResponseByteCap = 32 * 1024 * 1024;

/** A response cut at `responseByteCap`: the answer fails as one the provider sent malformed. */
export class ResponseTooLarge extends Error {
  constructor(readonly maxBytes: number) {
    super(`The model provider sent more than ${maxBytes} bytes`);
    this.name = 'ResponseTooLarge';
  }
}

type Fetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/** Statuses that carry no body: a Response cannot be built around one for them. */
const bodiless = new Set([101, 204, 205, 304]);

/**
 * A `fetch` whose response must begin within `firstByteMs` and may not pass `maxBytes`. The SDK's own chunk timeout
 * starts only with the first chunk it parses, so a provider that answered nothing, or only its headers, held the
 * reader for the whole COPILOT_TIMEOUT_SECONDS before the docs answer. Either bound aborts the request, which closes
 * its connection.
 */
export function guardedFetch({ firstByteMs, maxBytes }: { firstByteMs: number; maxBytes: number }): Fetch {
  return async (input, init) => {
    const giveUp = new AbortController();
    const silence = () =>
      giveUp.abort(new DOMException(`The model provider sent nothing for ${firstByteMs} ms`, 'TimeoutError'));
    const firstByte = setTimeout(silence, firstByteMs);
    let response: Response;
    try {
      response = await fetch(input, {
        ...init,
        // A provider's address is configured, never redirected: following a redirect loop made 42 requests (the
        // SDK's retry included) before the docs answer; a redirect fails at once, as an unreachable provider does.
        redirect: 'error',
        signal: init?.signal ? AbortSignal.any([init.signal, giveUp.signal]) : giveUp.signal,
      });
    } catch (error) {
      clearTimeout(firstByte);
      throw error;
    }
    if (!response.body || bodiless.has(response.status)) {
      clearTimeout(firstByte);
      return response;
    }
    const source = response.body.getReader();
    let received = 0;
    let reading: ReadableStreamDefaultController<Uint8Array> | undefined;
    // Undici follows the request's signal through weak references, so after a garbage collection an abort could stop
    // reaching the request (nodejs/node#55428: on Node 20, every time a collection came between): the provider went
    // on streaming after the reader pressed Stop. The abort is followed here as well, from signals this closure holds,
    // and cancelling the body closes the connection.
    const sources = init?.signal ? [init.signal, giveUp.signal] : [giveUp.signal];
    const aborted = () => sources.find((signal) => signal.aborted);
    const stopReading = () => {
      const reason = aborted()?.reason;
      clearTimeout(firstByte);
      reading?.error(reason);
      source.cancel(reason).catch(() => {});
    };
    const stopFollowing = () => {
      for (const signal of sources) signal.removeEventListener('abort', stopReading);
    };
    for (const signal of sources) signal.addEventListener('abort', stopReading, { once: true });
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        reading = controller;
      },
      async pull(controller) {
        // Rejects with the abort's reason when a bound, or the caller, aborts the request.
        const { done, value } = await source.read();
        if (aborted()) return;
        if (done) {
          clearTimeout(firstByte);
          stopFollowing();
          controller.close();
          return;
        }
        if (value.byteLength) clearTimeout(firstByte);
        received += value.byteLength;
        if (received > maxBytes) {
          const tooLarge = new ResponseTooLarge(maxBytes);
          giveUp.abort(tooLarge);
          controller.error(tooLarge);
          return;
        }
        controller.enqueue(value);
      },
      cancel(reason) {
        clearTimeout(firstByte);
        stopFollowing();
        return source.cancel(reason);
      },
    });
    const { status, statusText, headers } = response;
    return new Response(body, { status, statusText, headers });
  };
}

/** The longest Retry-After the SDK's one retry may wait out: a reader waits for it, then for the answer. */
export const longestRetryWaitMs = 2000;

/** How long a failed response asks to be waited out, read as the SDK reads it (`retry-after-ms`, `retry-after`). */
export function retryWaitOf(headers: Record<string, string> | undefined): number | undefined {
  const milliseconds = Number.parseFloat(headers?.['retry-after-ms'] ?? '');
  if (!Number.isNaN(milliseconds)) return milliseconds;
  const retryAfter = headers?.['retry-after'];
  if (!retryAfter) return undefined;
  const seconds = Number.parseFloat(retryAfter);
  const wait = Number.isNaN(seconds) ? Date.parse(retryAfter) - Date.now() : seconds * 1000;
  return Number.isNaN(wait) ? undefined : wait;
}

/**
 * Makes a failure whose provider asks for a wait longer than `longestRetryWaitMs` final. The SDK sleeps out any
 * Retry-After under a minute before its retry (a 429 with "Retry-After: 7" kept the reader 7 s from the docs
 * answer), and offers no way to choose per failure, so the error is given again as not retryable: the same status,
 * so the same code (`model_busy:ask` for a 429), and the provider's own message, with the wait it asked for, for the
 * log. A failure without a Retry-After keeps the SDK's 2 s wait and its one retry.
 */
export const noLongRetryWait: LanguageModelMiddleware = {
  specificationVersion: 'v3',
  async wrapStream({ doStream }) {
    try {
      return await doStream();
    } catch (error) {
      const wait = APICallError.isInstance(error) ? retryWaitOf(error.responseHeaders) : undefined;
      if (!APICallError.isInstance(error) || !error.isRetryable || wait === undefined || wait <= longestRetryWaitMs) {
        throw error;
      }
      throw new APICallError({
        message: `${error.message} (the provider asks for a retry after ${Math.ceil(wait / 1000)} s)`,
        url: error.url,
        requestBodyValues: error.requestBodyValues,
        statusCode: error.statusCode,
        responseHeaders: error.responseHeaders,
        responseBody: error.responseBody,
        isRetryable: false,
        data: error.data,
      });
    }
  },
};
