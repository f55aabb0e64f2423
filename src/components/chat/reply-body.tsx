import { messageText, reasoningParts, type Message } from '../../domain/conversation.ts';
import { isMarkdownLike } from '../../domain/conversation-rules.ts';
import { lazyPart } from '../ui/lazy-part.tsx';
import { Markdown } from './lazy-markdown.tsx';
import { ToolReply } from './lazy-tool-ui.tsx';
import { MessageErrorBoundary } from './message-error-boundary.tsx';
import { PlainText } from './plain-text.tsx';
import { ReasoningBlock } from './reasoning-block.tsx';
import type { WebResearchProps } from './web-research.tsx';

// Outside the first load: what a reply found on the web.
const WebResearchView = lazyPart<WebResearchProps>(() =>
  import('./web-research.tsx').then((loaded) => ({ default: loaded.WebResearchView })),
);

/**
 * What a reply says: its thinking, its answer (or its steps, when it used tools, ran code or drew),
 * the streaming cursor while `streaming`, and what it found on the web. As a message of the
 * conversation and as a compared reply's column alike.
 */
export function ReplyBody({ message, streaming }: { message: Message; streaming: boolean }) {
  const text = messageText(message);
  const reasoning = reasoningParts(message);
  // A reply's pictures are shown where they came, with its steps.
  const withTools = message.parts.some(
    (part) => part.type.startsWith('tool-') || part.type === 'code-run' || part.type === 'attachment',
  );
  return (
    <>
      {reasoning.length > 0 && !withTools && (
        <ReasoningBlock
          parts={reasoning}
          thinking={streaming && text === ''}
          thinkingMs={message.stats?.thinkingMs}
        />
      )}
      {withTools ? (
        <ToolReply message={message} streaming={streaming} />
      ) : (
        <div className="message-content text-sm leading-relaxed break-words text-gray-900 dark:text-gray-100">
          <MessageErrorBoundary text={text}>
            {isMarkdownLike(text) || message.web?.citations.length ? (
              <Markdown text={text} live={streaming} web={message.web} />
            ) : (
              <PlainText text={text} />
            )}
          </MessageErrorBoundary>
          {streaming && <span data-testid="streaming-cursor" aria-hidden className="streaming-cursor" />}
        </div>
      )}
      {message.web && <WebResearchView web={message.web} />}
    </>
  );
}
