import 'katex/dist/katex.min.css';
import rehypeKatex from 'rehype-katex';
import remarkMath from 'remark-math';
import type { Options } from 'react-markdown';

type Pluggable = NonNullable<Options['remarkPlugins']>[number];

/**
 * The math plugins, in their own chunk: fetched the first time a reply holds a formula. KaTeX
 * runs after the sanitizer on the formula's text only; its own output is trusted (`trust` stays
 * off, so no \href or \includegraphics), and a formula it cannot parse shows its source.
 */
export const remarkPlugin: Pluggable = [remarkMath, { singleDollarTextMath: true }];
// A formula KaTeX cannot parse keeps the text's colour (red fails contrast on dark), underlined.
export const rehypePlugin: Pluggable = [
  rehypeKatex,
  { strict: 'ignore', throwOnError: false, errorColor: 'inherit' },
];
