import rateLimit, { type FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/** The limiter's refusal; the sign-in routes answer it with the sign-in page rather than JSON. */
class SignInLimited extends Error {
  readonly statusCode = 429;
  constructor(readonly retryAfterSeconds: number) {
    super('too many sign-in requests from one address');
  }
}

/**
 * At most `perMinute` returns from the identity provider a minute from one address: the balancer's X-Forwarded-For
 * when TRUST_PROXY names it. Each return makes a token request to the provider under our client id, which a script
 * could otherwise repeat without end. `store` counts across instances. Register it in a plugin that holds only the
 * callback route; `answer` gives the refusal (a page: browsers navigate here).
 */
export async function limitSignIns(
  app: FastifyInstance,
  options: {
    perMinute: number;
    store?: FastifyRateLimitStoreCtor | undefined;
    answer: (request: FastifyRequest, reply: FastifyReply, retryAfterSeconds: number) => FastifyReply;
  },
) {
  await app.register(rateLimit, {
    global: true,
    ...(options.store && { store: options.store }),
    max: options.perMinute,
    timeWindow: '1 minute',
    // The plugin's own key: the address, IPv4-mapped ones as IPv4 and IPv6 by their /64 (one network, one count).
    errorResponseBuilder: (_request, context) => new SignInLimited(Math.ceil(context.ttl / 1000)),
  });
  // Any other error goes on to the app's own handler (a database outage is its 503 page).
  app.setErrorHandler((error, request, reply) => {
    if (error instanceof SignInLimited) return options.answer(request, reply, error.retryAfterSeconds);
    throw error;
  });
}
