import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

const environmentSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  HOST: z.string().min(1).default('127.0.0.1'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  SITE_DIR: z
    .string()
    .min(1)
    .default(path.join(repoRoot, 'site', 'build')),
});

export type Config = {
  environment: 'development' | 'production' | 'test';
  host: string;
  port: number;
  logLevel: z.infer<typeof environmentSchema>['LOG_LEVEL'];
  /** The built Docusaurus site that the server serves. */
  siteDirectory: string;
};

/** Parses the environment once; a bad value stops start-up with a message naming the variable. */
export function loadConfig(environment: NodeJS.ProcessEnv = process.env): Config {
  const parsed = environmentSchema.safeParse(environment);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`).join('\n');
    throw new Error(`Invalid configuration:\n${problems}`);
  }
  const values = parsed.data;
  return {
    environment: values.NODE_ENV,
    host: values.HOST,
    port: values.PORT,
    logLevel: values.LOG_LEVEL,
    siteDirectory: path.resolve(values.SITE_DIR),
  };
}
