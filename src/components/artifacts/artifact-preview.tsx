import type { ArtifactKind } from '../../domain/artifacts.ts';
import { Markdown } from '../chat/lazy-markdown.tsx';
import { PreviewFrame } from '../chat/markdown/html-preview.tsx';
import { ReactPreview } from './react-preview.tsx';
import { fenced } from '../../domain/markdown-fences.ts';

/**
 * An artifact rendered: HTML and SVG in the preview sandbox (an opaque origin that reaches
 * nothing), Mermaid and Markdown with the app's own renderers, themed like the chat, React in
 * its own sandbox with React and its libraries bundled.
 */
export function ArtifactPreview({
  kind,
  code,
  language,
}: {
  kind: ArtifactKind;
  code: string;
  language: string;
}) {
  switch (kind) {
    case 'html':
    case 'svg':
      // A new frame for new code: the sandbox is sent its code once it has loaded.
      return <PreviewFrame key={code} html={code} className="size-full min-h-96 bg-white" />;
    case 'mermaid':
      return (
        <div className="p-3">
          <Markdown text={fenced(code, 'mermaid')} />
        </div>
      );
    case 'markdown':
      return (
        <div className="message-content p-4 text-sm leading-relaxed">
          <Markdown text={code} />
        </div>
      );
    case 'react':
      return <ReactPreview code={code} language={language} />;
    case 'code':
      return null;
  }
}
