import { type Dependency, type DependencyTree, parseCircular } from 'dpdm';
import { beforeAll, describe, expect, it } from 'vitest';
import { type ImportGraph, readImportGraph } from './import-graph';

let graph: ImportGraph;

beforeAll(async () => {
  graph = await readImportGraph();
});

/** The part of the server a file belongs to: its folder under server/src (auth/, gate/, ...) or a file at the top. */
function partOf(file: string): string | undefined {
  const match = /^server\/src\/([^/]+\/|[^/]+$)/.exec(file);
  return match ? `server/src/${match[1]}` : undefined;
}

/** The same graph one level up: which part imports which other part, each edge with one file import that makes it. */
function partGraph(files: DependencyTree): DependencyTree {
  const parts: Record<string, Dependency[]> = {};
  for (const [file, dependencies] of Object.entries(files)) {
    const from = partOf(file);
    if (!from) continue;
    const edges = parts[from] ?? [];
    parts[from] = edges;
    for (const dependency of dependencies ?? []) {
      const to = dependency.id ? partOf(dependency.id) : undefined;
      if (!to || to === from || edges.some((edge) => edge.id === to)) continue;
      edges.push({ issuer: from, request: `${file} imports ${dependency.id}`, kind: dependency.kind, id: to });
    }
  }
  return parts;
}

/** One loop as a line: `a -> b -> a`, each step followed by the import that makes it when there is one. */
function describeLoop(tree: DependencyTree, loop: string[]): string {
  const steps = loop.map((from, index) => {
    const to = loop[(index + 1) % loop.length];
    const edge = tree[from]?.find((dependency) => dependency.id === to);
    return edge && edge.request !== edge.id && !edge.request.startsWith('.') ? `${from} (${edge.request})` : from;
  });
  return [...steps, loop[0]].join(' -> ');
}

describe('imports of server/src, server/test-support, e2e and bench', () => {
  it('are all read: every relative import resolves to a file', () => {
    expect(graph.unresolved).toEqual([]);
    expect(Object.keys(graph.files).length).toBeGreaterThan(100);
    expect(graph.files['server/src/app.ts']?.map((dependency) => dependency.id)).toContain('server/src/config.ts');
  });

  it('form no loop of files', () => {
    const loops = parseCircular(graph.files).map((loop) => describeLoop(graph.files, loop));
    expect(loops).toEqual([]);
  });

  it('form no loop between the parts of the server (auth/, gate/, search/, copilot/, store/, config.ts, ...)', () => {
    const parts = partGraph(graph.files);
    expect(parts['server/src/gate/']?.map((dependency) => dependency.id)).toContain('server/src/auth/');
    const loops = parseCircular(parts).map((loop) => describeLoop(parts, loop));
    expect(loops).toEqual([]);
  });
});
