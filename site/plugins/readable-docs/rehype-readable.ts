import type { Element, ElementContent, Root } from 'hast';
import { visit } from 'unist-util-visit';

/** Elements that end the label of a task-list item: its nested lists and blocks are not part of its name. */
const blocks = new Set(['ul', 'ol', 'p', 'pre', 'div', 'table', 'blockquote']);

const isCheckbox = (node: ElementContent): node is Element =>
  node.type === 'element' && node.tagName === 'input' && node.properties.type === 'checkbox';

/**
 * A GFM task-list item's checkbox (`- [ ] Rotate the key`) wrapped in a label with the item's text, so a screen
 * reader names it ("Rotate the key, checkbox, not checked") instead of "checkbox".
 */
function labelTaskListItem(item: Element) {
  const first = item.children.find((child) => child.type === 'element');
  // A loose list puts the checkbox in the item's first paragraph.
  const holder = first?.type === 'element' && first.tagName === 'p' ? first : item;
  const start = holder.children.findIndex(isCheckbox);
  if (start < 0) return;
  let end = start + 1;
  while (end < holder.children.length) {
    const next = holder.children[end];
    if (next?.type === 'element' && blocks.has(next.tagName)) break;
    end++;
  }
  const label: Element = {
    type: 'element',
    tagName: 'label',
    properties: {},
    children: holder.children.slice(start, end),
  };
  holder.children.splice(start, end - start, label);
}

/**
 * What the handbook's markdown needs to pass axe: labelled task-list checkboxes, and tables (which Infima lets
 * scroll sideways when wide) reachable by keyboard, as Docusaurus already does for code blocks.
 */
export default function rehypeReadable() {
  return (tree: Root) => {
    visit(tree, 'element', (node: Element) => {
      const classes = node.properties.className;
      if (node.tagName === 'li' && Array.isArray(classes) && classes.includes('task-list-item')) {
        labelTaskListItem(node);
      } else if (node.tagName === 'table') {
        node.properties.tabIndex = 0;
      }
    });
  };
}
