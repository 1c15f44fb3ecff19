import type { Plugin } from '@docusaurus/types';

/**
 * Lets the site bundle the workspace's TypeScript packages (@acme/contract): their ESM sources import each other as
 * `./x.js`, as Node needs, and the bundler must find `./x.ts` there.
 */
export default function workspacePackages(): Plugin {
  return {
    name: 'workspace-packages',
    configureWebpack: () => ({ resolve: { extensionAlias: { '.js': ['.ts', '.js'] } } }),
  };
}
