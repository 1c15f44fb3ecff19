import { describe, expect, it } from 'vitest';
import type { Block } from './doc-page.js';
import { answerPassages } from './passages.js';

const text = (markdown: string): Block => ({ kind: 'text', markdown });
const weighOne = () => 1;

describe('answerPassages chooses what answers the question', () => {
  it('answers a restated symptom with what the section says next, and never splits a quoted message', () => {
    // Long enough that the section is not quoted whole.
    const filler =
      'Tunnels forward every request to the port the developer chose when the tunnel was created, over one outbound connection that the laptop keeps open to the edge for as long as it runs. '.repeat(
        2,
      );
    const section = {
      blocks: [
        text(
          `The console shows \`WebSocket connection to wss://dev.example:5173/ failed\`. ${filler}The client just needs the right port:`,
        ),
        { kind: 'code', language: 'ts', code: 'hmr: { protocol: "wss", clientPort: 443 }' },
        text(
          '`allowedHosts` fixes the other message, `Blocked request. This host is not allowed.`, from recent versions.',
        ),
      ] satisfies Block[],
    };
    const wanted = new Set(['websocket', 'connect', 'wss', 'dev', 'exampl', '5173', 'fail']);
    const quoted = answerPassages(section, wanted, weighOne);
    expect(quoted).toContain('clientPort: 443');
    expect(quoted).not.toMatch(/^This host/m);
    const blocked = answerPassages(section, new Set(['block', 'request', 'host', 'allow']), weighOne, ['procedure']);
    expect(blocked).toContain('`Blocked request. This host is not allowed.`');
  });

  it('answers what a command does with what follows it, when its code block only names the section', () => {
    const filler =
      'Run it from the repository root of any project made with acme init, inside or outside the tunnel. '.repeat(4);
    const section = {
      heading: 'acme doctor',
      blocks: [
        { kind: 'code', language: 'bash', code: 'acme doctor' },
        text('It checks the Node version, gcloud credentials, Java and the required ports.'),
        text(filler),
      ] satisfies Block[],
    };
    const quoted = answerPassages(section, new Set(['acm', 'doctor', 'check']), (term) => (term === 'check' ? 0.5 : 2));
    expect(quoted).toContain('It checks the Node version');
  });

  it('quotes a short section whole, the verdict of a yes/no answer with its reason, and a fix sharing no word asked', () => {
    const answer =
      'No. New installs use managed installation and token exchange. [The migration page](/migration) explains the redirect flow.';
    const faq = { blocks: [text(answer)] };
    expect(answerPassages(faq, new Set(['redirect', 'flow', 'oauth']), weighOne)).toBe(answer);
    const symptom = {
      blocks: [
        text('Your code is almost certainly under `/mnt/c`. Move it to `~/code` inside WSL 2.'),
        text('[Using WSL](/use-wsl-basic) explains why the Windows boundary is slow.'),
      ] satisfies Block[],
    };
    const quoted = answerPassages(symptom, new Set(['window', 'slow']), weighOne);
    // The best unit's block first, then the rest of the short section.
    expect(quoted.startsWith('[Using WSL]')).toBe(true);
    expect(quoted).toContain('Move it to `~/code`');
  });

  it('quotes the next sentence holding the fix even when a long example led into by the best one fills the budget', () => {
    const section = {
      blocks: [
        text('The token exchange is one POST to the shop token endpoint:'),
        {
          kind: 'code',
          language: 'bash',
          code: `curl -X POST https://shop.example/token \\\n${'  -d "x"\n'.repeat(70)}`,
        },
        text('An expired session token returns 400 from the token endpoint; answer 401 with the retry header.'),
      ] satisfies Block[],
    };
    const wanted = new Set(['token', 'exchang', 'endpoint', 'session', '400', 'post', 'shop']);
    expect(answerPassages(section, wanted, weighOne)).toContain('answer 401 with the retry header');
  });

  it('quotes the code line a "which command" question asks for, past the budget', () => {
    const section = {
      blocks: [
        text(
          `Indexes are deployed with the rest of the project from the pipeline of the release tag. The pipeline deploys the indexes of the project${', then waits for the job before it'.repeat(16)}.`,
        ),
        { kind: 'code', language: 'bash', code: 'firebase deploy --only firestore:indexes' },
      ] satisfies Block[],
    };
    const wanted = new Set(['index', 'deploi', 'project', 'pipelin']);
    const quoted = answerPassages(section, wanted, weighOne, ['command']);
    expect(quoted.startsWith('Indexes are deployed')).toBe(true);
    expect(quoted).toContain('firebase deploy --only firestore:indexes');
  });

  it('reads a table row with its header: the row of the severity asked about comes before a sentence on the column', () => {
    const section = {
      blocks: [
        text('Response time is counted from the first alert.'),
        {
          kind: 'table',
          header: ['Severity', 'Response time'],
          rows: [
            ['SEV1', '15 minutes'],
            ['SEV2', '1 hour'],
          ],
        },
      ] satisfies Block[],
    };
    const wanted = new Set(['respons', 'time', 'sev2']);
    const quoted = answerPassages(section, wanted, weighOne, ['duration']);
    expect(quoted.startsWith('| Severity | Response time |')).toBe(true);
    expect(quoted).toContain('| SEV2 | 1 hour |');
  });

  it('quotes a section the question names from its opening, with its table whole', () => {
    const section = {
      blocks: [
        text('Production releases go out in a fixed window.'),
        {
          kind: 'table',
          header: ['Day', 'Release allowed'],
          rows: [
            ['Monday', 'No'],
            ['Tuesday to Thursday', 'Yes, job started before 15:00'],
            ['Friday', 'No'],
          ],
        },
      ] satisfies Block[],
    };
    const wanted = new Set(['releas']);
    const quoted = answerPassages(section, wanted, weighOne, [], { overview: true });
    expect(quoted.startsWith('Production releases go out in a fixed window.')).toBe(true);
    expect(quoted).toContain('| Tuesday to Thursday | Yes, job started before 15:00 |');
    expect(quoted).toContain('| Friday | No |');
  });

  it('shows a short table the question names to its last row, past the budget', () => {
    const rows = Array.from({ length: 12 }, (_, index) => [
      `CP${index + 1}`,
      `Checkpoint ${index + 1}, signed by the person who performed it`,
    ]);
    const section = {
      blocks: [
        text('A checkpoint is passed only when its evidence exists.'),
        { kind: 'table', header: ['#', 'Checkpoint'], rows },
      ] satisfies Block[],
    };
    const quoted = answerPassages(section, new Set(['checkpoint']), weighOne, [], { overview: true });
    expect(quoted).toContain('| CP12 | Checkpoint 12, signed by the person who performed it |');
  });

  it('keeps a sentence that introduces a table or code right before it, even when a row or line answers best', () => {
    const filler = 'A queue change goes through a merge request and is applied to staging first, then to production. ';
    const section = {
      blocks: [
        text('Every project has the same standard queues, each with its own max attempts:'),
        {
          kind: 'table',
          header: ['Queue', 'Max attempts'],
          rows: [
            ['shopify-api', '10'],
            ['notifications', '8'],
          ],
        },
        text(filler.repeat(4)),
        { kind: 'list', ordered: false, items: ['Keep names short.', 'Dry-run a new queue with the script:'] },
        { kind: 'code', language: 'bash', code: 'infra/cloud-tasks.sh --plan' },
      ] satisfies Block[],
    };
    const quoted = answerPassages(section, new Set(['max', 'attempt', 'notif', 'queue']), weighOne, ['number']);
    expect(quoted).toMatch(/max attempts:\n\n\| Queue \| Max attempts \|/);
    // A list item that ends on a colon brings the code block it holds, as a sentence does.
    const dryRun = answerPassages(section, new Set(['dry', 'run', 'new', 'merg']), weighOne, [], { besideBest: true });
    expect(dryRun).toMatch(/with the script:\n\n```bash\ninfra\/cloud-tasks.sh --plan/);
  });

  it('shows the lines of a long code block that hold the question words, not only its imports', () => {
    const imports = Array.from({ length: 30 }, (_, index) => `import { helper${index} } from './helper-${index}.js';`);
    const section = {
      blocks: [
        text('Bulk actions sit on the IndexTable:'),
        {
          kind: 'code',
          language: 'tsx',
          code: [...imports, '<IndexTable promotedBulkActions={bulkActions} />'].join('\n'),
        },
      ] satisfies Block[],
    };
    const wanted = new Set(['indext', 'bulk', 'action', 'promotedbulkact', 'bulkact']);
    const quoted = answerPassages(section, wanted, weighOne, ['command']);
    expect(quoted).toContain('<IndexTable promotedBulkActions={bulkActions} />');
    expect(quoted).toContain('```tsx\n…\n');
  });
});

describe('a list the question names by its heading', () => {
  const item = (index: number, length: number) =>
    `Change ${index}: ${'a detail of the change written out '.repeat(length)}`;
  const section = (length: number) => ({
    heading: 'Breaking changes',
    blocks: [
      { kind: 'list', ordered: false, items: Array.from({ length: 9 }, (_, index) => item(index, length)) },
    ] satisfies Block[],
  });
  const quote = (length: number) =>
    answerPassages(section(length), new Set(['chang', '4']), weighOne, [], { wholeList: true });

  it('is quoted whole when short, and only in part when long', () => {
    expect(quote(1).match(/^- Change/gm)).toHaveLength(9);
    expect(quote(8).match(/^- Change/gm)?.length).toBeLessThan(9);
  });
});
