import { createHash, generateKeyPairSync, randomBytes } from 'node:crypto';
import type { Configuration, Provider } from 'oidc-provider';
import { developmentIssuerPath } from '../../config.js';
import { foldEmail } from '../email-address.js';

export type DevelopmentAccount = {
  email: string;
  emailVerified: boolean;
  workspaceAccount: boolean;
  /** The `sub` to sign in with; by default one derived from the address. Lets a test change an account's address. */
  subject?: string | undefined;
};

/**
 * A real OpenID provider (panva's oidc-provider) for development and tests, so sign-in runs the same code path as
 * with Google. Accounts are whatever e-mail is typed into its form; it refuses to exist in production.
 */
/**
 * A new RSA signing key as a JWK, exported by the key generation itself. Not `generateKeyPairSync(...).privateKey
 * .export({ format: 'jwk' })`: on Node 20 a garbage collection during that export can free the generation job, whose
 * destructor waits on the lock the export holds, and the server hangs for good (seen in tests: the main thread parked
 * in ~KeyGenJob under ExportJWK).
 */
const signingKey = (): JsonWebKey =>
  // Node documents the `jwk` encoding for key generation; @types/node lists only pem and der there.
  (generateKeyPairSync as unknown as (type: 'rsa', options: object) => { privateKey: JsonWebKey })('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { format: 'jwk' },
    privateKeyEncoding: { format: 'jwk' },
  }).privateKey;

export function createDevelopmentProvider(options: {
  issuer: string;
  redirectUri: string;
  environment: string;
  /** Domains that the provider treats as Google Workspace domains: their accounts get an `hd` claim. */
  workspaceDomains: () => readonly string[];
  /**
   * The relying party's secret. Instances behind one balancer must agree on it (app.ts derives it from
   * SESSION_SECRET): the one that takes a callback may not be the one whose provider issued the code. Default random.
   */
  clientSecret?: string;
}) {
  if (options.environment === 'production') {
    throw new Error('The development identity provider cannot run with NODE_ENV=production. Set OIDC_ISSUER.');
  }
  const accounts = new Map<string, DevelopmentAccount>();
  const client = {
    clientId: 'acme-handbook-development',
    clientSecret: options.clientSecret ?? randomBytes(32).toString('base64url'),
  };

  const configuration = (): Configuration => ({
    clients: [
      {
        client_id: client.clientId,
        client_secret: client.clientSecret,
        redirect_uris: [options.redirectUri],
        grant_types: ['authorization_code'],
        response_types: ['code'],
      },
    ],
    jwks: { keys: [{ ...signingKey(), kid: 'development', use: 'sig', alg: 'RS256' }] },
    cookies: { keys: [randomBytes(32).toString('base64url')] },
    claims: { openid: ['sub'], email: ['email', 'email_verified', 'hd'], profile: ['name'] },
    // Google puts the e-mail claims in the ID token itself; the relying party reads them from there.
    conformIdTokenClaims: false,
    ttl: { Interaction: 600, Session: 3600, Grant: 3600, AccessToken: 600, IdToken: 600, AuthorizationCode: 60 },
    pkce: { required: () => true },
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_context, interaction) => `${developmentIssuerPath}/interaction/${interaction.uid}` },
    // First-party client: consent is implied, as it is for an internal Google Workspace app.
    async loadExistingGrant(context) {
      const oidc = context.oidc;
      const grantId = oidc.result?.consent?.grantId ?? oidc.session?.grantIdFor(oidc.client?.clientId ?? '');
      if (grantId) return oidc.provider.Grant.find(grantId);
      const grant = new oidc.provider.Grant({ clientId: oidc.client?.clientId, accountId: oidc.session?.accountId });
      grant.addOIDCScope('openid email profile');
      await grant.save();
      return grant;
    },
    async findAccount(_context, accountId) {
      const account = accounts.get(accountId);
      if (!account) return undefined;
      const domain = foldEmail(account.email.slice(account.email.lastIndexOf('@') + 1));
      const hostedDomain =
        account.workspaceAccount && options.workspaceDomains().includes(domain) ? { hd: domain } : {};
      return {
        accountId,
        claims: () => ({
          sub: accountId,
          email: account.email,
          email_verified: account.emailVerified,
          name: account.email.slice(0, account.email.indexOf('@')),
          ...hostedDomain,
        }),
      };
    },
    renderError(context, output) {
      context.type = 'text/plain; charset=utf-8';
      context.body = `Development sign-in error: ${output.error}${output.error_description ? ` (${output.error_description})` : ''}`;
    },
  });

  // oidc-provider and an RSA key cost about 30 MB and 300 ms: paid at the first sign-in, not at every start.
  let provider: Promise<Provider> | undefined;
  const startProvider = async () => {
    const { default: OpenIdProvider } = await import('oidc-provider');
    const started = new OpenIdProvider(options.issuer, configuration());
    // The mount sets X-Forwarded-Proto/Host from PUBLIC_URL (never from the client), so URLs match the issuer.
    started.proxy = true;
    return started;
  };

  return {
    /** The provider, started on first use. */
    provider: () => {
      provider ??= startProvider();
      return provider;
    },
    client,
    /** Records what the development form said about an account and returns its stable subject id. */
    rememberAccount(account: DevelopmentAccount): string {
      const accountId = account.subject ?? createHash('sha256').update(account.email).digest('hex').slice(0, 24);
      accounts.set(accountId, account);
      return accountId;
    },
  };
}
