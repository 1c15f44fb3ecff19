import { isSiteImage } from '@acme/contract';
import type { Nodes, Parents, PhrasingContent, Root } from 'mdast';
import { SKIP, visit } from 'unist-util-visit';
import type { LinkVerdicts } from '../runtime/turn-message';

/** What a link that leads nowhere leaves: its words, or its address as code (a bare or <…> address). */
function withoutLink(node: Nodes): PhrasingContent[] {
  if (node.type === 'image' || node.type === 'imageReference')
    return node.alt ? [{ type: 'text', value: `[image: ${node.alt}]` }] : [];
  if (node.type !== 'link') return [];
  const [only] = node.children;
  const bare = node.children.length === 1 && only?.type === 'text' && node.url.endsWith(only.value);
  return bare ? [{ type: 'inlineCode', value: only.value }] : node.children;
}

/**
 * A remark plugin that applies the server's verdicts on an answer's links to the handbook (the `link` parts of its
 * stream), on the syntax tree: a link to a page or section that is not in the build becomes plain text, a good one
 * leads where the server checked. Links the server did not judge lead elsewhere, or were stored already checked.
 * An image shows only when the server keeps it too: one of our site (`isSiteImage` on `siteOrigin`, the server's own
 * rule) not judged to lead nowhere; any other becomes `[image: …]` as the stored answer has it, so no image from
 * elsewhere is ever fetched, even while the answer streams.
 */
export function remarkCheckedLinks(verdicts: LinkVerdicts, siteOrigin: string) {
  const judged = (url: string) => (Object.hasOwn(verdicts, url) ? verdicts[url] : undefined);
  const shown = (imageUrl: string) => isSiteImage(imageUrl, siteOrigin) && judged(imageUrl) !== null;
  return () => (tree: Root) => {
    const definitions = new Map<string, string>();
    const goneDefinitions = new Set<string>();
    visit(tree, 'definition', (node, index, parent) => {
      definitions.set(node.identifier, node.url);
      const href = judged(node.url);
      if (href === null && parent && index !== undefined) {
        goneDefinitions.add(node.identifier);
        parent.children.splice(index, 1);
        return [SKIP, index];
      }
      if (href) node.url = href;
      return undefined;
    });
    visit(tree, (node: Nodes, index, parent: Parents | undefined) => {
      if (!parent || index === undefined) return undefined;
      // An image by reference is judged by its definition's address, as written (before a verdict rewrote it).
      const imageUrl =
        node.type === 'image'
          ? node.url
          : node.type === 'imageReference'
            ? definitions.get(node.identifier)
            : undefined;
      const gone =
        (imageUrl !== undefined && !shown(imageUrl)) ||
        (node.type === 'link' && judged(node.url) === null) ||
        (node.type === 'linkReference' && goneDefinitions.has(node.identifier));
      if (gone) {
        const replacement = node.type === 'linkReference' ? node.children : withoutLink(node);
        (parent.children as Nodes[]).splice(index, 1, ...replacement);
        return [SKIP, index + replacement.length];
      }
      if (node.type === 'link') node.url = judged(node.url) ?? node.url;
      return undefined;
    });
  };
}
