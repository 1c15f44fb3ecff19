type MarkdownNode = { type: string; value?: string; children?: MarkdownNode[] };

function convert(node: MarkdownNode): void {
  if (node.type === 'html') node.type = 'text';
  for (const child of node.children ?? []) convert(child);
}

/**
 * A remark plugin that shows raw HTML in an answer as the text it is (spec section 5), instead of dropping it: a
 * reader asking about `<img onerror>` should see it, and nothing in an answer may become markup.
 */
export function remarkRawHtmlAsText() {
  return (tree: MarkdownNode) => convert(tree);
}
