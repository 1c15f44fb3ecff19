import { isIP } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const googleIssuer = 'https://accounts.google.com';

const modelProviders = ['none', 'openai', 'anthropic', 'google', 'openai-compatible'] as const;

const booleanFlag = z.enum(['true', 'false', '1', '0']).transform((value) => value === 'true' || value === '1');
const optionalText = z
  .string()
  .optional()
  .transform((value) => (value?.trim() ? value.trim() : undefined));

const environmentSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  HOST: z.string().min(1).default('127.0.0.1'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  METRICS_PORT: optionalText.pipe(z.coerce.number<string | undefined>().int().min(1).max(65535).optional()),
  METRICS_HOST: optionalText,
  MAINTENANCE_INTERVAL_MINUTES: z.coerce.number().int().min(1).max(10_080).default(60),
  PUBLIC_URL: optionalText.pipe(z.url({ protocol: /^https?$/ }).optional()),
  TRUST_PROXY: z
    .string()
    .default('')
    .transform((value) => value.split(/[\s,]+/).filter(Boolean))
    .pipe(z.array(z.string().refine(isAddressOrRange, 'must list IP addresses or CIDR ranges, e.g. 10.0.0.0/8'))),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  LOG_FORMAT: z.enum(['json', 'pretty']).optional(),
  SITE_DIR: z
    .string()
    .min(1)
    .default(path.join(repoRoot, 'site', 'build')),
  DATA_DIR: z.string().min(1).default(path.join(repoRoot, 'data')),
  DATABASE_URL: optionalText.pipe(z.url({ protocol: /^postgres(ql)?$/ }).optional()),
  DATABASE_CONNECT_TIMEOUT_SECONDS: z.coerce.number().positive().max(120).default(5),
  DATABASE_QUERY_TIMEOUT_SECONDS: z.coerce.number().positive().max(600).default(5),
  SHUTDOWN_TIMEOUT_SECONDS: z.coerce.number().positive().max(600).default(10),
  OIDC_ISSUER: optionalText.pipe(z.url({ protocol: /^https?$/ }).optional()),
  OIDC_CLIENT_ID: optionalText,
  OIDC_CLIENT_SECRET: optionalText,
  SESSION_SECRET: optionalText.pipe(z.string().min(32, 'must be at least 32 characters').optional()),
  SESSION_IDLE_TIMEOUT_HOURS: z.coerce.number().positive().default(168),
  SESSION_ABSOLUTE_TIMEOUT_HOURS: z.coerce.number().positive().default(720),
  ACCESS_DOMAINS: z.string().default('acme.dev,acme.io,acme-labs.dev,acme.studio'),
  ACCESS_ADDRESSES: z.string().default('alex.partner@example.com,sam.contractor@example.org,qa.vendor@example.net'),
  ACCESS_ALLOW_SUBDOMAINS: booleanFlag.default(false),
  ACCESS_REQUIRE_HOSTED_DOMAIN: booleanFlag.optional(),
  ACCESS_POLICY_FILE: optionalText,
  MAINTAINERS: z.string().default(''),
  ALLOW_DEVELOPMENT_SIGN_IN: booleanFlag.default(false),
  ASK_REQUESTS_PER_MINUTE: z.coerce.number().int().positive().default(20),
  SEARCH_REQUESTS_PER_MINUTE: z.coerce.number().int().positive().default(300),
  SIGN_IN_REQUESTS_PER_MINUTE: z.coerce.number().int().positive().default(60),
  ASK_CONCURRENT_PER_USER: z.coerce.number().int().positive().default(2),
  REDIS_URL: optionalText.pipe(z.url({ protocol: /^rediss?$/ }).optional()),
  COPILOT_PROVIDER: z.enum(modelProviders).default('none'),
  COPILOT_MODEL: optionalText,
  COPILOT_API_KEY: optionalText,
  COPILOT_BASE_URL: optionalText.pipe(z.url({ protocol: /^https?$/ }).optional()),
  COPILOT_TIMEOUT_SECONDS: z.coerce.number().positive().max(600).default(60),
  COPILOT_VISION: booleanFlag.optional(),
  COPILOT_EMBEDDING_MODEL: optionalText,
  COPILOT_QUESTION_LOG_DAYS: z.coerce.number().int().min(1).max(3650).default(90),
  COPILOT_MAX_OUTPUT_TOKENS: z.coerce.number().int().min(256).max(65_536).default(4096),
});

function isAddressOrRange(entry: string): boolean {
  const [address = '', prefix, ...rest] = entry.split('/');
  const version = isIP(address);
  if (version === 0 || rest.length > 0) return false;
  return prefix === undefined || (/^\d{1,3}$/.test(prefix) && Number(prefix) <= (version === 4 ? 32 : 128));
}

const loopbackHost = /^(localhost|127(\.\d{1,3}){3}|\[::1\]|.+\.localhost)$/;

export type IdentityProvider =
  | { kind: 'development'; issuer: string }
  | { kind: 'google' | 'oidc'; issuer: string; clientId: string; clientSecret: string };

/** The ACCESS_* settings as written; auth/access-policy.ts reads them into the policy and refuses a bad entry. */
export type AccessSettings = {
  /** Comma- or space-separated; the first two are the "primary" domains named on the sign-in page. */
  domains: string;
  addresses: string;
  allowSubdomains: boolean;
  requireHostedDomain: boolean;
  /** Comma- or space-separated addresses of the docs maintainers, who see the insights page. */
  maintainers: string;
};

export type Config = {
  environment: 'development' | 'production' | 'test';
  host: string;
  port: number;
  /** Where Prometheus scrapes /metrics; undefined: no metrics listener. Never the public port. */
  metrics: { host: string; port: number } | undefined;
  /** How often expired sessions and old log entries are removed (once across instances on PostgreSQL). */
  maintenanceIntervalMs: number;
  /** The origin readers use, e.g. https://docs.acme.dev; redirects and cookies are built from it. */
  publicUrl: URL;
  /** The balancers whose X-Forwarded-For is believed for the reader's address; empty: none (the server faces readers). */
  trustedProxies: string[];
  /** True when the public URL is https: cookies get Secure and the __Host- prefix, responses get HSTS. */
  secureCookies: boolean;
  logLevel: z.infer<typeof environmentSchema>['LOG_LEVEL'];
  logFormat: 'json' | 'pretty';
  /** The built Docusaurus site that the server serves. */
  siteDirectory: string;
  dataDirectory: string;
  databaseUrl: string | undefined;
  /** PostgreSQL: past these a connection or query fails, and readers get a short 503 instead of waiting. */
  databaseTimeouts: { connectSeconds: number; querySeconds: number };
  /** On SIGTERM/SIGINT, how long running answers may go on before they are stopped and the server exits. */
  shutdownTimeoutMs: number;
  identityProvider: IdentityProvider;
  /** Seals the short-lived sign-in attempt cookie and tags session cookies. */
  sessionSecret: string;
  /** Development without SESSION_SECRET: where the server keeps the secret it made, so restarts keep sessions. */
  keptSessionSecretFile: string | undefined;
  sessionIdleTimeoutMs: number;
  sessionAbsoluteTimeoutMs: number;
  /** The policy's settings from the environment; ACCESS_POLICY_FILE, when set, replaces them (re-read on change). */
  accessSettings: AccessSettings;
  accessPolicyFile: string | undefined;
  /** Dev Copilot's limits per signed-in user. */
  askLimits: { requestsPerMinute: number; concurrentPerUser: number };
  /** Where the limits per reader are counted across instances; undefined: PostgreSQL when used, else this process. */
  redisUrl: string | undefined;
  searchRequestsPerMinute: number;
  /** Returns from the identity provider one address may make a minute: a whole office behind one NAT shares it. */
  signInRequestsPerMinute: number;
  /** Days the questions log keeps a question for the maintainers' report. */
  questionLogDays: number;
  /** The language model behind Dev Copilot; undefined means docs-only answers. */
  model: ModelSettings | undefined;
};

export type ModelSettings = {
  provider: Exclude<(typeof modelProviders)[number], 'none'>;
  model: string;
  apiKey: string | undefined;
  /** The provider's API root, e.g. http://localhost:11434/v1 for Ollama; undefined means the provider's own. */
  baseUrl: string | undefined;
  /** The whole answer must arrive within this; a stream that stalls for a third of it is cut too. */
  timeoutMs: number;
  /** Whether screenshots go to the model as images; otherwise their OCR text does. */
  vision: boolean;
  /** The longest answer, in tokens; reasoning models count their thinking in it too. */
  maxOutputTokens: number;
  /** An embedding model of the same provider; when set, retrieval ranks by meaning as well as by words. */
  embeddingModel: string | undefined;
};

/** The mount path of the embedded development identity provider. */
export const developmentIssuerPath = '/dev-idp';

function readableIssues(error: z.ZodError): string {
  return error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`).join('\n');
}

/** Only where the data lives (DATA_DIR, DATABASE_URL), for tools such as the report that need nothing else. */
export function loadStoreLocation(
  environment: NodeJS.ProcessEnv = process.env,
): Pick<Config, 'dataDirectory' | 'databaseUrl'> {
  const parsed = environmentSchema.pick({ DATA_DIR: true, DATABASE_URL: true }).safeParse(environment);
  if (!parsed.success) throw new Error(`Invalid configuration:\n${readableIssues(parsed.error)}`);
  return { dataDirectory: path.resolve(parsed.data.DATA_DIR), databaseUrl: parsed.data.DATABASE_URL };
}

/** Parses the environment once; a bad or missing value stops start-up with a message naming the variable. */
export function loadConfig(environment: NodeJS.ProcessEnv = process.env): Config {
  const parsed = environmentSchema.safeParse(environment);
  if (!parsed.success) throw new Error(`Invalid configuration:\n${readableIssues(parsed.error)}`);
  const values = parsed.data;
  const production = values.NODE_ENV === 'production';
  const problems: string[] = [];

  const publicUrl = new URL(values.PUBLIC_URL ?? `http://localhost:${values.PORT}`);
  const dataDirectory = path.resolve(values.DATA_DIR);
  if (publicUrl.pathname !== '/' || publicUrl.search || publicUrl.hash) {
    problems.push('  PUBLIC_URL: must be an origin only, like https://docs.acme.dev (no path)');
  }
  if (production && publicUrl.protocol !== 'https:') problems.push('  PUBLIC_URL: must be https in production');

  let identityProvider: IdentityProvider;
  if (values.OIDC_ISSUER) {
    if (!values.OIDC_CLIENT_ID) problems.push('  OIDC_CLIENT_ID: required when OIDC_ISSUER is set');
    if (!values.OIDC_CLIENT_SECRET) problems.push('  OIDC_CLIENT_SECRET: required when OIDC_ISSUER is set');
    const issuer = values.OIDC_ISSUER.replace(/\/$/, '');
    identityProvider = {
      kind: issuer === googleIssuer ? 'google' : 'oidc',
      issuer,
      clientId: values.OIDC_CLIENT_ID ?? '',
      clientSecret: values.OIDC_CLIENT_SECRET ?? '',
    };
  } else {
    if (production) problems.push('  OIDC_ISSUER: required in production (the development sign-in is refused there)');
    // The development sign-in believes any e-mail typed into it: keep it off anything but this machine by default.
    else if (!loopbackHost.test(publicUrl.hostname) && !values.ALLOW_DEVELOPMENT_SIGN_IN) {
      problems.push(
        `  OIDC_ISSUER: required when PUBLIC_URL (${publicUrl.host}) is not this machine; the development sign-in accepts any e-mail. Set ALLOW_DEVELOPMENT_SIGN_IN=true only for a throwaway test deployment`,
      );
    }
    identityProvider = { kind: 'development', issuer: new URL(developmentIssuerPath, publicUrl).href };
  }
  if (production && !values.SESSION_SECRET) problems.push('  SESSION_SECRET: required in production');
  // The public port is gated; metrics there would either leak to readers or sit behind the sign-in page.
  if (values.METRICS_PORT !== undefined && values.METRICS_PORT === values.PORT) {
    problems.push('  METRICS_PORT: must differ from PORT (metrics are never served on the public port)');
  }

  const model = modelSettings(values, problems);

  if (problems.length > 0) throw new Error(`Invalid configuration:\n${problems.join('\n')}`);
  return {
    environment: values.NODE_ENV,
    host: values.HOST,
    port: values.PORT,
    metrics:
      values.METRICS_PORT === undefined
        ? undefined
        : { host: values.METRICS_HOST ?? values.HOST, port: values.METRICS_PORT },
    maintenanceIntervalMs: values.MAINTENANCE_INTERVAL_MINUTES * 60_000,
    publicUrl,
    trustedProxies: values.TRUST_PROXY,
    secureCookies: publicUrl.protocol === 'https:',
    logLevel: values.LOG_LEVEL,
    // JSON lines for log collectors; pretty only for a developer reading a terminal.
    logFormat: values.LOG_FORMAT ?? (values.NODE_ENV === 'development' && process.stdout.isTTY ? 'pretty' : 'json'),
    siteDirectory: path.resolve(values.SITE_DIR),
    dataDirectory,
    databaseUrl: values.DATABASE_URL,
    databaseTimeouts: {
      connectSeconds: values.DATABASE_CONNECT_TIMEOUT_SECONDS,
      querySeconds: values.DATABASE_QUERY_TIMEOUT_SECONDS,
    },
    shutdownTimeoutMs: values.SHUTDOWN_TIMEOUT_SECONDS * 1000,
    identityProvider,
    sessionSecret: values.SESSION_SECRET ?? randomDevelopmentSecret(),
    // Development without SESSION_SECRET keeps one in DATA_DIR, so a restart does not sign every reader out.
    keptSessionSecretFile:
      values.NODE_ENV === 'development' && !values.SESSION_SECRET
        ? path.join(dataDirectory, 'session-secret')
        : undefined,
    sessionIdleTimeoutMs: values.SESSION_IDLE_TIMEOUT_HOURS * 3_600_000,
    sessionAbsoluteTimeoutMs: values.SESSION_ABSOLUTE_TIMEOUT_HOURS * 3_600_000,
    accessSettings: {
      domains: values.ACCESS_DOMAINS,
      addresses: values.ACCESS_ADDRESSES,
      allowSubdomains: values.ACCESS_ALLOW_SUBDOMAINS,
      requireHostedDomain: values.ACCESS_REQUIRE_HOSTED_DOMAIN ?? identityProvider.kind !== 'oidc',
      maintainers: values.MAINTAINERS,
    },
    accessPolicyFile: values.ACCESS_POLICY_FILE ? path.resolve(values.ACCESS_POLICY_FILE) : undefined,
    askLimits: { requestsPerMinute: values.ASK_REQUESTS_PER_MINUTE, concurrentPerUser: values.ASK_CONCURRENT_PER_USER },
    redisUrl: values.REDIS_URL,
    searchRequestsPerMinute: values.SEARCH_REQUESTS_PER_MINUTE,
    signInRequestsPerMinute: values.SIGN_IN_REQUESTS_PER_MINUTE,
    questionLogDays: values.COPILOT_QUESTION_LOG_DAYS,
    model,
  };
}

function modelSettings(values: z.infer<typeof environmentSchema>, problems: string[]): ModelSettings | undefined {
  const provider = values.COPILOT_PROVIDER;
  if (provider === 'none') return undefined;
  if (!values.COPILOT_MODEL) problems.push(`  COPILOT_MODEL: required when COPILOT_PROVIDER is ${provider}`);
  if (provider === 'openai-compatible' && !values.COPILOT_BASE_URL) {
    problems.push('  COPILOT_BASE_URL: required for openai-compatible (e.g. http://localhost:11434/v1 for Ollama)');
  }
  const baseUrl = values.COPILOT_BASE_URL ? new URL(values.COPILOT_BASE_URL) : undefined;
  if (values.NODE_ENV === 'production' && baseUrl?.protocol === 'http:' && !loopbackHost.test(baseUrl.hostname)) {
    problems.push(
      '  COPILOT_BASE_URL: must be https in production unless it is on this machine (the key would travel in clear)',
    );
  }
  // Hosted APIs refuse a call without a key; better to say so at start than on the first question.
  if (provider !== 'openai-compatible' && !values.COPILOT_API_KEY) {
    problems.push(`  COPILOT_API_KEY: required for ${provider}`);
  }
  if (provider === 'anthropic' && values.COPILOT_EMBEDDING_MODEL) {
    problems.push('  COPILOT_EMBEDDING_MODEL: Anthropic offers no embedding models; leave it empty');
  }
  return {
    provider,
    model: values.COPILOT_MODEL ?? '',
    apiKey: values.COPILOT_API_KEY,
    baseUrl: values.COPILOT_BASE_URL?.replace(/\/+$/, ''),
    timeoutMs: values.COPILOT_TIMEOUT_SECONDS * 1000,
    // The hosted providers' current models all read images; a self-hosted one often does not.
    vision: values.COPILOT_VISION ?? provider !== 'openai-compatible',
    embeddingModel: values.COPILOT_EMBEDDING_MODEL,
    maxOutputTokens: values.COPILOT_MAX_OUTPUT_TOKENS,
  };
}

/** A secret for this start alone: tests, and development when DATA_DIR cannot keep one. */
function randomDevelopmentSecret(): string {
  return crypto
    .getRandomValues(new Uint8Array(32))
    .reduce((text, byte) => text + byte.toString(16).padStart(2, '0'), '');
}
