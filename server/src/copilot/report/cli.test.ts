import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresTestDatabase, type TestDatabase } from '../../../test-support/test-databases.js';
import { createThread } from '../../store/conversations.js';
import { openStore, type Store } from '../../store/database.js';
import { appendMessage, setFeedback } from '../../store/messages.js';
import { recordQuestion } from '../../store/questions.js';
import { feedback } from '../../store/schema.js';

const repository = fileURLToPath(new URL('../../../../', import.meta.url));
const tsx = path.join(repository, 'node_modules', '.bin', 'tsx');
const cli = path.join(repository, 'server', 'src', 'copilot', 'report', 'cli.ts');

type Run = { code: number; stdout: string; stderr: string };
/** For a test of several runs: each is a tsx process of its own opening a database, two took over 30 s on loaded CI. */
const severalRunsMs = 90_000;

/** Runs `npm run copilot:report` as a maintainer would, with only the environment given. */
function report(args: string[], environment: Record<string, string>): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      tsx,
      [cli, ...args],
      { cwd: repository, env: { PATH: process.env.PATH ?? '', NODE_ENV: 'test', ...environment } },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

/** One answer rated down with a comment, and one question the docs did not cover. */
async function seed(store: Store) {
  const reader = 'ada@acme.example';
  const thread = await createThread(store.db, { reader });
  const asked = await appendMessage(store.db, {
    reader,
    threadId: thread.id,
    message: { parentId: null, role: 'user', content: [{ type: 'text', text: 'Why does npm say E401?' }] },
  });
  const source = {
    title: 'Getting Started with acme-cli › Troubleshooting',
    url: '/getting-started-acme-cli/#troubleshooting',
  };
  await appendMessage(store.db, {
    reader,
    threadId: thread.id,
    message: { id: 'answer-1', parentId: asked.id, role: 'assistant', content: [], sources: [source] },
  });
  await setFeedback(store.db, { reader, messageId: 'answer-1', rating: 'negative', comment: 'Too vague' });
  // A minute back, so the uncovered question is the newest whatever the database clock reads next.
  await store.db
    .update(feedback)
    .set({ updatedAt: new Date(Date.now() - 60_000) })
    .where(eq(feedback.messageId, 'answer-1'));
  await recordQuestion(store.db, {
    reader,
    question: 'How do I rotate the Typesense admin key?',
    mode: 'docs-only',
    covered: false,
    confidence: 'none',
    nearestPage: { url: '/installing-typesense-instance', title: 'Installing a Typesense instance' },
    answerMessageId: 'answer-2',
  });
}

describe('npm run copilot:report on PGlite, while the server holds the database', () => {
  let directory: string;
  let server: Store;

  beforeAll(async () => {
    directory = await mkdtemp(path.join(tmpdir(), 'copilot-report-test-'));
    server = await openStore({ dataDirectory: path.join(directory, 'pglite') });
    await seed(server);
  });

  afterAll(async () => {
    await server?.close();
    await rm(directory, { recursive: true, force: true });
  });

  it(
    'prints the report as Markdown from a copy, and the server goes on reading and writing its data',
    async () => {
      const run = await report(['--since', '1h'], { DATA_DIR: directory });

      expect(run).toMatchObject({ code: 0, stderr: '' });
      expect(run.stdout).toContain('1 answer rated down and 1 question the docs did not answer, near 2 page(s).');
      // The insights page's figures, from the same named queries.
      expect(run.stdout).toContain('1 question: 0 % answered, 0 % closest page only, 100 % not covered.');
      // Not covered at all: its nearest page shares words, not the subject, so it is no page to extend.
      expect(run.stdout).toContain('- rotate typesense admin: 1 reader (no page came near)');
      expect(run.stdout).toContain('## Getting Started with acme-cli (/getting-started-acme-cli/): 1 rated down');
      expect(run.stdout).toContain('rated down: "Why does npm say E401?"\n  - comment: "Too vague"');
      expect(run.stdout).toContain('not covered: "How do I rotate the Typesense admin key?"');

      await recordQuestion(server.db, {
        reader: 'eve@acme.example',
        question: 'asked after the report',
        mode: 'model',
        covered: false,
        confidence: 'none',
        nearestPage: null,
        answerMessageId: 'answer-3',
      });
      await server.close();
      server = await openStore({ dataDirectory: path.join(directory, 'pglite') });
      const json = JSON.parse((await report(['--json'], { DATA_DIR: directory })).stdout);
      expect(json.groups.flatMap((group: { items: unknown[] }) => group.items)).toHaveLength(3);
    },
    severalRunsMs,
  );

  it('says there is no database when DATA_DIR holds none, with exit code 1', async () => {
    const run = await report([], { DATA_DIR: path.join(directory, 'elsewhere') });

    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`There is no Dev Copilot database in ${path.join(directory, 'elsewhere', 'pglite')}`);
  });

  it('refuses a bad flag with the usage and exit code 2, before opening anything', async () => {
    const run = await report(['--since', 'last week'], { DATA_DIR: path.join(directory, 'elsewhere') });

    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain('copilot:report: --since last week: must be a duration like 7d, 24h or 2w');
    expect(run.stderr).toContain('Usage: npm run -s copilot:report --');
  });
});

describe.skipIf(process.env.SKIP_POSTGRES_TESTS === '1')('npm run copilot:report on PostgreSQL', () => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await createPostgresTestDatabase();
    const store = await openStore(database.options);
    await seed(store);
    await store.close();
  });

  afterAll(async () => {
    await database?.drop();
  });

  it(
    'prints JSON for machines, filtered by --since and --limit',
    async () => {
      const environment = { DATABASE_URL: database.options.databaseUrl ?? '' };

      const all = JSON.parse((await report(['--json'], environment)).stdout);
      const newest = JSON.parse((await report(['--json', '--limit', '1'], environment)).stdout);
      const none = JSON.parse((await report(['--json', '--since', new Date().toISOString()], environment)).stdout);

      expect(all.groups.map((group: { page: { url: string } }) => group.page.url)).toEqual([
        '/installing-typesense-instance',
        '/getting-started-acme-cli/',
      ]);
      expect(newest.groups).toHaveLength(1);
      expect(newest.limit).toBe(1);
      expect(none.groups).toEqual([]);
    },
    severalRunsMs,
  );
});
