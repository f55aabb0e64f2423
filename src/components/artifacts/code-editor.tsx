import { defaultKeymap, history, historyKeymap, indentWithTab } from '@codemirror/commands';
import { html } from '@codemirror/lang-html';
import { javascript } from '@codemirror/lang-javascript';
import { markdown } from '@codemirror/lang-markdown';
import { oneDark } from '@codemirror/theme-one-dark';
import { EditorState, type Extension } from '@codemirror/state';
import { EditorView, keymap, lineNumbers } from '@codemirror/view';
import { useEffect, useRef } from 'react';
import { bracketMatching, defaultHighlightStyle, syntaxHighlighting } from '@codemirror/language';

/** The language support for an artifact's code block language. */
function languageOf(language: string): Extension {
  switch (language) {
    case 'tsx':
      return javascript({ jsx: true, typescript: true });
    case 'jsx':
    case 'js':
    case 'javascript':
      return javascript({ jsx: language === 'jsx' });
    case 'ts':
    case 'typescript':
      return javascript({ typescript: true });
    case 'html':
    case 'htm':
    case 'xhtml':
    case 'svg':
      return html();
    case 'md':
    case 'markdown':
      return markdown();
    default:
      return [];
  }
}

/**
 * The artifact's code as an editor (CodeMirror 6, loaded with the first edit): line numbers,
 * undo, bracket matching, Tab indents (Escape, then Tab, leaves the editor), the app's theme.
 * `value` seeds it; each change is reported.
 */
export default function CodeEditor({
  value,
  language,
  dark,
  label,
  onChange,
}: {
  value: string;
  language: string;
  dark: boolean;
  label: string;
  onChange(code: string): void;
}) {
  const host = useRef<HTMLDivElement>(null);
  const changed = useRef(onChange);
  useEffect(() => {
    changed.current = onChange;
  });

  useEffect(() => {
    if (!host.current) return;
    const view = new EditorView({
      parent: host.current,
      state: EditorState.create({
        doc: value,
        extensions: [
          lineNumbers(),
          history(),
          bracketMatching(),
          keymap.of([...defaultKeymap, ...historyKeymap, indentWithTab]),
          languageOf(language),
          dark ? oneDark : syntaxHighlighting(defaultHighlightStyle),
          EditorView.contentAttributes.of({ 'aria-label': label }),
          EditorView.updateListener.of((update) => {
            if (update.docChanged) changed.current(update.state.doc.toString());
          }),
          EditorView.theme({
            '&': { fontSize: '13px', height: '100%' },
            '.cm-scroller': { overflow: 'auto' },
          }),
        ],
      }),
    });
    return () => view.destroy();
    // The document is the editor's from here on: a new value means a new version, and a new key.
  }, [language, dark, label]); // eslint-disable-line react-hooks/exhaustive-deps

  return (
    <div
      ref={host}
      className="h-full min-h-64 overflow-hidden rounded-md border border-gray-200 dark:border-gray-700"
    />
  );
}
