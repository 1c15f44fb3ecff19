import { beforeAll, describe, expect, it } from 'vitest';
import { type ImportGraph, readImportGraph } from './import-graph';

let graph: ImportGraph;

beforeAll(async () => {
  graph = await readImportGraph();
});

/** Every `file imports dependency` of ours that `breaks` says is against the rule. */
function importsWhere(breaks: (file: string, dependency: string) => boolean): string[] {
  return Object.entries(graph.files).flatMap(([file, dependencies]) =>
    (dependencies ?? [])
      .map((dependency) => dependency.id ?? '')
      .filter((dependency) => breaks(file, dependency))
      .map((dependency) => `${file} imports ${dependency}`),
  );
}

describe('the plan of the server', () => {
  it('config.ts imports nothing of ours but how a variable is read: everything else reads the parsed config', () => {
    expect(graph.files['server/src/config.ts']?.map((dependency) => dependency.id)).toEqual([
      'server/src/environment-values.ts',
    ]);
    expect(graph.files['server/src/environment-values.ts']).toEqual([]);
  });

  it('only tests import test support (fakes, fixtures, test databases) from server/src', () => {
    expect(graph.files['server/src/store/database.test.ts']?.map((dependency) => dependency.id)).toContain(
      'server/test-support/test-databases.ts',
    );
    const offending = importsWhere(
      (file, dependency) =>
        file.startsWith('server/src/') && !file.endsWith('.test.ts') && dependency.startsWith('server/test-support/'),
    );
    expect(offending).toEqual([]);
  });
});
