import type { AnswerConfidence, AnswerSource, AskAiResponse, SearchResponse } from '@acme/contract';
import type { FastifyInstance } from 'fastify';
import { withdrawableBody } from './withdrawable-body.js';

/** A refusal of the handbook's own API, with the message (and code) it gave: the tool reports it to the agent. */
export class HandbookRefusal extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code?: string,
  ) {
    super(message);
    this.name = 'HandbookRefusal';
  }
}

export type HandbookAnswer = AskAiResponse & { confidence: AnswerConfidence };

/** The answer service reports `confidence`; an older one only `covered`, from which it follows. */
function confidenceOf(answer: AskAiResponse & { confidence?: AnswerConfidence }): AnswerConfidence {
  if (answer.confidence) return answer.confidence;
  if (answer.covered) return 'answered';
  return answer.closest.length > 0 ? 'closest' : 'none';
}

export type PageListing = { title: string; url: string; description: string };

const listedPage = /^- \[(.+?)\]\((\S+?\.md)\)(?::\s*(.*))?$/;

/**
 * The handbook's own HTTP API, called in process (Fastify's inject) with the agent's own Authorization header: every
 * tool passes through the same gate, per-reader limits, question log and metrics as a script calling the API, and
 * nothing here decides who may read what.
 */
export function handbookApi(app: FastifyInstance, authorization: string, origin: string) {
  async function call(method: 'GET' | 'POST', url: string, payload?: unknown, signal?: AbortSignal) {
    signal?.throwIfAborted();
    const body = payload === undefined ? undefined : JSON.stringify(payload);
    const withdrawable = body !== undefined && signal ? withdrawableBody(body, signal) : undefined;
    const response = await app
      .inject({
        method,
        url,
        headers: {
          authorization,
          accept: 'application/json',
          // A body given as a stream is sent without a length of its own.
          ...(body === undefined
            ? {}
            : { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) }),
        },
        ...(body === undefined ? {} : { payload: withdrawable?.stream ?? body }),
      })
      .finally(() => withdrawable?.release());
    if (response.statusCode >= 400 && response.statusCode !== 404) {
      const refusal = safeJson(response.body) as { error?: { code?: string; message?: string } } | undefined;
      const retryAfter = response.headers['retry-after'];
      const message = refusal?.error?.message ?? `The handbook answered ${response.statusCode}.`;
      throw new HandbookRefusal(
        response.statusCode,
        retryAfter ? `${message} (Retry-After: ${retryAfter} s)` : message,
        refusal?.error?.code,
      );
    }
    return response;
  }

  return {
    async search(query: string, limit: number): Promise<SearchResponse> {
      const parameters = new URLSearchParams({ q: query, limit: String(limit) });
      return (await call('GET', `/api/search?${parameters}`)).json() as SearchResponse;
    },
    /**
     * A page's Markdown by its address or its `.md` path, read as a token reads it over HTTP (gate/site-routes.ts): the
     * other spelling of a page follows its redirect to the page's address; undefined when there is no such page.
     */
    async markdown(path: string): Promise<string | undefined> {
      let response = await call('GET', path);
      const location = response.headers.location;
      if (response.statusCode === 301 && typeof location === 'string' && /^\/(?![/\\])/.test(location)) {
        response = await call('GET', location);
      }
      const type = String(response.headers['content-type'] ?? '');
      return response.statusCode === 200 && /^text\/(markdown|plain)/.test(type) ? response.body : undefined;
    },
    /** Dev Copilot's answer; `signal` stops it (and frees the reader's slot) when the agent gives up. */
    async ask(question: string, page: string | undefined, signal?: AbortSignal): Promise<HandbookAnswer> {
      const messages = [{ role: 'user', content: [{ type: 'text', text: question }], attachments: [] }];
      const answer = (
        await call('POST', '/api/askAi', { messages, ...(page ? { page } : {}) }, signal)
      ).json() as AskAiResponse;
      return { ...answer, confidence: confidenceOf(answer) };
    },
    /**
     * Every page, from /llms.txt (one line a page: title, Markdown address, description), on this server's origin
     * (the build may have been made for another).
     */
    async pages(): Promise<PageListing[]> {
      const index = await this.markdown('/llms.txt');
      return (index ?? '').split('\n').flatMap((line) => {
        const match = listedPage.exec(line);
        if (!match?.[1] || !match[2] || !URL.canParse(match[2], origin)) return [];
        const url = new URL(new URL(match[2], origin).pathname, origin).href;
        return [{ title: match[1], url, description: match[3] ?? '' }];
      });
    },
  };
}

export type HandbookApi = ReturnType<typeof handbookApi>;
export type { AnswerSource };

function safeJson(body: string): unknown {
  try {
    return JSON.parse(body);
  } catch {
    return undefined;
  }
}
