import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type DependencyTree, parseDependencyTree } from 'dpdm';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Our TypeScript outside the site (whose imports go through Docusaurus aliases that only its bundler resolves). */
export const ourSources = ['server/src/**/*.ts', 'server/test-support/**/*.ts', 'e2e/**/*.ts', 'bench/**/*.ts'];

/** A module file of this repository, not a package nor a Node built-in. */
const isOurs = (id: string) => !id.includes('node_modules/') && /\.[cm]?[jt]sx?$/.test(id);

export type ImportGraph = {
  /** Every file of ours, repo-relative, with the files of ours it imports (type-only imports too). */
  files: DependencyTree;
  /** Relative imports that resolved to no file: each would hide whatever lies behind it. */
  unresolved: string[];
};

/** Reads the imports of every file of ours, resolved the way the server's tsconfig resolves them (`.js` -> `.ts`). */
export async function readImportGraph(): Promise<ImportGraph> {
  const tree = await parseDependencyTree(ourSources, {
    cwd: repoRoot,
    context: repoRoot,
    tsconfig: path.join(repoRoot, 'server/tsconfig.json'),
    transform: false,
  });
  const files: DependencyTree = {};
  const unresolved: string[] = [];
  for (const [file, dependencies] of Object.entries(tree)) {
    if (!dependencies || !isOurs(file)) continue;
    files[file] = dependencies.filter((dependency) => dependency.id && isOurs(dependency.id));
    for (const dependency of dependencies) {
      if (!dependency.id && dependency.request.startsWith('.'))
        unresolved.push(`${file} imports ${dependency.request}`);
    }
  }
  return { files, unresolved };
}
