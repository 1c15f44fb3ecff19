import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { type AccessPolicy, parseAccessPolicy } from './auth/access-policy.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const googleIssuer = 'https://accounts.google.com';

const booleanFlag = z.enum(['true', 'false', '1', '0']).transform((value) => value === 'true' || value === '1');
const optionalText = z
  .string()
  .optional()
  .transform((value) => (value?.trim() ? value.trim() : undefined));

const environmentSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  HOST: z.string().min(1).default('127.0.0.1'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  PUBLIC_URL: optionalText.pipe(z.url({ protocol: /^https?$/ }).optional()),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  SITE_DIR: z
    .string()
    .min(1)
    .default(path.join(repoRoot, 'site', 'build')),
  DATA_DIR: z.string().min(1).default(path.join(repoRoot, 'data')),
  DATABASE_URL: optionalText.pipe(z.url({ protocol: /^postgres(ql)?$/ }).optional()),
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
  ALLOW_DEVELOPMENT_SIGN_IN: booleanFlag.default(false),
  ASK_REQUESTS_PER_MINUTE: z.coerce.number().int().positive().default(20),
  ASK_CONCURRENT_PER_USER: z.coerce.number().int().positive().default(2),
});

const loopbackHost = /^(localhost|127(\.\d{1,3}){3}|\[::1\]|.+\.localhost)$/;

export type IdentityProvider =
  | { kind: 'development'; issuer: string }
  | { kind: 'google' | 'oidc'; issuer: string; clientId: string; clientSecret: string };

export type Config = {
  environment: 'development' | 'production' | 'test';
  host: string;
  port: number;
  /** The origin readers use, e.g. https://docs.acme.dev; redirects and cookies are built from it. */
  publicUrl: URL;
  /** True when the public URL is https: cookies get Secure and the __Host- prefix, responses get HSTS. */
  secureCookies: boolean;
  logLevel: z.infer<typeof environmentSchema>['LOG_LEVEL'];
  /** The built Docusaurus site that the server serves. */
  siteDirectory: string;
  dataDirectory: string;
  databaseUrl: string | undefined;
  identityProvider: IdentityProvider;
  /** Signs the short-lived sign-in state cookie. */
  sessionSecret: string;
  sessionIdleTimeoutMs: number;
  sessionAbsoluteTimeoutMs: number;
  /** The policy from the environment; ACCESS_POLICY_FILE, when set, replaces it and is re-read when it changes. */
  accessPolicy: AccessPolicy;
  accessPolicyFile: string | undefined;
  /** Dev Copilot's limits per signed-in user. */
  askLimits: { requestsPerMinute: number; concurrentPerUser: number };
};

/** The mount path of the embedded development identity provider. */
export const developmentIssuerPath = '/dev-idp';

function readableIssues(error: z.ZodError): string {
  return error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`).join('\n');
}

/** Parses the environment once; a bad or missing value stops start-up with a message naming the variable. */
export function loadConfig(environment: NodeJS.ProcessEnv = process.env): Config {
  const parsed = environmentSchema.safeParse(environment);
  if (!parsed.success) throw new Error(`Invalid configuration:\n${readableIssues(parsed.error)}`);
  const values = parsed.data;
  const production = values.NODE_ENV === 'production';
  const problems: string[] = [];

  const publicUrl = new URL(values.PUBLIC_URL ?? `http://localhost:${values.PORT}`);
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

  let accessPolicy: AccessPolicy | undefined;
  try {
    accessPolicy = parseAccessPolicy({
      domains: values.ACCESS_DOMAINS,
      addresses: values.ACCESS_ADDRESSES,
      allowSubdomains: values.ACCESS_ALLOW_SUBDOMAINS,
      requireHostedDomain: values.ACCESS_REQUIRE_HOSTED_DOMAIN ?? identityProvider.kind !== 'oidc',
    });
  } catch (error) {
    problems.push(`  ACCESS_DOMAINS / ACCESS_ADDRESSES: ${(error as Error).message}`);
  }

  if (problems.length > 0 || !accessPolicy) throw new Error(`Invalid configuration:\n${problems.join('\n')}`);
  return {
    environment: values.NODE_ENV,
    host: values.HOST,
    port: values.PORT,
    publicUrl,
    secureCookies: publicUrl.protocol === 'https:',
    logLevel: values.LOG_LEVEL,
    siteDirectory: path.resolve(values.SITE_DIR),
    dataDirectory: path.resolve(values.DATA_DIR),
    databaseUrl: values.DATABASE_URL,
    identityProvider,
    sessionSecret: values.SESSION_SECRET ?? randomDevelopmentSecret(),
    sessionIdleTimeoutMs: values.SESSION_IDLE_TIMEOUT_HOURS * 3_600_000,
    sessionAbsoluteTimeoutMs: values.SESSION_ABSOLUTE_TIMEOUT_HOURS * 3_600_000,
    accessPolicy,
    accessPolicyFile: values.ACCESS_POLICY_FILE ? path.resolve(values.ACCESS_POLICY_FILE) : undefined,
    askLimits: { requestsPerMinute: values.ASK_REQUESTS_PER_MINUTE, concurrentPerUser: values.ASK_CONCURRENT_PER_USER },
  };
}

/** Outside production a fresh secret per start is fine: it only signs sign-in attempts in flight. */
function randomDevelopmentSecret(): string {
  return crypto
    .getRandomValues(new Uint8Array(32))
    .reduce((text, byte) => text + byte.toString(16).padStart(2, '0'), '');
}
