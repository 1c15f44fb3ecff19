import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { count, directory, flag, isLoopbackHost, proxyList, seconds, text, url, webUrl } from './environment-values.js';

const googleIssuer = 'https://accounts.google.com';
const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** The mount path of the embedded development identity provider. */
export const developmentIssuerPath = '/dev-idp';

/** The environment as written: every variable README lists, with its default. */
const environmentSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  HOST: z.string().min(1).default('127.0.0.1'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  METRICS_PORT: text.pipe(z.coerce.number<string | undefined>().int().min(1).max(65535).optional()),
  METRICS_HOST: text,
  MAINTENANCE_INTERVAL_MINUTES: z.coerce.number().int().min(1).max(10_080).default(60),
  PUBLIC_URL: webUrl,
  TRUST_PROXY: proxyList,
  MAX_CONNECTIONS_PER_ADDRESS: count(1000),
  MAX_CONNECTIONS: text.pipe(z.coerce.number<string | undefined>().int().positive().optional()),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  LOG_FORMAT: z.enum(['json', 'pretty']).optional(),
  SITE_DIR: directory(path.join(repoRoot, 'site', 'build')),
  DATA_DIR: directory(path.join(repoRoot, 'data')),
  DATABASE_URL: url(/^postgres(ql)?$/),
  DATABASE_CONNECT_TIMEOUT_SECONDS: seconds(5, 120),
  DATABASE_QUERY_TIMEOUT_SECONDS: seconds(5, 600),
  // At most 240: the store is opened inside a Fastify plugin, which may take 300 s (app.ts).
  DATABASE_STARTUP_WAIT_SECONDS: z.coerce.number().min(0).max(240).default(60),
  SHUTDOWN_TIMEOUT_SECONDS: seconds(10, 600),
  OIDC_ISSUER: webUrl.transform((issuer) => issuer?.replace(/\/$/, '')),
  OIDC_CLIENT_ID: text,
  OIDC_CLIENT_SECRET: text,
  SESSION_SECRET: text.pipe(z.string().min(32, 'must be at least 32 characters').optional()),
  SESSION_IDLE_TIMEOUT_HOURS: z.coerce.number().positive().default(168),
  SESSION_ABSOLUTE_TIMEOUT_HOURS: z.coerce.number().positive().default(720),
  ACCESS_DOMAINS: z.string().default('acme.dev,acme.io,acme-labs.dev,acme.studio'),
  ACCESS_ADDRESSES: z.string().default('alex.partner@example.com,sam.contractor@example.org,qa.vendor@example.net'),
  ACCESS_ALLOW_SUBDOMAINS: flag.default(false),
  ACCESS_REQUIRE_HOSTED_DOMAIN: flag.optional(),
  ACCESS_BLOCKED_ADDRESSES: z.string().default(''),
  ACCESS_POLICY_FILE: text.transform((file) => (file ? path.resolve(file) : undefined)),
  MAINTAINERS: z.string().default(''),
  ALLOW_DEVELOPMENT_SIGN_IN: flag.default(false),
  ASK_REQUESTS_PER_MINUTE: count(20),
  SEARCH_REQUESTS_PER_MINUTE: count(300),
  THREAD_CREATIONS_PER_MINUTE: count(60),
  SIGN_IN_REQUESTS_PER_MINUTE: count(60),
  TOKEN_FAILURES_PER_MINUTE: count(30),
  ASK_CONCURRENT_PER_USER: count(2),
  REDIS_URL: text, // No longer used (the limits are shared through PostgreSQL): read only to warn who sets it.
  COPILOT_PROVIDER: z.enum(['none', 'openai', 'anthropic', 'google', 'openai-compatible']).default('none'),
  COPILOT_MODEL: text,
  COPILOT_API_KEY: text,
  COPILOT_BASE_URL: webUrl,
  COPILOT_TIMEOUT_SECONDS: seconds(60, 600),
  COPILOT_VISION: flag.optional(),
  COPILOT_EMBEDDING_MODEL: text,
  COPILOT_QUESTION_LOG_DAYS: z.coerce.number().int().min(1).max(3650).default(90),
  COPILOT_MAX_OUTPUT_TOKENS: z.coerce.number().int().min(256).max(65_536).default(4096),
});

type Environment = z.output<typeof environmentSchema>;
/** Records a problem that needs more than one variable to see; start-up names them all at once. */
type Report = (variable: keyof Environment, message: string) => void;

/** The environment read into what the code uses, refused with every cross-variable problem named. */
const configSchema = environmentSchema.transform((values, context) => {
  const report: Report = (variable, message) => context.addIssue({ code: 'custom', path: [variable], message });
  const production = values.NODE_ENV === 'production';
  const keepsSecret = values.NODE_ENV === 'development' && !values.SESSION_SECRET;
  const { DATABASE_CONNECT_TIMEOUT_SECONDS: connectSeconds, DATABASE_QUERY_TIMEOUT_SECONDS: querySeconds } = values;
  const publicUrl = new URL(values.PUBLIC_URL ?? `http://localhost:${values.PORT}`);
  if (publicUrl.pathname !== '/' || publicUrl.search || publicUrl.hash) {
    report('PUBLIC_URL', 'must be an origin only, like https://docs.acme.dev (no path)');
  }
  if (production && publicUrl.protocol !== 'https:') report('PUBLIC_URL', 'must be https in production');
  const identityProvider = identityProviderOf(values, publicUrl, report);
  if (production && !values.SESSION_SECRET) report('SESSION_SECRET', 'required in production');
  // The public port is gated; metrics there would either leak to readers or sit behind the sign-in page.
  if (values.METRICS_PORT !== undefined && values.METRICS_PORT === values.PORT) {
    report('METRICS_PORT', 'must differ from PORT (metrics are never served on the public port)');
  }
  return {
    environment: values.NODE_ENV,
    host: values.HOST,
    port: values.PORT,
    /** Where Prometheus scrapes /metrics; undefined: no metrics listener. Never the public port. */
    metrics: values.METRICS_PORT ? { host: values.METRICS_HOST ?? values.HOST, port: values.METRICS_PORT } : undefined,
    maintenanceIntervalMs: values.MAINTENANCE_INTERVAL_MINUTES * 60_000,
    /** The origin readers use, e.g. https://docs.acme.dev; redirects and cookies are built from it. */
    publicUrl,
    /** The balancers whose X-Forwarded-For is believed for the reader's address; empty: the server faces readers. */
    trustedProxies: values.TRUST_PROXY,
    /**
     * Open connections one address (IPv6: its /64) may hold, a trusted proxy's not counted, and all may hold together;
     * total undefined: derived from the open-file limit (connection-caps.ts).
     */
    connectionCaps: { perAddress: values.MAX_CONNECTIONS_PER_ADDRESS, total: values.MAX_CONNECTIONS },
    /** True when the public URL is https: cookies get Secure and the __Host- prefix, responses get HSTS. */
    secureCookies: publicUrl.protocol === 'https:',
    logLevel: values.LOG_LEVEL,
    // JSON lines for log collectors; pretty only for a developer reading a terminal.
    logFormat: values.LOG_FORMAT ?? (values.NODE_ENV === 'development' && process.stdout.isTTY ? 'pretty' : 'json'),
    siteDirectory: values.SITE_DIR,
    dataDirectory: values.DATA_DIR,
    databaseUrl: values.DATABASE_URL,
    databaseTimeouts: { connectSeconds, querySeconds },
    /** How long a start waits for PostgreSQL to be reachable before it gives up (0: not at all). */
    databaseStartupWaitMs: values.DATABASE_STARTUP_WAIT_SECONDS * 1000,
    shutdownTimeoutMs: values.SHUTDOWN_TIMEOUT_SECONDS * 1000,
    identityProvider,
    sessionSecret: values.SESSION_SECRET ?? randomDevelopmentSecret(),
    /** Development without SESSION_SECRET keeps one in DATA_DIR, so a restart does not sign every reader out. */
    keptSessionSecretFile: keepsSecret ? path.join(values.DATA_DIR, 'session-secret') : undefined,
    sessionIdleTimeoutMs: values.SESSION_IDLE_TIMEOUT_HOURS * 3_600_000,
    sessionAbsoluteTimeoutMs: values.SESSION_ABSOLUTE_TIMEOUT_HOURS * 3_600_000,
    /** The ACCESS_* settings as written; auth/access-policy.ts reads them and refuses a bad entry. */
    accessSettings: {
      /** Comma- or space-separated; the first two are the "primary" domains named on the sign-in page. */
      domains: values.ACCESS_DOMAINS,
      addresses: values.ACCESS_ADDRESSES,
      allowSubdomains: values.ACCESS_ALLOW_SUBDOMAINS,
      requireHostedDomain: values.ACCESS_REQUIRE_HOSTED_DOMAIN ?? identityProvider.kind !== 'oidc',
      maintainers: values.MAINTAINERS,
      blocked: values.ACCESS_BLOCKED_ADDRESSES,
    },
    accessPolicyFile: values.ACCESS_POLICY_FILE,
    askLimits: { requestsPerMinute: values.ASK_REQUESTS_PER_MINUTE, concurrentPerUser: values.ASK_CONCURRENT_PER_USER },
    redisUrlIgnored: values.REDIS_URL !== undefined, // The limits plugin warns at start that it is ignored.
    searchRequestsPerMinute: values.SEARCH_REQUESTS_PER_MINUTE,
    threadCreationsPerMinute: values.THREAD_CREATIONS_PER_MINUTE,
    signInRequestsPerMinute: values.SIGN_IN_REQUESTS_PER_MINUTE,
    tokenFailuresPerMinute: values.TOKEN_FAILURES_PER_MINUTE,
    questionLogDays: values.COPILOT_QUESTION_LOG_DAYS,
    /** The language model behind Dev Copilot; undefined means docs-only answers. */
    model: modelSettings(values, report),
  };
});

export type Config = z.output<typeof configSchema>;
export type IdentityProvider = Config['identityProvider'];
export type AccessSettings = Config['accessSettings'];
export type ModelSettings = NonNullable<Config['model']>;

function identityProviderOf(values: Environment, publicUrl: URL, report: Report) {
  const { OIDC_ISSUER: issuer, OIDC_CLIENT_ID: clientId = '', OIDC_CLIENT_SECRET: clientSecret = '' } = values;
  if (issuer) {
    if (!clientId) report('OIDC_CLIENT_ID', 'required when OIDC_ISSUER is set');
    if (!clientSecret) report('OIDC_CLIENT_SECRET', 'required when OIDC_ISSUER is set');
    return { kind: issuer === googleIssuer ? 'google' : 'oidc', issuer, clientId, clientSecret } as const;
  }
  if (values.NODE_ENV === 'production') {
    report('OIDC_ISSUER', 'required in production (the development sign-in is refused there)');
  } else if (!values.ALLOW_DEVELOPMENT_SIGN_IN) {
    // The development sign-in believes any e-mail typed into it: keep it off anything but this machine by default,
    // both the origin readers use and the interface the server listens on (HOST=0.0.0.0 with the default PUBLIC_URL
    // let anyone on the network sign in as anyone).
    const beyond = !isLoopbackHost(publicUrl.hostname)
      ? `PUBLIC_URL (${publicUrl.host}) is not this machine`
      : !isLoopbackHost(values.HOST === '::1' ? '[::1]' : values.HOST)
        ? `HOST (${values.HOST}) listens beyond this machine`
        : undefined;
    if (beyond) {
      const anyEmail = `required when ${beyond}; the development sign-in accepts any e-mail. Set ALLOW_DEVELOPMENT_SIGN_IN=true only for a throwaway test deployment`;
      report('OIDC_ISSUER', anyEmail);
    }
  }
  return { kind: 'development', issuer: new URL(developmentIssuerPath, publicUrl).href } as const;
}

function modelSettings(values: Environment, report: Report) {
  const provider = values.COPILOT_PROVIDER;
  if (provider === 'none') return undefined;
  if (!values.COPILOT_MODEL) report('COPILOT_MODEL', `required when COPILOT_PROVIDER is ${provider}`);
  if (provider === 'openai-compatible' && !values.COPILOT_BASE_URL) {
    report('COPILOT_BASE_URL', 'required for openai-compatible (e.g. http://localhost:11434/v1 for Ollama)');
  }
  const baseUrl = values.COPILOT_BASE_URL ? new URL(values.COPILOT_BASE_URL) : undefined;
  const inClear = 'must be https in production unless it is on this machine (the key would travel in clear)';
  if (values.NODE_ENV === 'production' && baseUrl?.protocol === 'http:' && !isLoopbackHost(baseUrl.hostname)) {
    report('COPILOT_BASE_URL', inClear);
  }
  // Hosted APIs refuse a call without a key; better to say so at start than on the first question.
  if (provider !== 'openai-compatible' && !values.COPILOT_API_KEY) {
    report('COPILOT_API_KEY', `required for ${provider}`);
  }
  if (provider === 'anthropic' && values.COPILOT_EMBEDDING_MODEL) {
    report('COPILOT_EMBEDDING_MODEL', 'Anthropic offers no embedding models; leave it empty');
  }
  return {
    provider,
    model: values.COPILOT_MODEL ?? '',
    apiKey: values.COPILOT_API_KEY,
    baseUrl: values.COPILOT_BASE_URL?.replace(/\/+$/, ''),
    /** The whole answer must arrive within this; a stream that stalls for a third of it is cut too. */
    timeoutMs: values.COPILOT_TIMEOUT_SECONDS * 1000,
    /** Whether screenshots go to the model as images (the hosted providers' models all read them); else OCR text. */
    vision: values.COPILOT_VISION ?? provider !== 'openai-compatible',
    embeddingModel: values.COPILOT_EMBEDDING_MODEL,
    maxOutputTokens: values.COPILOT_MAX_OUTPUT_TOKENS,
  };
}

/** A secret for this start alone: tests, and development when DATA_DIR cannot keep one. */
const randomDevelopmentSecret = () => Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('hex');

function parsed<Schema extends z.ZodType>(schema: Schema, environment: NodeJS.ProcessEnv): z.output<Schema> {
  const result = schema.safeParse(environment);
  if (result.success) return result.data;
  const lines = result.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
  throw new Error(`Invalid configuration:\n${lines.join('\n')}`);
}

/** Parses the environment once; a bad or missing value stops start-up with a message naming the variable. */
export const loadConfig = (environment: NodeJS.ProcessEnv = process.env): Config => parsed(configSchema, environment);

/** Only where the data lives (DATA_DIR, DATABASE_URL), for tools such as the report that need nothing else. */
export function loadStoreLocation(environment: NodeJS.ProcessEnv = process.env) {
  const values = parsed(environmentSchema.pick({ DATA_DIR: true, DATABASE_URL: true }), environment);
  return { dataDirectory: values.DATA_DIR, databaseUrl: values.DATABASE_URL };
}
