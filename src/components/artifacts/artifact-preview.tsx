import type { ArtifactKind } from '../../domain/artifacts.ts';
import { Markdown } from '../chat/lazy-markdown.tsx';
import { PreviewFrame } from '../chat/markdown/html-preview.tsx';
import { MermaidDiagram } from '../chat/markdown/mermaid-diagram.tsx';

/**
 * An artifact rendered: HTML and SVG in the preview sandbox (an opaque origin that reaches
 * nothing), Mermaid and Markdown with the app's own renderers, themed like the chat.
 */
export function ArtifactPreview({ kind, code }: { kind: ArtifactKind; code: string }) {
  switch (kind) {
    case 'html':
    case 'svg':
      // A new frame for new code: the sandbox is sent its code once it has loaded.
      return <PreviewFrame key={code} html={code} className="size-full min-h-96 bg-white" />;
    case 'mermaid':
      return (
        <div className="p-3">
          <MermaidDiagram source={code} />
        </div>
      );
    case 'markdown':
      return (
        <div className="message-content p-4 text-sm leading-relaxed">
          <Markdown text={code} />
        </div>
      );
    case 'react':
      return <p className="p-4 text-sm text-muted-foreground">React previews are not available yet.</p>;
    case 'code':
      return null;
  }
}
