import { describe, expect, it } from 'vitest';
import { createDevelopmentProvider } from './auth/dev-idp/provider.js';
import { loadConfig } from './config.js';

const sessionSecret = 's'.repeat(32);

/** Everything production needs; each refusal test takes one piece away or spoils it. */
const production: NodeJS.ProcessEnv = {
  NODE_ENV: 'production',
  PUBLIC_URL: 'https://docs.acme.dev',
  OIDC_ISSUER: 'https://accounts.google.com',
  OIDC_CLIENT_ID: 'handbook-client',
  OIDC_CLIENT_SECRET: 'handbook-client-secret',
  SESSION_SECRET: sessionSecret,
};

function without(environment: NodeJS.ProcessEnv, name: string): NodeJS.ProcessEnv {
  const { [name]: _removed, ...rest } = environment;
  return rest;
}

describe('loadConfig in development', () => {
  const config = loadConfig({});

  it('runs the embedded development identity provider on the default port', () => {
    expect(config.environment).toBe('development');
    expect(config.identityProvider).toEqual({ kind: 'development', issuer: 'http://localhost:3000/dev-idp' });
    expect(config.publicUrl.href).toBe('http://localhost:3000/');
  });

  it('allows the four default domains, acme.dev and acme.io first, with Workspace accounts required', () => {
    expect(config.accessSettings).toEqual({
      domains: 'acme.dev,acme.io,acme-labs.dev,acme.studio',
      addresses: 'alex.partner@example.com,sam.contractor@example.org,qa.vendor@example.net',
      allowSubdomains: false,
      requireHostedDomain: true,
      maintainers: '',
      blocked: '',
    });
  });

  it('uses plain cookies over http and a fresh random secret per start', () => {
    expect(config.secureCookies).toBe(false);
    expect(config.sessionSecret).toMatch(/^[0-9a-f]{64}$/);
    expect(loadConfig({}).sessionSecret).not.toBe(config.sessionSecret);
  });

  it('follows PORT into the public URL and the issuer', () => {
    expect(loadConfig({ PORT: '4100' }).identityProvider).toEqual({
      kind: 'development',
      issuer: 'http://localhost:4100/dev-idp',
    });
  });

  it('refusesDevelopmentSignInOnAPublicHost (it believes any typed e-mail)', () => {
    expect(() => loadConfig({ PUBLIC_URL: 'https://docs.acme.dev' })).toThrow(/OIDC_ISSUER: required when PUBLIC_URL/);
    expect(() => loadConfig({ PUBLIC_URL: 'http://10.0.0.5:3000' })).toThrow(/ALLOW_DEVELOPMENT_SIGN_IN/);
  });

  it('refusesDevelopmentSignInListeningBeyondThisMachine (HOST=0.0.0.0 let the network sign in as anyone)', () => {
    for (const host of ['0.0.0.0', '::', '192.168.1.20', 'docs-box']) {
      expect(() => loadConfig({ HOST: host })).toThrow(new RegExp(`OIDC_ISSUER: required when HOST \\(${host}\\)`));
    }
    for (const host of ['127.0.0.1', 'localhost', '::1']) {
      expect(loadConfig({ HOST: host }).identityProvider.kind).toBe('development');
    }
    expect(loadConfig({ HOST: '0.0.0.0', ALLOW_DEVELOPMENT_SIGN_IN: 'true' }).identityProvider.kind).toBe(
      'development',
    );
  });

  it('allows development sign-in on loopback hosts, or elsewhere when explicitly allowed', () => {
    for (const publicUrl of ['http://localhost:3000', 'http://127.0.0.1:4000', 'http://[::1]:3000']) {
      expect(loadConfig({ PUBLIC_URL: publicUrl }).identityProvider.kind).toBe('development');
    }
    const allowed = loadConfig({ PUBLIC_URL: 'https://staging.example.test', ALLOW_DEVELOPMENT_SIGN_IN: 'true' });
    expect(allowed.identityProvider.kind).toBe('development');
  });
});

describe('loadConfig refuses an unsafe production start', () => {
  it.each([
    ['refusesProductionWithoutIssuer', without(production, 'OIDC_ISSUER'), 'OIDC_ISSUER'],
    ['refusesProductionWithoutClientId', without(production, 'OIDC_CLIENT_ID'), 'OIDC_CLIENT_ID'],
    ['refusesProductionWithoutClientSecret', without(production, 'OIDC_CLIENT_SECRET'), 'OIDC_CLIENT_SECRET'],
    ['refusesProductionWithBlankClientSecret', { ...production, OIDC_CLIENT_SECRET: '  ' }, 'OIDC_CLIENT_SECRET'],
    ['refusesProductionWithoutSessionSecret', without(production, 'SESSION_SECRET'), 'SESSION_SECRET'],
    ['refusesShortSessionSecret', { ...production, SESSION_SECRET: 'short' }, 'SESSION_SECRET'],
    ['refusesProductionWithoutPublicUrl', without(production, 'PUBLIC_URL'), 'PUBLIC_URL: must be https'],
    ['refusesPlainHttpPublicUrl', { ...production, PUBLIC_URL: 'http://docs.acme.dev' }, 'PUBLIC_URL: must be https'],
    [
      'refusesPublicUrlWithPath',
      { ...production, PUBLIC_URL: 'https://acme.dev/docs' },
      'PUBLIC_URL: must be an origin',
    ],
    ['refusesPublicUrlWithQuery', { ...production, PUBLIC_URL: 'https://docs.acme.dev/?x=1' }, 'PUBLIC_URL'],
    ['refusesNonWebPublicUrl', { ...production, PUBLIC_URL: 'ftp://docs.acme.dev' }, 'PUBLIC_URL'],
    ['refusesNonWebIssuer', { ...production, OIDC_ISSUER: 'javascript:alert(1)' }, 'OIDC_ISSUER'],
  ])('%s', (_name, environment, named) => {
    expect(() => loadConfig(environment)).toThrow(named);
  });

  it('names every problem at once, one per line', () => {
    const environment = { NODE_ENV: 'production', PUBLIC_URL: 'http://docs.acme.dev/docs' };
    expect(() => loadConfig(environment)).toThrow(
      /Invalid configuration:\n {2}PUBLIC_URL: must be an origin.*\n {2}PUBLIC_URL: must be https.*\n {2}OIDC_ISSUER: .*\n {2}SESSION_SECRET: /,
    );
  });
});

describe('loadConfig with a valid production environment', () => {
  it('signs in with Google, requires the Workspace claim and uses __Host- cookies', () => {
    const config = loadConfig(production);
    expect(config.environment).toBe('production');
    expect(config.identityProvider).toEqual({
      kind: 'google',
      issuer: 'https://accounts.google.com',
      clientId: 'handbook-client',
      clientSecret: 'handbook-client-secret',
    });
    expect(config.accessSettings.requireHostedDomain).toBe(true);
    expect(config.secureCookies).toBe(true);
    expect(config.sessionSecret).toBe(sessionSecret);
  });

  it('recognises Google with a trailing slash on the issuer', () => {
    const config = loadConfig({ ...production, OIDC_ISSUER: 'https://accounts.google.com/' });
    expect(config.identityProvider).toMatchObject({ kind: 'google', issuer: 'https://accounts.google.com' });
  });

  it.each([
    ['treatsOtherIssuerAsGenericWithoutHostedDomain', {}, false],
    ['requiresHostedDomainWhenAskedForGenericIssuer', { ACCESS_REQUIRE_HOSTED_DOMAIN: 'true' }, true],
    ['requiresHostedDomainWhenAskedWithOne', { ACCESS_REQUIRE_HOSTED_DOMAIN: '1' }, true],
  ])('%s', (_name, extra, requireHostedDomain) => {
    const config = loadConfig({ ...production, OIDC_ISSUER: 'https://login.acme.dev/realms/staff', ...extra });
    expect(config.identityProvider).toMatchObject({ kind: 'oidc', issuer: 'https://login.acme.dev/realms/staff' });
    expect(config.accessSettings.requireHostedDomain).toBe(requireHostedDomain);
  });

  it('lets Google run without the Workspace claim only when told to', () => {
    const config = loadConfig({ ...production, ACCESS_REQUIRE_HOSTED_DOMAIN: 'false' });
    expect(config.accessSettings.requireHostedDomain).toBe(false);
  });
});

describe('loadConfig reports bad values by name', () => {
  it('limits made-up bearer credentials to 30 a minute per address unless told otherwise', () => {
    expect(loadConfig({}).tokenFailuresPerMinute).toBe(30);
    expect(loadConfig({ TOKEN_FAILURES_PER_MINUTE: '5' }).tokenFailuresPerMinute).toBe(5);
    expect(() => loadConfig({ TOKEN_FAILURES_PER_MINUTE: '0' })).toThrow(/TOKEN_FAILURES_PER_MINUTE/);
  });

  it.each([
    ['reportsPortAboveRange', { PORT: '65536' }, /PORT: /],
    ['reportsNegativePort', { PORT: '-1' }, /PORT: /],
    ['reportsPortThatIsNotANumber', { PORT: 'eighty' }, /PORT: /],
    ['reportsUnknownEnvironment', { NODE_ENV: 'staging' }, /NODE_ENV: /],
    ['reportsFlagThatIsNotABoolean', { ACCESS_ALLOW_SUBDOMAINS: 'yes' }, /ACCESS_ALLOW_SUBDOMAINS: /],
    ['reportsDatabaseUrlOfAnotherKind', { DATABASE_URL: 'mysql://db/handbook' }, /DATABASE_URL: /],
    ['reportsUnknownModelProvider', { COPILOT_PROVIDER: 'cohere' }, /COPILOT_PROVIDER: /],
    ['reportsProviderWithoutModel', { COPILOT_PROVIDER: 'anthropic', COPILOT_API_KEY: 'k' }, /COPILOT_MODEL: required/],
    ['reportsHostedProviderWithoutKey', { COPILOT_PROVIDER: 'openai', COPILOT_MODEL: 'gpt-5' }, /COPILOT_API_KEY: /],
    [
      'reportsCompatibleProviderWithoutBaseUrl',
      { COPILOT_PROVIDER: 'openai-compatible', COPILOT_MODEL: 'llama3.3' },
      /COPILOT_BASE_URL: required/,
    ],
    ['reportsBaseUrlThatIsNotHttp', { COPILOT_BASE_URL: 'file:///etc/passwd' }, /COPILOT_BASE_URL: /],
    [
      'reportsEmbeddingsFromAProviderWithout',
      { COPILOT_PROVIDER: 'anthropic', COPILOT_MODEL: 'm', COPILOT_API_KEY: 'k', COPILOT_EMBEDDING_MODEL: 'e' },
      /COPILOT_EMBEDDING_MODEL: Anthropic/,
    ],
    [
      'reportsPlainHttpModelGatewayInProduction',
      {
        ...production,
        COPILOT_PROVIDER: 'openai-compatible',
        COPILOT_MODEL: 'm',
        COPILOT_BASE_URL: 'http://gateway.example.com/v1',
      },
      /COPILOT_BASE_URL: must be https in production/,
    ],
    ['reportsTinyOutputLimit', { COPILOT_MAX_OUTPUT_TOKENS: '10' }, /COPILOT_MAX_OUTPUT_TOKENS: /],
    ['reportsZeroTimeout', { COPILOT_TIMEOUT_SECONDS: '0' }, /COPILOT_TIMEOUT_SECONDS: /],
  ])('%s', (_name, environment, message) => {
    expect(() => loadConfig(environment)).toThrow(message);
  });
});

describe('TRUST_PROXY', () => {
  it('reads addresses and CIDR ranges, and trusts no proxy by default', () => {
    expect(loadConfig({}).trustedProxies).toEqual([]);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 127.0.0.1 ::1,fd00::/8' }).trustedProxies).toEqual([
      '10.0.0.0/8',
      '127.0.0.1',
      '::1',
      'fd00::/8',
    ]);
  });

  it.each(['true', '10.0.0.0/33', 'balancer.internal', '10.0.0.1/8/2', '::1/129'])('refuses %s', (value) => {
    expect(() => loadConfig({ TRUST_PROXY: value })).toThrow(/TRUST_PROXY/);
  });
});

describe('REDIS_URL', () => {
  it('is no longer used: whatever it holds is noted as ignored, never refused', () => {
    expect(loadConfig({}).redisUrlIgnored).toBe(false);
    expect(loadConfig({ REDIS_URL: '  ' }).redisUrlIgnored).toBe(false);
    expect(loadConfig({ REDIS_URL: 'redis://cache:6379/2' }).redisUrlIgnored).toBe(true);
    expect(loadConfig({ REDIS_URL: 'cache:6379' }).redisUrlIgnored).toBe(true);
    expect(loadConfig({ REDIS_URL: 'rediss://:secret@cache.internal:6380' })).not.toHaveProperty('redisUrl');
  });
});

describe('metrics and maintenance', () => {
  it('serves no metrics unless METRICS_PORT is set, then on HOST or METRICS_HOST; maintains hourly by default', () => {
    expect(loadConfig({}).metrics).toBeUndefined();
    expect(loadConfig({ HOST: '0.0.0.0', ALLOW_DEVELOPMENT_SIGN_IN: 'true', METRICS_PORT: '9464' }).metrics).toEqual({
      host: '0.0.0.0',
      port: 9464,
    });
    expect(loadConfig({ METRICS_PORT: '9464', METRICS_HOST: '10.0.0.5' }).metrics?.host).toBe('10.0.0.5');
    expect(loadConfig({}).maintenanceIntervalMs).toBe(3_600_000);
    expect(loadConfig({ MAINTENANCE_INTERVAL_MINUTES: '15' }).maintenanceIntervalMs).toBe(900_000);
  });

  it.each([
    ['refusesMetricsOnThePublicPort', { PORT: '3000', METRICS_PORT: '3000' }, /METRICS_PORT: must differ from PORT/],
    ['reportsMetricsPortThatIsNotANumber', { METRICS_PORT: 'nine' }, /METRICS_PORT: /],
    ['reportsMetricsPortZero', { METRICS_PORT: '0' }, /METRICS_PORT: /],
    ['reportsZeroMaintenanceInterval', { MAINTENANCE_INTERVAL_MINUTES: '0' }, /MAINTENANCE_INTERVAL_MINUTES: /],
    ['reportsFractionalMaintenanceInterval', { MAINTENANCE_INTERVAL_MINUTES: '0.5' }, /MAINTENANCE_INTERVAL_MINUTES/],
  ])('%s', (_name, environment, message) => {
    expect(() => loadConfig(environment)).toThrow(message);
  });
});

describe('database timeouts and shutdown', () => {
  it('waits 5 s on PostgreSQL and drains for 10 s by default; fractions are allowed', () => {
    expect(loadConfig({}).databaseTimeouts).toEqual({ connectSeconds: 5, querySeconds: 5 });
    expect(loadConfig({}).shutdownTimeoutMs).toBe(10_000);
    const tuned = loadConfig({ DATABASE_CONNECT_TIMEOUT_SECONDS: '1.5', DATABASE_QUERY_TIMEOUT_SECONDS: '30' });
    expect(tuned.databaseTimeouts).toEqual({ connectSeconds: 1.5, querySeconds: 30 });
    expect(loadConfig({ SHUTDOWN_TIMEOUT_SECONDS: '2' }).shutdownTimeoutMs).toBe(2000);
  });

  it('waits up to 60 s at start for PostgreSQL to be reachable, or as long as told (0: not at all)', () => {
    expect(loadConfig({}).databaseStartupWaitMs).toBe(60_000);
    expect(loadConfig({ DATABASE_STARTUP_WAIT_SECONDS: '0' }).databaseStartupWaitMs).toBe(0);
    expect(() => loadConfig({ DATABASE_STARTUP_WAIT_SECONDS: '-1' })).toThrow(/DATABASE_STARTUP_WAIT_SECONDS: /);
    expect(() => loadConfig({ DATABASE_STARTUP_WAIT_SECONDS: '241' })).toThrow(/DATABASE_STARTUP_WAIT_SECONDS: /);
  });

  it.each([
    ['DATABASE_CONNECT_TIMEOUT_SECONDS', '0'],
    ['DATABASE_QUERY_TIMEOUT_SECONDS', 'soon'],
    ['DATABASE_QUERY_TIMEOUT_SECONDS', '-1'],
    ['SHUTDOWN_TIMEOUT_SECONDS', '601'],
  ])('refuses %s=%s', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(new RegExp(`${name}: `));
  });
});

describe('createDevelopmentProvider', () => {
  it('refusesToRunInProduction', () => {
    expect(() =>
      createDevelopmentProvider({
        issuer: 'https://docs.acme.dev/dev-idp',
        redirectUri: 'https://docs.acme.dev/auth/callback',
        environment: 'production',
        workspaceDomains: () => ['acme.dev', 'acme.io'],
      }),
    ).toThrow('NODE_ENV=production');
  });

  it('runs outside production', () => {
    const idp = createDevelopmentProvider({
      issuer: 'http://localhost:3000/dev-idp',
      redirectUri: 'http://localhost:3000/auth/callback',
      environment: 'test',
      workspaceDomains: () => ['acme.dev', 'acme.io'],
    });
    expect(idp.client.clientId).toBe('acme-handbook-development');
  });
});

describe('the caps on open connections', () => {
  it('caps 1,000 per address by default, leaves the total to the open-file limit, and refuses a cap of 0', () => {
    expect(loadConfig({}).connectionCaps).toEqual({ perAddress: 1000, total: undefined });
    expect(loadConfig({ MAX_CONNECTIONS: '900' }).connectionCaps.total).toBe(900);
    expect(() => loadConfig({ MAX_CONNECTIONS_PER_ADDRESS: '0', MAX_CONNECTIONS: '0' })).toThrow(
      /MAX_CONNECTIONS_PER_ADDRESS:[^\n]*\n[^\n]*MAX_CONNECTIONS:/,
    );
  });
});
