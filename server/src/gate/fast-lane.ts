import http, { type IncomingMessage, type RequestListener, type ServerResponse } from 'node:http';
import type { RequestObserver } from '../access-log.js';
import { safeReturnPath } from '../auth/return-path.js';
import type { SignInAnswer, SignInDetails } from '../auth/sign-in-response.js';
import { isAllowed, type Viewer } from '../auth/viewer.js';
import type { Encoding } from './built-site.js';
import { encodingFor, matchesEtag } from './file-response.js';
import { keptAnswers, type PreparedAnswer } from './kept-answers.js';
import type { SecurityHeaders } from './security-headers.js';
import { resolveSitePath } from './site-files.js';
import type { ServedFile, SiteSnapshot } from './site-snapshot.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** How many requests the fast lane answered (0 when it is off). */
    fastLaneAnswers(): number;
  }
}

/** What the lane needs of the app; given once the app has them (until then every request goes to Fastify). */
export type FastLaneParts = {
  current: () => SiteSnapshot;
  /** The viewer of a Cookie header when it is known without waiting (the session cache), else undefined. */
  viewerOf: (cookieHeader: string | undefined) => Viewer | undefined;
  /** Whether Fastify would route this request to the site's catch-all route (and not to any other). */
  routedToSite: (method: string, path: string) => boolean;
  signInAnswer: (viewer: Viewer, accept: string | undefined, details: SignInDetails) => SignInAnswer;
  /** The access policy in force; the sign-in page names its domains, so a new policy object means new pages. */
  currentPolicy: () => object;
  /** Writes the access line of an answered request; undefined when access lines are off (LOG_LEVEL above info). */
  accessLine: ((line: { reqId: string; method: string; path: string; status: number; ms: number }) => void) | undefined;
  observe?: RequestObserver | undefined;
  /** Told of a failure in the lane; the request then goes to Fastify (or, when already answered, is left as it is). */
  onError: (error: unknown) => void;
};

type HeaderList = readonly string[];

/** The settings of Fastify's own HTTP server, as Fastify hands them to a `serverFactory` (its defaults applied). */
type ServerSettings = {
  http?: http.ServerOptions;
  keepAliveTimeout?: number;
  requestTimeout?: number;
  connectionTimeout?: number;
  maxRequestsPerSocket?: number;
};

/**
 * Writes answers at the end of the event loop's current turn, all together, instead of one by one as each request is
 * read: a client (or a balancer) reading many connections is then woken once per turn rather than once per answer.
 * On a 2-core machine under 32 connections this raised pages from about 27k to 34k answers a second; an answer waits
 * only for the other requests that arrived with it.
 */
function answerWriter() {
  let waiting: Array<{ res: ServerResponse; status: number; headers: readonly string[]; body: Buffer | string }> = [];
  const writeAll = () => {
    const answers = waiting;
    waiting = [];
    for (const { res, status, headers, body } of answers) {
      try {
        res.writeHead(status, headers as string[]);
        res.end(body);
      } catch (error) {
        res.destroy(error as Error);
      }
    }
  };
  return (res: ServerResponse, status: number, headers: readonly string[], body: Buffer | string) => {
    if (waiting.length === 0) setImmediate(writeAll);
    waiting.push({ res, status, headers, body });
  };
}

const flatten = (headers: Readonly<Record<string, string>>) => Object.entries(headers).flat();

type FileLists = { security: SecurityHeaders; notModified: HeaderList; byEncoding: Map<Encoding, HeaderList> };

/**
 * Each file's whole header lists (a 304's, and a 200's per encoding), built on its first request and kept with the
 * file: a rebuild makes new file objects, and a retired asset served under a newer build's headers gets new lists.
 */
function headerLists() {
  const lists = new WeakMap<ServedFile, FileLists>();
  const of = (security: SecurityHeaders, file: ServedFile) => {
    let entry = lists.get(file);
    if (entry?.security !== security) {
      entry = { security, notModified: [...flatten(security), ...flatten(file.headers)], byEncoding: new Map() };
      lists.set(file, entry);
    }
    return entry;
  };
  return {
    notModified: (security: SecurityHeaders, file: ServedFile) => of(security, file).notModified,
    ok(security: SecurityHeaders, file: ServedFile, encoding: Encoding, length: number): HeaderList {
      const entry = of(security, file);
      let list = entry.byEncoding.get(encoding);
      if (!list) {
        const contentEncoding = encoding === 'identity' ? [] : ['content-encoding', encoding];
        list = [...entry.notModified, ...contentEncoding, 'content-length', String(length)];
        entry.byEncoding.set(encoding, list);
      }
      return list;
    },
  };
}

/** The security headers as a list, once per build. */
function securityLists() {
  const lists = new WeakMap<SecurityHeaders, HeaderList>();
  return (security: SecurityHeaders) => {
    let list = lists.get(security);
    if (!list) {
      list = flatten(security);
      lists.set(security, list);
    }
    return list;
  };
}

/**
 * The handbook's most frequent answers given straight from node's request event, before Fastify: a page or asset of
 * the current snapshot held in memory, for a reader whose session is in the cache, and the sign-in answer for a
 * request with no allowed session. Anything else goes to Fastify untouched, which answers it the same way (a test
 * holds the two answers equal): a session that needs the store, a redirect, a 404, a file
 * streamed from disk, any path another route owns, and every request once the server is stopping.
 * Written by hand because Fastify's per-request machinery (request and reply objects, a hook chain, a child logger,
 * headers set and checked one by one) costs more than the page itself; no router or framework offers a lane beside it.
 */
export function createFastLane() {
  let parts: FastLaneParts | undefined;
  let stopping = false;
  let answered = 0;
  const headersOf = headerLists();
  const securityList = securityLists();
  const write = answerWriter();
  const strangers = keptAnswers(1000);

  function answerFile(snapshot: SiteSnapshot, path: string, req: IncomingMessage, res: ServerResponse) {
    const resolution = resolveSitePath(path, snapshot.files, snapshot.canonicalPaths);
    if (resolution.kind !== 'file') return false;
    const file = snapshot.files.get(resolution.file);
    if (!file) return false;
    const security = snapshot.securityHeaders;
    if (matchesEtag(req.headers['if-none-match'], file.etag)) {
      write(res, 304, headersOf.notModified(security, file), '');
      return 304;
    }
    const encoding = encodingFor(req.headers['accept-encoding'], file);
    const body = file.held[encoding];
    if (!body) return false;
    write(res, 200, headersOf.ok(security, file, encoding, body.length), body);
    return 200;
  }

  /** The answer to one request without an allowed session, ready to write. */
  function prepareSignIn(lane: FastLaneParts, viewer: Viewer, req: IncomingMessage): PreparedAnswer {
    const status = viewer.state === 'signed-in' ? 403 : 401;
    const answer = lane.signInAnswer(viewer, req.headers.accept, {
      status,
      returnPath: safeReturnPath(req.url ?? '/'),
    });
    const body = Buffer.from(answer.body);
    const headers = [
      ...securityList(lane.current().securityHeaders),
      ...['cache-control', 'no-store', 'content-type', answer.contentType, 'content-length', String(body.length)],
    ];
    return { status: answer.status, headers, body };
  }

  function answerSignIn(lane: FastLaneParts, viewer: Viewer, req: IncomingMessage, res: ServerResponse) {
    // A stranger's answer depends only on the address, the Accept header, the policy and the build: kept.
    const answer =
      viewer.state === 'signed-out'
        ? strangers(
            `${req.headers.accept ?? ''}\n${req.url}`,
            [lane.currentPolicy(), lane.current().securityHeaders],
            () => prepareSignIn(lane, viewer, req),
          )
        : prepareSignIn(lane, viewer, req);
    write(res, answer.status, answer.headers, answer.body);
    return answer.status;
  }

  /** Queues the answer and returns its status, or returns false having queued nothing. */
  function answer(lane: FastLaneParts, method: string, path: string, req: IncomingMessage, res: ServerResponse) {
    if (!lane.routedToSite(method, path)) return false;
    const viewer = lane.viewerOf(req.headers.cookie);
    if (!viewer) return false;
    return isAllowed(viewer) ? answerFile(lane.current(), path, req, res) : answerSignIn(lane, viewer, req, res);
  }

  /** Answers the request and returns true, or returns false having touched nothing. */
  function serve(req: IncomingMessage, res: ServerResponse): boolean {
    const lane = parts;
    const method = req.method;
    if (!lane || stopping || (method !== 'GET' && method !== 'HEAD')) return false;
    const startedAt = performance.now();
    const url = req.url ?? '/';
    const queryStart = url.indexOf('?');
    const path = queryStart === -1 ? url : url.slice(0, queryStart);
    let status: number | false;
    try {
      status = answer(lane, method, path, req, res);
    } catch (error) {
      // Nothing was queued (the write is each answer's last step): Fastify answers it, and its error handling.
      lane.onError(error);
      return false;
    }
    if (status === false) return false;
    const ms = performance.now() - startedAt;
    answered += 1;
    try {
      lane.observe?.(method, path, status, ms);
      lane.accessLine?.({ reqId: `lane-${answered.toString(36)}`, method, path, status, ms: Math.round(ms * 10) / 10 });
    } catch (error) {
      lane.onError(error);
    }
    return true;
  }

  return {
    open(laneParts: FastLaneParts) {
      parts = laneParts;
    },
    /** How many requests the lane has answered (tests check that it, and not Fastify, answered). */
    answered: () => answered,
    /** From here on every request goes to Fastify, which closes connections while the server stops. */
    stop() {
      stopping = true;
    },
    /** Fastify's `serverFactory`: its own HTTP server, settings and all, with the lane in front of its handler. */
    serverFactory(handler: RequestListener, options: ServerSettings) {
      const server = http.createServer(options.http ?? {}, (req, res) => {
        if (!serve(req, res)) handler(req, res);
      });
      if (options.keepAliveTimeout !== undefined) server.keepAliveTimeout = options.keepAliveTimeout;
      if (options.requestTimeout !== undefined) server.requestTimeout = options.requestTimeout;
      server.setTimeout(options.connectionTimeout ?? 0);
      if (options.maxRequestsPerSocket) server.maxRequestsPerSocket = options.maxRequestsPerSocket;
      return server;
    },
  };
}

export type FastLane = ReturnType<typeof createFastLane>;
