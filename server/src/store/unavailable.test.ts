import { DrizzleQueryError } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { isDatabaseUnavailable, whileTheDatabaseIsAway } from './unavailable.js';

const withCode = (code: string) => Object.assign(new Error(`failed (${code})`), { code });
/** As Drizzle reports a failed query: the SQL and its parameters in the message, the driver's error as the cause. */
const failedQuery = (cause: Error) =>
  new DrizzleQueryError('select * from "sessions" where id_hash = $1', ['h'], cause);

describe('isDatabaseUnavailable', () => {
  it.each([
    ['a refused connection', withCode('ECONNREFUSED')],
    ['a reset connection', withCode('ECONNRESET')],
    ["postgres.js's connect timeout", withCode('CONNECT_TIMEOUT')],
    ['a connection that went silent', withCode('DATABASE_SILENT')],
    ['a statement timeout (57014)', withCode('57014')],
    ['an administrator shutdown (57P01)', withCode('57P01')],
    ['too many connections (53300)', withCode('53300')],
    ['a connection failure (08006)', withCode('08006')],
    ['every address refused', new AggregateError([withCode('ECONNREFUSED'), withCode('ECONNREFUSED')])],
  ])('is true for %s, also wrapped by Drizzle', (_name, error) => {
    expect(isDatabaseUnavailable(error)).toBe(true);
    expect(isDatabaseUnavailable(failedQuery(error))).toBe(true);
  });

  it.each([
    ['a unique violation (23505)', withCode('23505')],
    ['a syntax error (42601)', withCode('42601')],
    ['an error without a code', new Error('PGlite is closed')],
    ['a file error that is not the network', withCode('ENOENT')],
  ])('is false for %s: a fault of ours, not an outage', (_name, error) => {
    expect(isDatabaseUnavailable(error)).toBe(false);
    expect(isDatabaseUnavailable(failedQuery(error))).toBe(false);
  });

  it('survives an error that is its own cause', () => {
    const looping = withCode('23505');
    Object.assign(looping, { cause: looping });
    expect(isDatabaseUnavailable(looping)).toBe(false);
  });
});

describe('whileTheDatabaseIsAway', () => {
  it('tries a write again while the database is away', async () => {
    let calls = 0;
    const away = Object.assign(new Error('the database system is shutting down'), { code: '57P03' });
    const written = await whileTheDatabaseIsAway(
      async () => {
        calls += 1;
        if (calls < 3) throw away;
        return 'kept';
      },
      Date.now() + 5_000,
      () => {},
    );
    expect([written, calls]).toEqual(['kept', 3]);
  });

  it.each([
    ["PostgreSQL's disk_full", Object.assign(new Error('could not extend file'), { code: '53100' })],
    ["the system's own ENOSPC", Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' })],
  ])('tries a write again while the disk is full (%s), until space comes back', async (_name, full) => {
    let calls = 0;
    const written = await whileTheDatabaseIsAway(
      async () => {
        calls += 1;
        if (calls < 3) throw new Error('query failed', { cause: full });
        return 'kept';
      },
      Date.now() + 5_000,
      () => {},
    );
    expect([written, calls]).toEqual(['kept', 3]);
  });

  it('gives up within a deadline that came closer during a pause, and at once on any other failure', async () => {
    let giveUpAt = Date.now() + 30_000;
    const away = Object.assign(new Error('connection refused'), { code: 'ECONNREFUSED' });
    let calls = 0;
    const started = Date.now();
    const outcome = whileTheDatabaseIsAway(
      async () => {
        calls += 1;
        throw away;
      },
      () => giveUpAt,
      () => {},
    ).catch((error: unknown) => error);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    giveUpAt = Date.now() + 300;
    expect(await outcome).toBe(away);
    expect(Date.now() - started).toBeLessThan(1800);

    calls = 0;
    const wrong = Object.assign(new Error('duplicate key'), { code: '23505' });
    const refused = await whileTheDatabaseIsAway(
      async () => {
        calls += 1;
        throw wrong;
      },
      Date.now() + 5_000,
      () => {},
    ).catch((error: unknown) => error);
    expect([refused, calls]).toEqual([wrong, 1]);
  });
});
