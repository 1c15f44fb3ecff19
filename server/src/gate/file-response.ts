import { open } from 'node:fs/promises';
import { promisify } from 'node:util';
import { gunzip } from 'node:zlib';
import { Negotiator } from '@fastify/accept-negotiator';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { LRUCache } from 'lru-cache';
import type { Encoding } from './built-site.js';
import type { ServedFile } from './site-snapshot.js';

const unzip = promisify(gunzip);

/**
 * Browsers send a handful of distinct Accept-Encoding values: each is parsed once, and a client sending a new one
 * with every request only pushes out the least recently used.
 */
const negotiated = new LRUCache<string, string>({ max: 256 });
const negotiator = new Negotiator<Encoding>({ supportedValues: ['br', 'gzip', 'identity'], cache: negotiated });

/** How many Accept-Encoding values are kept parsed. */
export const negotiatedEncodings = () => negotiated.size;

/** The best encoding of `file` an Accept-Encoding header takes: br, else gzip, else the file as it is. */
export function encodingFor(acceptEncoding: string | undefined, file: ServedFile): Encoding {
  const wanted = negotiator.negotiate(acceptEncoding ?? '') ?? 'identity';
  const has = (encoding: Encoding) => file.held[encoding] !== undefined || file.onDisk[encoding] !== undefined;
  if (has(wanted)) return wanted;
  return wanted === 'br' && has('gzip') ? 'gzip' : 'identity';
}

/** If-None-Match as browsers send it: one tag, or a list; weak tags compare equal to strong ones for GET. */
export function matchesEtag(ifNoneMatch: string | undefined, etag: string): boolean {
  if (ifNoneMatch === undefined) return false;
  if (ifNoneMatch === etag || ifNoneMatch === '*') return true;
  return ifNoneMatch.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}

/**
 * Sends a file of the snapshot with its precomputed headers, in the best encoding the client accepts: from memory
 * when held, streamed from disk when large, and unzipped from the gzip twin for the rare client that takes neither.
 */
export async function sendServedFile(request: FastifyRequest, reply: FastifyReply, file: ServedFile, status = 200) {
  if (status === 200 && matchesEtag(request.headers['if-none-match'], file.etag)) {
    return reply.code(304).headers(file.headers).send();
  }
  const encoding = encodingFor(request.headers['accept-encoding'], file);
  const onDisk = file.held[encoding] ? undefined : file.onDisk[encoding];
  // Opened before any header is set: a file a rebuild has just removed gets a clean "try again", not a 500 whose JSON
  // body could not be sent under the file's content type.
  const opened = onDisk === undefined ? undefined : await open(onDisk).catch(() => null);
  if (opened === null) return sendBeingUpdated(reply);
  reply.code(status).headers(file.headers);
  if (encoding !== 'identity') reply.header('content-encoding', encoding);
  const held = file.held[encoding];
  if (held) return reply.send(held);
  if (opened) return reply.send(opened.createReadStream());
  const zipped = file.held.gzip ?? Buffer.alloc(0);
  return reply.send(await unzip(zipped));
}

/** How soon to ask again for a file of the build that is being replaced: the new build is served in a moment. */
const beingUpdatedRetrySeconds = 2;

function sendBeingUpdated(reply: FastifyReply) {
  return reply
    .code(503)
    .header('retry-after', String(beingUpdatedRetrySeconds))
    .header('cache-control', 'no-store')
    .type('text/plain; charset=utf-8')
    .send('The handbook is being updated; try again in a moment.');
}
