/** A PostgreSQL connection URL, checked before use, with a name that is safe to print. */
export type PostgresUrl = { url: string; displayName: string };

export function parsePostgresUrl(databaseUrl: string): PostgresUrl {
  let parsed: URL;
  try {
    parsed = new URL(databaseUrl);
  } catch {
    throw new Error('DATABASE_URL is not a valid URL; expected postgres://user:password@host:5432/database');
  }
  if (parsed.protocol !== 'postgres:' && parsed.protocol !== 'postgresql:') {
    throw new Error(`DATABASE_URL must start with postgres:// or postgresql://, not ${parsed.protocol}//`);
  }
  if (parsed.pathname === '' || parsed.pathname === '/') {
    throw new Error('DATABASE_URL names no database; expected postgres://user:password@host:5432/database');
  }
  return { url: databaseUrl, displayName: redactPostgresUrl(parsed) };
}

/** The URL without password or query parameters (which may carry one), for messages and logs. */
export function redactPostgresUrl(url: URL): string {
  const user = url.username === '' ? '' : `${url.username}@`;
  return `${url.protocol}//${user}${url.host}${url.pathname}`;
}
