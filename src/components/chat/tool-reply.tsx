import { useCallback, useMemo, useState } from 'react';
import type { ProducedFile } from '../../domain/code-runs.ts';
import { codeRunParts, type Message } from '../../domain/conversation.ts';
import { isMarkdownLike } from '../../domain/conversation-rules.ts';
import { useChatState } from '../../hooks/use-chat-state.ts';
import { Markdown } from './lazy-markdown.tsx';
import { MessageErrorBoundary } from './message-error-boundary.tsx';
import { PlainText } from './plain-text.tsx';
import { ReasoningBlock } from './reasoning-block.tsx';
import { replySteps, stepResearch } from './reply-steps.ts';
import { CodeRunCard } from './code-run-card.tsx';
import { DrawnPicture } from './drawn-picture.tsx';
import { ReplyFilesContext } from './reply-files-context.ts';
import { ToolCard } from './tool-card.tsx';

export interface ToolReplyProps {
  message: Message;
  /** The reply is streaming in (its tools may be running, or waiting for the user). */
  streaming: boolean;
}

/** As a reply's text without tools is laid out (message-item.tsx). */
const messageContentClass =
  'message-content text-sm leading-relaxed break-words text-gray-900 dark:text-gray-100';

/**
 * A reply that used tools, ran code or drew, in the order it happened: each stretch of thinking,
 * the text that followed, then the tools called, code run and pictures drawn there
 * (docs/behaviour.md#tool-calls-in-a-reply).
 */
export function ToolReply({ message, streaming }: ToolReplyProps) {
  const steps = useMemo(() => replySteps(message.parts), [message.parts]);
  const research = useMemo(() => stepResearch(steps, message.web), [steps, message.web]);
  const files = useMemo(() => producedFiles(message), [message]);
  // Which cards are open, by call id: held here so a closed card can skip its arguments' updates.
  const [openCalls, setOpenCalls] = useState<ReadonlySet<string>>(() => new Set());
  const toggleCall = useCallback(
    (callId: string) =>
      setOpenCalls((opened) => {
        const next = new Set(opened);
        if (!next.delete(callId)) next.add(callId);
        return next;
      }),
    [],
  );
  const approval = useChatState((state) =>
    state.toolApproval?.messageId === message.id ? state.toolApproval : null,
  );
  // The reply's thinking time belongs to its thinking only when there was one stretch of it.
  const thinkingMs =
    steps.filter((step) => step.reasoning.length > 0).length === 1 ? message.stats?.thinkingMs : undefined;
  const lastStep = steps.at(-1);
  const cursorAfterText = lastStep !== undefined && lastStep.text !== '' && lastStep.items.length === 0;
  // Nothing streams while a call waits for the user's answer.
  const live = streaming && approval === null;

  return (
    <ReplyFilesContext.Provider value={files}>
      {steps.map((step, index) => {
        const last = index === steps.length - 1;
        return (
          <div key={index} data-testid="reply-step">
            {step.reasoning.length > 0 && (
              <ReasoningBlock
                parts={step.reasoning}
                thinking={streaming && last && step.text === '' && step.items.length === 0}
                thinkingMs={thinkingMs}
              />
            )}
            {step.text !== '' && (
              <div className={messageContentClass}>
                <MessageErrorBoundary text={step.text}>
                  {isMarkdownLike(step.text) ||
                  research[index] ||
                  (files.size > 0 && step.text.includes('](sandbox:')) ? (
                    <Markdown text={step.text} live={streaming && last} web={research[index]} />
                  ) : (
                    <PlainText text={step.text} />
                  )}
                </MessageErrorBoundary>
                {live && last && cursorAfterText && <Cursor />}
              </div>
            )}
            {step.items.map((item) => {
              switch (item.kind) {
                case 'tool':
                  return (
                    <ToolCard
                      key={item.use.call.callId}
                      use={item.use}
                      streaming={streaming}
                      approval={approval?.callId === item.use.call.callId ? approval : null}
                      open={openCalls.has(item.use.call.callId)}
                      onToggle={toggleCall}
                    />
                  );
                case 'run':
                  return <CodeRunCard key={`run-${item.run.id}`} run={item.run} streaming={streaming} />;
                case 'picture':
                  return <DrawnPicture key={`picture-${item.picture.id}`} picture={item.picture} />;
              }
            })}
          </div>
        );
      })}
      {live && !cursorAfterText && (
        <div className={messageContentClass}>
          <Cursor />
        </div>
      )}
    </ReplyFilesContext.Provider>
  );
}

/** The files the reply's code runs made, by name (a later one of the same name wins). */
function producedFiles(message: Message): ReadonlyMap<string, ProducedFile> {
  const files = new Map<string, ProducedFile>();
  for (const run of codeRunParts(message)) for (const file of run.files) files.set(file.name, file);
  return files;
}

function Cursor() {
  return <span data-testid="streaming-cursor" aria-hidden className="streaming-cursor" />;
}
