import * as openid from 'openid-client';
import type { Config } from '../config.js';

/** The claims we read from an ID token; everything else is ignored. */
export type SignedInIdentity = {
  /** The ID token's `iss` and `sub` (checked by openid-client): the account, whatever its address is now. */
  issuer: string;
  subject: string;
  email: string;
  emailVerified: boolean;
  hostedDomain: string | undefined;
  name: string | undefined;
};

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
      const claims = tokens.claims();
      if (!claims || typeof claims.email !== 'string') throw new MissingEmailError();
      return {
        issuer: claims.iss,
        subject: claims.sub,
        email: claims.email,
        emailVerified: claims.email_verified === true,
        hostedDomain: typeof claims.hd === 'string' ? claims.hd : undefined,
        name: typeof claims.name === 'string' ? claims.name : undefined,
      };
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
