import http, { type IncomingMessage, type RequestListener, type ServerResponse } from 'node:http';
import { type AnsweredRequest, withoutQuery } from '../access-log.js';
import { isAllowed, type RequestAccess } from '../auth/request-access.js';
import { safeReturnPath } from '../auth/return-path.js';
import { type SignInAnswer, type SignInDetails, signInStatus } from '../auth/sign-in-response.js';
import { announcesBody } from '../request-bodies.js';
import { encodingFor, matchesEtag } from './file-response.js';
import { keptAnswers } from './kept-answers.js';
import { answerWriter, fileHeaderLists, headerList, type PreparedAnswer } from './lane-output.js';
import { enforceSendDeadline, sendDeadlineMs } from './send-deadline.js';
import { resolveSitePath } from './site-files.js';
import type { SiteSnapshot } from './site-snapshot.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** How many requests the fast lane answered (0 when it is off). */
    fastLaneAnswers(): number;
  }
}

/** What the lane needs of the app; given once the app has them (until then every request goes to Fastify). */
export type FastLaneParts = {
  current: () => SiteSnapshot;
  /** The access of a Cookie header when it is known without waiting (the session cache), else undefined. */
  accessOf: (cookieHeader: string | undefined) => RequestAccess | undefined;
  /**
   * Whether Fastify would route this request to the site's catch-all route and to no other. A path the router would
   * decode or cut (`%`, `#`) does not compare equal, so it goes to Fastify.
   */
  routedToSite: (method: string, path: string) => boolean;
  signInAnswer: (access: RequestAccess, accept: string | undefined, details: SignInDetails) => SignInAnswer;
  /** The access policy in force; the sign-in page names its domains, so a new policy object means new pages. */
  currentPolicy: () => object;
  /** Writes an answered request down as Fastify's are (access-log.ts: its access line and metrics). */
  record: (answered: AnsweredRequest, reqId: string) => void;
  /** Told of a failure in the lane; the request then goes to Fastify (or, when already answered, is left as it is). */
  onError: (error: unknown) => void;
};

/**
 * Every hook Fastify runs for a page (the site's catch-all route, GET and HEAD), each with what the lane does in its
 * place. The lane answers before them all, so a hook it does not know is work it silently skips: e2e/fast-lane.test.ts
 * compares this list with the page route's hooks and fails until a new one is added here, its counterpart in the lane.
 */
export const pageHooksTheLaneKnows: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  onRequest: {
    refuseWithoutHost: 'a request without a Host header goes to Fastify (serve)',
    sendSecurityHeaders: "every answer's headers start with the snapshot's security headers (headerList)",
    fastifyCookieHandler: 'the Cookie header is parsed by the same parser (accessOf, app.parseCookie)',
    resolveAccess: 'accessOf: the session cache alone; a session that needs the store goes to Fastify',
    acceptPersonalToken: 'a request with an Authorization header goes to Fastify',
  },
  preParsing: { refuseBodyOfUnknownRoute: 'the page route is a route: it refuses nothing there' },
  preHandler: { refuseUntilIndexed: 'it refuses only the APIs that search, never a page' },
  onSend: {
    fastifyCookieOnSendHandler: 'it writes the cookies a handler set; a page sets none',
    closeAfterUnreadBody: 'a request that announces a body goes to Fastify (serve)',
  },
  onError: {
    noteOutOfSpace: 'a lane answer writes nothing to the store',
    countDatabaseErrors: 'a lane answer reads nothing from the store',
  },
};

/** The settings of Fastify's own HTTP server, as Fastify hands them to a `serverFactory` (its defaults applied). */
type ServerSettings = {
  http?: http.ServerOptions;
  keepAliveTimeout?: number;
  requestTimeout?: number;
  connectionTimeout?: number;
  maxRequestsPerSocket?: number;
};

/** Longer addresses are sent back to `/` after sign-in (return-path.ts), so their answers are not worth keeping. */
const longestKeptUrl = 2304;

/**
 * The handbook's most frequent answers given straight from node's request event, before Fastify: a page or asset of
 * the current snapshot held in memory (or its 304), for a reader whose session is in the cache, and the sign-in answer
 * for a request with no allowed session. Anything else goes to Fastify untouched, which answers it the same way (a
 * test holds the two answers equal): a session that needs the store, a redirect, a 404, a retired asset, a file
 * streamed from disk, any path another route owns, and every request once the server is stopping.
 * Written by hand because Fastify's per-request machinery (request and reply objects, a hook chain, a child logger,
 * headers set and checked one by one) costs more than the page itself; no router or framework offers a lane beside it.
 */
export function createFastLane(options: { sendDeadlineMs?: number } = {}) {
  const sendDeadline = options.sendDeadlineMs ?? sendDeadlineMs;
  let parts: FastLaneParts | undefined;
  let stopping = false;
  let answered = 0;
  const fileHeaders = fileHeaderLists();
  const strangers = keptAnswers(1000);
  /** A failure reported by the app's logger, which must not throw out of a request event. */
  const reportError = (error: unknown) => {
    try {
      parts?.onError(error);
    } catch {
      // Nothing left to tell.
    }
  };
  const write = answerWriter({
    onWritten(written) {
      answered += 1;
      try {
        parts?.record(written, `lane-${answered.toString(36)}`);
      } catch (error) {
        reportError(error);
      }
    },
    onError: reportError,
  });

  function fileAnswer(snapshot: SiteSnapshot, path: string, req: IncomingMessage): PreparedAnswer | undefined {
    const resolution = resolveSitePath(path, snapshot.files, snapshot.canonicalPaths);
    if (resolution.kind !== 'file') return undefined;
    const file = snapshot.files.get(resolution.file);
    if (!file) return undefined;
    const security = snapshot.securityHeaders;
    if (matchesEtag(req.headers['if-none-match'], file.etag)) {
      return { status: 304, headers: fileHeaders.notModified(security, file), body: Buffer.alloc(0) };
    }
    const encoding = encodingFor(req.headers['accept-encoding'], file);
    const body = file.held[encoding];
    if (!body) return undefined;
    return { status: 200, headers: fileHeaders.ok(security, file, encoding, body.length), body };
  }

  function signInAnswer(lane: FastLaneParts, access: RequestAccess, req: IncomingMessage): PreparedAnswer {
    const prepare = () => {
      const details = { status: signInStatus(access), returnPath: safeReturnPath(req.url ?? '/') };
      const answer = lane.signInAnswer(access, req.headers.accept, details);
      const body = Buffer.from(answer.body);
      const security = lane.current().securityHeaders;
      const headers = headerList(security, answer.headers, { 'content-length': String(body.length) });
      return { status: answer.status, headers, body };
    };
    // A stranger's answer depends only on the address, the Accept header, the policy and the build: kept. A refused
    // reader's names their address, so it is made each time.
    const url = req.url ?? '/';
    if (access.state !== 'signed-out' || url.length > longestKeptUrl) return prepare();
    const madeFrom = [lane.currentPolicy(), lane.current().securityHeaders];
    return strangers(`${req.headers.accept ?? ''}\n${url}`, madeFrom, prepare);
  }

  /** The request's answer, or undefined when Fastify is to answer it. */
  function answerOf(lane: FastLaneParts, method: string, path: string, req: IncomingMessage) {
    if (!lane.routedToSite(method, path)) return undefined;
    // A script's personal token is checked by Fastify's hooks (auth/tokens/), which need the store.
    if (req.headers.authorization !== undefined) return undefined;
    const access = lane.accessOf(req.headers.cookie);
    if (!access) return undefined;
    return isAllowed(access) ? fileAnswer(lane.current(), path, req) : signInAnswer(lane, access, req);
  }

  /** Takes the request and returns true, or returns false having touched nothing. */
  function serve(req: IncomingMessage, res: ServerResponse): boolean {
    const lane = parts;
    const method = req.method;
    if (!lane || stopping || (method !== 'GET' && method !== 'HEAD')) return false;
    // Without a Host header, Fastify answers: an HTTP/1.1 request is refused there (request-framing.ts).
    if (req.headers.host === undefined) return false;
    // A page's body is never read: Fastify answers, closing the connection instead of discarding it (request-bodies.ts).
    if (announcesBody(req.headers)) return false;
    const startedAt = performance.now();
    const path = withoutQuery(req.url ?? '/');
    let answer: PreparedAnswer | undefined;
    try {
      answer = answerOf(lane, method, path, req);
    } catch (error) {
      // Nothing was written: Fastify answers it, with its own error handling.
      reportError(error);
      return false;
    }
    if (!answer) return false;
    write(res, answer, { method, path, startedAt });
    return true;
  }

  return {
    open(laneParts: FastLaneParts) {
      parts = laneParts;
    },
    /** How many answers the lane has written (tests check that it, and not Fastify, answered). */
    answered: () => answered,
    /** From here on every request goes to Fastify, which closes connections while the server stops. */
    stop() {
      stopping = true;
    },
    /**
     * Fastify's `serverFactory`: its own HTTP server, settings and all, with the lane in front of its handler. Fastify
     * then listens on one address only: a HOST that names several (`localhost`) gets its first.
     */
    serverFactory(handler: RequestListener, options: ServerSettings) {
      const server = http.createServer(options.http ?? {}, (req, res) => {
        if (!serve(req, res)) handler(req, res);
      });
      if (options.keepAliveTimeout !== undefined) server.keepAliveTimeout = options.keepAliveTimeout;
      if (options.requestTimeout !== undefined) server.requestTimeout = options.requestTimeout;
      server.setTimeout(options.connectionTimeout ?? 0);
      if (options.maxRequestsPerSocket) server.maxRequestsPerSocket = options.maxRequestsPerSocket;
      enforceSendDeadline(server, sendDeadline);
      return server;
    },
  };
}
