import { Check, Copy } from 'lucide-react';
import { memo, useMemo, type ReactNode } from 'react';
import { useCopy } from '../../../hooks/use-copy.ts';
import { highlightCode } from './highlight.ts';

interface CodeBlockProps {
  code: string;
  language: string | undefined;
}

/** A fenced code block: language label, copy button and syntax highlighting. */
export const CodeBlock = memo(function CodeBlock({ code, language }: CodeBlockProps) {
  const { copied, copy } = useCopy('Code copied to clipboard');
  // highlight.js escapes the source text, so its HTML output holds no markup from the reply.
  const html = useMemo(() => highlightCode(code, language), [code, language]);

  return (
    <div className="group/code my-3 overflow-hidden rounded-md border border-gray-200 bg-gray-50 dark:border-gray-700 dark:bg-gray-900">
      <div className="flex items-center justify-between border-b border-gray-200 px-3 py-1 text-xs text-gray-500 dark:border-gray-700 dark:text-gray-400">
        <span>{language ?? 'text'}</span>
        <button
          type="button"
          aria-label={copied ? 'Code copied' : 'Copy code'}
          onClick={() => void copy(code)}
          className="rounded p-1 hover:bg-gray-200 focus-visible:ring-2 focus-visible:ring-indigo-500 dark:hover:bg-gray-700"
        >
          {copied ? <Check className="size-3.5" /> : <Copy className="size-3.5" />}
        </button>
      </div>
      <pre className="overflow-x-auto p-3 text-[13px] leading-relaxed">
        {html === null ? (
          <code>{code}</code>
        ) : (
          <code className="hljs" dangerouslySetInnerHTML={{ __html: html }} />
        )}
      </pre>
    </div>
  );
});

/** Pulls the plain text out of the children react-markdown gives a code element. */
export function textOf(node: ReactNode): string {
  if (typeof node === 'string' || typeof node === 'number') return String(node);
  if (Array.isArray(node)) return node.map(textOf).join('');
  return '';
}
