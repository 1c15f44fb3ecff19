import { apiErrorBodySchema } from '@acme/contract';
import type { FastifySchema, FastifySerializerCompiler } from 'fastify';
import { serializerCompiler } from 'fastify-type-provider-zod';
import { z } from 'zod';

/** The error answers of every JSON API: the registry's `{ error: { code, message } }`. */
export const errorResponses = { '4xx': apiErrorBodySchema, '5xx': apiErrorBodySchema } as const;

/** The answers of a route that succeeds with 204 and no body (Fastify sends none), or refuses with the registry's. */
export const bodilessResponses = { 204: z.undefined(), ...errorResponses } as const;

/**
 * Options of one JSON route on an instance that keeps Fastify's own serializer (the sign-in routes, the probes): its
 * zod schema, and the zod type provider's serializer for it alone. (The type provider's compiler is typed for a lone
 * zod schema, Fastify's option for the route's whole schema: the same function.)
 */
export function zodSerialized<Schema extends FastifySchema>(schema: Schema) {
  return { schema, serializerCompiler: serializerCompiler as unknown as FastifySerializerCompiler<Schema> };
}
