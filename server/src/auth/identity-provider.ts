import * as openid from 'openid-client';
import type { Config } from '../config.js';

/** The claims we read from an ID token, as `identityFrom` keeps them; everything else is ignored. */
export type SignedInIdentity = {
  /** The ID token's `iss` and `sub` (checked by openid-client): the account, whatever its address is now. */
  issuer: string;
  subject: string;
  email: string;
  emailVerified: boolean;
  hostedDomain: string | undefined;
  name: string | undefined;
};

/**
 * A claim's text as it is stored, logged and shown: each control character, NUL among them (PostgreSQL's text cannot
 * hold it), becomes U+FFFD. Replaced, not removed, so that what was refused stays refused: `you@acme.dev\0` is still
 * no plain ASCII address, where removing the NUL would make it `you@acme.dev`, and an `hd` of `acme.dev\0` matches no
 * allowed domain.
 */
const storableClaim = (value: string) => value.replace(/\p{Cc}/gu, '\uFFFD');

/**
 * The identity an ID token's claims (checked by openid-client) give. Its `sub` is never altered, or two accounts could
 * become one: a `sub` with a control character, which no provider issues, fails the sign-in.
 */
export function identityFrom(claims: openid.IDToken | undefined): SignedInIdentity {
  if (!claims || typeof claims.email !== 'string') throw new MissingEmailError();
  if (/\p{Cc}/u.test(claims.sub)) throw new Error('The ID token\'s "sub" holds a control character.');
  return {
    issuer: claims.iss,
    subject: claims.sub,
    email: storableClaim(claims.email),
    emailVerified: claims.email_verified === true,
    hostedDomain: typeof claims.hd === 'string' ? storableClaim(claims.hd) : undefined,
    name: typeof claims.name === 'string' ? storableClaim(claims.name) : undefined,
  };
}

export type SignInChecks = { state: string; nonce: string; codeVerifier: string };

export type ClientCredentials = { clientId: string; clientSecret: string };

const requestTimeoutSeconds = 10;

/** The relying-party half of OpenID Connect: authorization code flow with PKCE, state and nonce. */
export function createIdentityProviderClient(config: Config, credentials: ClientCredentials) {
  const { identityProvider } = config;
  const redirectUri = new URL('/auth/callback', config.publicUrl).href;
  let discovered: Promise<openid.Configuration> | undefined;

  function configuration(): Promise<openid.Configuration> {
    discovered ??= openid
      .discovery(new URL(identityProvider.issuer), credentials.clientId, credentials.clientSecret, undefined, {
        timeout: requestTimeoutSeconds,
        ...(identityProvider.issuer.startsWith('http:') ? { execute: [openid.allowInsecureRequests] } : {}),
      })
      .catch((error: unknown) => {
        discovered = undefined;
        throw error;
      });
    return discovered;
  }

  return {
    kind: identityProvider.kind,

    async authorizationUrl(options: { checks: SignInChecks; switchAccount: boolean }): Promise<URL> {
      const parameters: Record<string, string> = {
        redirect_uri: redirectUri,
        scope: 'openid email profile',
        response_type: 'code',
        state: options.checks.state,
        nonce: options.checks.nonce,
        code_challenge: await openid.calculatePKCECodeChallenge(options.checks.codeVerifier),
        code_challenge_method: 'S256',
      };
      // The development provider always shows its form; Google shows its account chooser when asked to switch.
      if (identityProvider.kind === 'development') parameters.prompt = 'login';
      else if (options.switchAccount) parameters.prompt = 'select_account';
      return openid.buildAuthorizationUrl(await configuration(), parameters);
    },

    async finishSignIn(callbackUrl: URL, checks: SignInChecks): Promise<SignedInIdentity> {
      const tokens = await openid.authorizationCodeGrant(await configuration(), callbackUrl, {
        pkceCodeVerifier: checks.codeVerifier,
        expectedState: checks.state,
        expectedNonce: checks.nonce,
        idTokenExpected: true,
      });
      return identityFrom(tokens.claims());
    },
  };
}

export class MissingEmailError extends Error {
  constructor() {
    super('The identity provider returned no e-mail address.');
  }
}

export function newSignInChecks(): SignInChecks {
  return { state: openid.randomState(), nonce: openid.randomNonce(), codeVerifier: openid.randomPKCECodeVerifier() };
}
