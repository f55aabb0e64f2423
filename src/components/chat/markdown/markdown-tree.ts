import type { Element, ElementContent, Root, RootContent } from 'hast';
import rehypeRaw from 'rehype-raw';
import rehypeSanitize from 'rehype-sanitize';
import remarkGfm from 'remark-gfm';
import remarkMath from 'remark-math';
import remarkParse from 'remark-parse';
import remarkRehype from 'remark-rehype';
import { unified, type PluggableList } from 'unified';
import { hasMath, normalizeMath } from '../../../domain/math-source.ts';
import { limitContainerNesting, textMark } from './markdown-budget.ts';
import { sanitizeSchema } from './sanitize-schema.ts';

/**
 * A block of a reply as a sanitized HTML tree (hast): the one pipeline of the renderer, run on the
 * page for ordinary blocks and in markdown.worker.ts for the rest (see markdown-budget.ts). Raw
 * HTML is parsed, then sanitized with an allow-list. Pure: no React, no DOM.
 */

// Only blocks holding a formula are parsed for math: `$` would otherwise cost every block.
const remarkPlugins: PluggableList = [remarkGfm];
const remarkPluginsWithMath: PluggableList = [remarkGfm, [remarkMath, { singleDollarTextMath: true }]];
// Without a '<' a block holds no raw HTML: skip the HTML parser, the costliest step while streaming.
const withRawHtml: PluggableList = [rehypeRaw, [rehypeSanitize, sanitizeSchema]];
const withoutRawHtml: PluggableList = [[rehypeSanitize, sanitizeSchema]];

const processors = new Map<string, ReturnType<typeof makeProcessor>>();

function makeProcessor(math: boolean, html: boolean) {
  return unified()
    .use(remarkParse)
    .use(math ? remarkPluginsWithMath : remarkPlugins)
    .use(remarkRehype, { allowDangerousHtml: true })
    .use(html ? withRawHtml : withoutRawHtml)
    .freeze();
}

function processorFor(math: boolean, html: boolean) {
  const key = `${math}${html}`;
  let processor = processors.get(key);
  if (!processor) processors.set(key, (processor = makeProcessor(math, html)));
  return processor;
}

/**
 * How deep elements may nest in a rendered block: enough for any real reply (a table cell in a
 * list in a quote is about 10), few enough that layout and React's recursion stay cheap. Deeper
 * parts are shown as their text.
 */
export const maxElementDepth = 32;

/**
 * A block of more elements than this is not shown formatted: turning them into the page's
 * elements and laying them out is one task (a 200 KB block can parse into 300,000; 8,000 took
 * 250 ms on a busy machine). A table of 250 rows of 8 cells holds 2,250.
 */
export const maxElements = 2500;

/** The block's tree, or null when it holds more than `maxElements` elements. */
export function markdownToTree(text: string): Root | null {
  const bounded = limitContainerNesting(text);
  const normalized = bounded.includes('$') || bounded.includes('\\') ? normalizeMath(bounded) : bounded;
  const math = hasMath(normalized);
  const processor = processorFor(math, bounded.includes('<'));
  const tree = processor.runSync(processor.parse(math ? normalized : bounded)) as Root;
  return flattenDeepElements(tree, maxElementDepth) <= maxElements ? tree : null;
}

/**
 * Replaces every element nested deeper than `maxDepth` by its text, walking without recursion (a
 * hostile tree may be thousands of levels deep), and counts the elements kept. Positions are
 * dropped: nothing reads them, and a tree sent from the worker is smaller without them.
 */
function flattenDeepElements(tree: Root, maxDepth: number): number {
  let elements = 0;
  const stack: { node: Root | Element; depth: number }[] = [{ node: tree, depth: 0 }];
  while (stack.length > 0) {
    const { node, depth } = stack.pop() as { node: Root | Element; depth: number };
    delete node.position;
    node.children = node.children.map((child: RootContent): RootContent => {
      if (child.type !== 'element') {
        delete child.position;
        if (child.type === 'text' && child.value.includes(textMark))
          child.value = child.value.replaceAll(textMark, '');
        return child;
      }
      if (depth + 1 > maxDepth) return { type: 'text', value: textOf(child) };
      elements++;
      stack.push({ node: child, depth: depth + 1 });
      return child;
    }) as ElementContent[];
  }
  return elements;
}

/** The text of a subtree, without recursion. */
function textOf(node: Element): string {
  let text = '';
  const stack: (Element | ElementContent)[] = [node];
  while (stack.length > 0) {
    const next = stack.pop() as Element | ElementContent;
    if (next.type === 'text') text += next.value;
    else if (next.type === 'element')
      for (let at = next.children.length - 1; at >= 0; at--) stack.push(next.children[at] as ElementContent);
  }
  return text;
}
