import { ApiError, apiErrorBodySchema } from '@acme/contract';
import type { FastifyError, FastifyReply, FastifyRequest, FastifySchema, FastifySerializerCompiler } from 'fastify';
import { serializerCompiler } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { apiErrorHandler } from './api-errors.js';

/** The error answers of every JSON API: the registry's `{ error: { code, message } }`. */
export const errorResponses = { '4xx': apiErrorBodySchema, '5xx': apiErrorBodySchema } as const;

/** The answers of a route that succeeds with 204 and no body (Fastify sends none), or refuses with the registry's. */
export const bodilessResponses = { 204: z.undefined(), ...errorResponses } as const;

const answerInApiShape = apiErrorHandler({ badRequest: 'bad_request:input', internal: 'internal:server' });

/**
 * A request's own mistakes (a body or media type Fastify refuses, a failed schema) in the registry's shape that
 * `errorResponses` declares: the app's handler would give them Fastify's `{ statusCode, code, error }`, which fails that
 * schema and goes out as a 500 (FST_ERR_FAILED_ERROR_SERIALIZATION). Anything else goes on to the app's handler, whose
 * 503 page for a database outage a browser can read.
 */
function refusalsInApiShape(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  if (!(error instanceof ApiError) && (error.statusCode === undefined || error.statusCode >= 500)) throw error;
  return answerInApiShape(error, request, reply);
}

/**
 * Options of one JSON route on an instance that keeps Fastify's own serializer and error handler (the sign-in routes,
 * the probes): its zod schema, the zod type provider's serializer for it alone, and an error handler that refuses in
 * the shape the schema declares. (The type provider's compiler is typed for a lone zod schema, Fastify's option for
 * the route's whole schema: the same function.)
 */
export function zodSerialized<Schema extends FastifySchema>(schema: Schema) {
  return {
    schema,
    serializerCompiler: serializerCompiler as unknown as FastifySerializerCompiler<Schema>,
    errorHandler: refusalsInApiShape,
  };
}
