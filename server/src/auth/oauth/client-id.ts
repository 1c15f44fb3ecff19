import { createHmac, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import type { OAuthClientRow } from '../../store/oauth.js';
import type { ClientRegistration } from './client-registration.js';

/**
 * How long a client_id works before a reader has consented to it: an agent registers and opens the consent page at
 * once. Past it only a client a reader consented to (stored then) is known; any other registers again.
 */
export const unconsentedClientIdLifetimeMs = 24 * 3_600_000;

/**
 * The longest client_id we read: the registration it carries is at most the 8 KB of its request, as base64url, and
 * the tag. Anything longer is no client_id of ours, and is refused before any work.
 */
export const maxClientIdCharacters = 12 * 1024;

const payloadSchema = z.object({
  id: z.string().min(1).max(64),
  name: z.string(),
  redirectUris: z.array(z.string()).min(1),
  registeredAt: z.number().int(),
});

/**
 * Client ids that carry their registration (`<base64url(JSON)>.<HMAC-SHA256 of it>`), so registering stores nothing and
 * a flood of registrations cannot push out the client of an agent whose reader is about to consent. The key is derived
 * from SESSION_SECRET, so every instance reads the ids another issued. The client's row, under the registration's own
 * short `id`, is stored when a reader first consents.
 */
export function oauthClientIds(key: Buffer) {
  const tagOf = (payload: string) => createHmac('sha256', key).update(payload).digest();
  return {
    /** The client_id of a registration made at `registeredAt`. */
    issue(client: ClientRegistration, registeredAt: Date): string {
      const payload = Buffer.from(JSON.stringify({ ...client, registeredAt: registeredAt.getTime() })).toString(
        'base64url',
      );
      return `${payload}.${tagOf(payload).toString('base64url')}`;
    },
    /** The registration a client_id we issued carries; undefined for any other string, tampered or made up. */
    read(clientId: string): OAuthClientRow | undefined {
      if (clientId.length > maxClientIdCharacters) return undefined;
      const [payload, tag, ...rest] = clientId.split('.');
      if (!payload || tag === undefined || rest.length > 0) return undefined;
      const given = Buffer.from(tag, 'base64url');
      const expected = tagOf(payload);
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
      let json: unknown;
      try {
        json = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
      } catch {
        return undefined;
      }
      const parsed = payloadSchema.safeParse(json);
      if (!parsed.success) return undefined;
      const { registeredAt, ...client } = parsed.data;
      return { ...client, createdAt: new Date(registeredAt) };
    },
  };
}

export type OAuthClientIds = ReturnType<typeof oauthClientIds>;

/**
 * The client a client_id names: the registration it carries while it is fresh; after that (or for an id from before
 * client ids carried their registration) the client a reader consented to, as stored. Undefined for an unknown,
 * tampered or stale id: the unknown-client answer.
 */
export async function findClient(
  clientId: string,
  options: {
    clientIds: OAuthClientIds;
    findStored: (id: string) => Promise<OAuthClientRow | undefined>;
    now: Date;
  },
): Promise<OAuthClientRow | undefined> {
  if (!clientId.includes('.')) return clientId.length <= 64 ? options.findStored(clientId) : undefined;
  const registered = options.clientIds.read(clientId);
  if (!registered) return undefined;
  if (options.now.getTime() - registered.createdAt.getTime() < unconsentedClientIdLifetimeMs) return registered;
  return options.findStored(registered.id);
}
