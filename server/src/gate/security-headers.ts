import type { IncomingMessage, ServerResponse } from 'node:http';
import helmet, { type HelmetOptions } from 'helmet';
import { contentSecurityPolicyDirectives } from './content-security-policy.js';

export type SecurityHeaders = Readonly<Record<string, string>>;

/**
 * The security headers of every response, computed once per build by helmet (its middleware run against a recorder
 * instead of a response) rather than on every request: only the CSP's script hashes change, and only with the build.
 */
export function securityHeaders(options: {
  scriptHashes: readonly string[];
  strictTransport: boolean;
}): SecurityHeaders {
  const settings: HelmetOptions = {
    contentSecurityPolicy: { directives: contentSecurityPolicyDirectives(options.scriptHashes) },
    strictTransportSecurity: options.strictTransport ? { maxAge: 31_536_000, includeSubDomains: true } : false,
    crossOriginEmbedderPolicy: false,
    referrerPolicy: { policy: 'same-origin' },
    // The CSP says frame-ancestors 'none'; the older header must not allow more.
    xFrameOptions: { action: 'deny' },
  };
  const headers: Record<string, string> = {};
  const recorder = {
    setHeader: (name: string, value: unknown) => {
      headers[name.toLowerCase()] = String(value);
    },
    removeHeader: (name: string) => {
      delete headers[name.toLowerCase()];
    },
  };
  helmet(settings)({} as IncomingMessage, recorder as unknown as ServerResponse, () => {});
  return headers;
}
