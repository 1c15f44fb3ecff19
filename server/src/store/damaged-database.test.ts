import {
  closeSync,
  cpSync,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from './database.js';
import { embeddedDatabaseTemplate } from './embedded-database.js';

/**
 * An embedded database whose files were overwritten (a failing disk, a half-copied backup) must not start with
 * PGlite's toolchain text ("Aborted(). Build with -sASSERTIONS…") but say what is wrong and what to do about it.
 */
const workDirectory = mkdtempSync(path.join(tmpdir(), 'acme-damaged-database-'));
const healthy = path.join(workDirectory, 'healthy');

beforeAll(async () => {
  const store = await openStore({ dataDirectory: healthy });
  await store.close();
}, 60_000);
afterAll(() => rmSync(workDirectory, { recursive: true, force: true }));

/** Overwrites the first `length` bytes of `file` (all of it by default) with bytes no PostgreSQL file holds. */
function overwrite(file: string, length = statSync(file).size) {
  const handle = openSync(file, 'r+');
  writeSync(handle, Buffer.alloc(length, 'damaged!'), 0, length, 0);
  closeSync(handle);
}

const damages = [
  { part: 'the write-ahead log', file: 'pg_wal/000000010000000000000001' },
  { part: 'pg_control', file: 'global/pg_control' },
  { part: 'a relation file (pg_class)', file: 'base/5/1259', length: 8192 },
  { part: 'PG_VERSION', file: 'PG_VERSION', length: 5 },
];

describe('an embedded database with damaged files', () => {
  it.each(damages)(
    'names the directory and the ways out when $part is damaged',
    async ({ part, file, length }) => {
      const dataDirectory = path.join(workDirectory, part.replaceAll(/\W+/g, '-'));
      cpSync(healthy, dataDirectory, { recursive: true });
      overwrite(path.join(dataDirectory, file), length);

      const opening = openStore({ dataDirectory });
      await expect(opening).rejects.toThrow(
        `The embedded database in ${dataDirectory} is damaged or unreadable. Restore DATA_DIR from a backup`,
      );
      const { message } = await opening.then(
        () => new Error('it opened'),
        (error: Error) => error,
      );
      expect(message).toContain(`or move ${dataDirectory} aside to start with an empty database`);
      expect(message).toContain('losing every session and chat');
      expect(message).not.toMatch(/Aborted|ASSERTIONS|initialize properly/);
      expect(message.split('\n')).toHaveLength(1);
    },
    60_000,
  );

  it('does not call a whole directory of another PostgreSQL release damaged', async () => {
    const dataDirectory = path.join(workDirectory, 'older-release');
    cpSync(healthy, dataDirectory, { recursive: true });
    const ours = readFileSync(path.join(embeddedDatabaseTemplate, 'PG_VERSION'), 'utf8').trim();
    const theirs = String(Number(ours) - 1);
    writeFileSync(path.join(dataDirectory, 'PG_VERSION'), `${theirs}\n`);

    await expect(openStore({ dataDirectory })).rejects.toThrow(
      `${dataDirectory} was made by PostgreSQL ${theirs}, not this release's PostgreSQL ${ours}`,
    );
  }, 60_000);
});
