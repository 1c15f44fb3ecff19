import { chmodSync, cpSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { preparedSearchFile } from '../server/src/search/prepared-search.js';
import { copilotClient } from './ask-fixtures';
import { siteBuildDirectory } from './harness';
import { type Instance, startTestInstance } from './instance-process';
import { sessionCookieFor } from './sign-in';

/**
 * The compiled server on the embedded database writes nothing another local user can read or change: the copied
 * PGlite template, the files PGlite makes as readers write (the write-ahead log holds their questions and e-mail
 * addresses), the lock, the kept session secret and the search it made for a build without a prepared one. A looser DATA_DIR left from before is tightened, with a warning.
 */
const workDirectory = mkdtempSync(path.join(tmpdir(), 'acme-data-modes-'));
const instances: Instance[] = [];

afterAll(async () => {
  await Promise.all(instances.map((instance) => instance.stop('SIGKILL')));
  rmSync(workDirectory, { recursive: true, force: true });
});

async function startOn(dataDirectory: string, name: string, environment: Record<string, string> = {}) {
  // No SESSION_SECRET: development keeps one in DATA_DIR, which must be private too.
  const instance = await startTestInstance(
    workDirectory,
    { NODE_ENV: 'development', DATA_DIR: dataDirectory, ...environment },
    { name },
  );
  instances.push(instance);
  return instance;
}

/** Every file and folder under `root` (itself included) whose mode lets group or others in, with its mode. */
function openToOthers(root: string): string[] {
  const found: string[] = [];
  const visit = (entry: string) => {
    const stats = lstatSync(entry);
    if (stats.isSymbolicLink()) return;
    if ((stats.mode & 0o077) !== 0) found.push(`${entry} ${(stats.mode & 0o777).toString(8)}`);
    if (stats.isDirectory()) for (const name of readdirSync(entry)) visit(path.join(entry, name));
  };
  visit(root);
  return found;
}

function countEntries(root: string): number {
  const stats = lstatSync(root);
  return (
    1 +
    (stats.isDirectory() ? readdirSync(root).reduce((sum, name) => sum + countEntries(path.join(root, name)), 0) : 0)
  );
}

/** A reader signs in, starts a chat and asks: sessions, threads and questions are written, PGlite makes files. */
async function writeSomething(instance: Instance) {
  const copilot = copilotClient(instance.url, await sessionCookieFor(instance.url, 'modes@acme.dev'));
  await copilot.newThread();
  const text = 'How do I create a TTL policy for expireAt in Firestore?';
  const answer = await copilot.ask({
    messages: [{ role: 'user', content: [{ type: 'text', text }], attachments: [] }],
  });
  expect(answer.status).toBe(200);
}

const dataDirectoryWarnings = (instance: Instance) =>
  instance
    .logLines()
    .filter((line) => line.level === 40 && String(line.msg).includes('DATA_DIR'))
    .map((line) => String(line.msg));

describe('the files the server writes under DATA_DIR', () => {
  it('deniesOtherLocalUsersTheEmbeddedDatabase: a fresh DATA_DIR is 0700 folders and 0600 files, after writes too', async () => {
    const dataDirectory = path.join(workDirectory, 'fresh', 'data');
    const instance = await startOn(dataDirectory, 'fresh');
    await writeSomething(instance);
    expect(await instance.stop()).toBe(0);

    expect(countEntries(dataDirectory)).toBeGreaterThan(100);
    expect(openToOthers(dataDirectory)).toEqual([]);
    expect(lstatSync(path.join(dataDirectory, 'pglite', 'PG_VERSION')).mode & 0o777).toBe(0o600);
    expect(lstatSync(path.join(dataDirectory, 'pglite')).mode & 0o777).toBe(0o700);
    expect(lstatSync(dataDirectory).mode & 0o777).toBe(0o700);
    expect(dataDirectoryWarnings(instance)).toEqual([]);
  });

  it('tightensALooserDataDirectory left open to other users, and says so', async () => {
    const dataDirectory = path.join(workDirectory, 'loose');
    mkdirSync(path.join(dataDirectory, 'notes'), { recursive: true });
    chmodSync(dataDirectory, 0o755);
    chmodSync(path.join(dataDirectory, 'notes'), 0o777);
    writeFileSync(path.join(dataDirectory, 'notes', 'restored-from-backup'), 'x');
    chmodSync(path.join(dataDirectory, 'notes', 'restored-from-backup'), 0o666);

    const instance = await startOn(dataDirectory, 'loose');
    await writeSomething(instance);
    expect(await instance.stop()).toBe(0);

    expect(openToOthers(dataDirectory)).toEqual([]);
    expect(lstatSync(path.join(dataDirectory, 'notes', 'restored-from-backup')).mode & 0o777).toBe(0o600);
    expect(dataDirectoryWarnings(instance)).toEqual([
      expect.stringContaining(`DATA_DIR ${dataDirectory} was open to other local users (3 files and folders`),
    ]);
  });

  it('keepsTheSearchItMadeForItsUserOnly: a build without its prepared search is parsed, and its search kept 0600', async () => {
    const siteDirectory = path.join(workDirectory, 'unprepared-build');
    cpSync(siteBuildDirectory, siteDirectory, { recursive: true });
    rmSync(path.join(siteDirectory, preparedSearchFile));
    const dataDirectory = path.join(workDirectory, 'keeps-search');
    const instance = await startOn(dataDirectory, 'keeps-search', { SITE_DIR: siteDirectory });
    await writeSomething(instance);
    expect(await instance.stop()).toBe(0);

    const kept = readdirSync(path.join(dataDirectory, 'search'));
    expect(kept).toEqual([expect.stringMatching(/^[0-9a-f]{40}\.bin$/)]);
    expect(openToOthers(dataDirectory)).toEqual([]);
    expect(dataDirectoryWarnings(instance)).toEqual([]);
  });
});
