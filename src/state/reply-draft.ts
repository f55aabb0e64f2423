import type { AttachmentPart } from '../domain/attachments.ts';
import { codeRunLimits, isShownImage, keptFileName, type CodeRunPart } from '../domain/code-runs.ts';
import { messageText, textParts, type MessagePart } from '../domain/conversation.ts';
import type { ReplyStats, Usage } from '../domain/reply-stats.ts';
import type { ToolCallPart, ToolResultPart } from '../domain/tools.ts';
import { addSource, webLimits, type WebResearch } from '../domain/web-search.ts';
import type { StreamPart } from '../providers/types.ts';

/**
 * A reply as it arrives, over every step of a tool loop: its parts in the order they came
 * (thinking, text, tool calls, their results, then more), and its figures. A part still growing
 * is replaced by a new object on each change; a finished one keeps its identity, so what is done
 * is not rendered again while the rest streams.
 */
export function createReplyDraft(
  startedAt: number,
  {
    serverOf,
    earlier = { parts: [] },
    files,
  }: {
    /** Where a tool the model calls lives (ToolCallPart.server). */
    serverOf: (toolName: string) => string | undefined;
    /** A continued reply's parts and web research so far: citations count their offsets after them. */
    earlier?: { parts: readonly MessagePart[]; web?: WebResearch };
    /**
     * Where the files the reply makes go: `stage` holds bytes to be stored with the conversation
     * and returns their id; `drop` lets go of a preview a newer one replaced.
     */
    files: { stage(blob: Blob): string; drop(id: string): void };
  },
) {
  const parts: MessagePart[] = [];
  /** A picture being drawn, by the provider's id, to its index in `parts`. */
  const drawnAt = new Map<string, number>();
  let fileCount = 0;
  /** The web research so far, replaced by a new object on each change; searches still running are marked. */
  let web: WebResearch | undefined = earlier.web;
  /** Search ids of this reply, to their index in `web.searches`. */
  const searchAt = new Map<string, number>();
  /** Text streamed by the request in progress (a citation's offset counts in it). */
  let requestText = 0;
  let webSearches: number | undefined;
  /** Index of the reasoning block still open (more reasoning text extends it), or -1. */
  let openReasoning = -1;
  const stats: ReplyStats = {};
  let thinkingFrom: number | undefined;
  let outputTokens: number | undefined;

  function tokenAt(at: number) {
    stats.firstTokenMs ??= at - startedAt;
  }
  function callIndex(callId: string): number {
    return parts.findLastIndex((part) => part.type === 'tool-call' && part.callId === callId);
  }
  function runIndex(id: string): number {
    return parts.findLastIndex((part) => part.type === 'code-run' && part.id === id);
  }

  /** A picture the model drew, or a preview of one it is drawing, where it came in the reply. */
  function drawn(part: Extract<StreamPart, { type: 'file' }>): boolean {
    if (!isShownImage(part.mimeType)) return false;
    const at = drawnAt.get(part.id);
    const before = at === undefined ? undefined : parts[at];
    if (before === undefined && fileCount >= codeRunLimits.files) return false;
    const picture: AttachmentPart = {
      type: 'attachment',
      id: files.stage(part.data),
      kind: 'image',
      name: keptFileName(part.name),
      mimeType: part.mimeType,
      size: part.data.size,
      ...(part.providerData && { providerData: part.providerData }),
      ...(part.partial && { drawing: true as const }),
    };
    if (before?.type === 'attachment') {
      files.drop(before.id);
      parts[at as number] = picture;
    } else {
      fileCount++;
      drawnAt.set(part.id, parts.push(picture) - 1);
    }
    return true;
  }

  /** A file a code run produced, with the run. */
  function produced(part: Extract<StreamPart, { type: 'file' }>, index: number): boolean {
    const run = parts[index];
    if (run?.type !== 'code-run' || part.partial || fileCount >= codeRunLimits.files) return false;
    fileCount++;
    const file = {
      id: files.stage(part.data),
      name: keptFileName(part.name),
      mimeType: part.mimeType,
      size: part.data.size,
    };
    parts[index] = { ...run, files: [...run.files, file] };
    return true;
  }

  const research = (): WebResearch => web ?? { searches: [], sources: [], citations: [] };

  /** The answer's length, measured once per change of the parts (citations come in bursts). */
  let answerLength: number | null = null;

  /** An offset in this request's text as an offset in the whole answer (its text ends the answer). */
  function answerOffset(requestOffset: number): number {
    const length = (answerLength ??= messageText({ parts: [...earlier.parts, ...parts] }).length);
    return Math.min(length, Math.max(0, length - (requestText - requestOffset)));
  }

  return {
    /** A new request of the reply begins (each step of a tool loop, a continuation). */
    startRequest(): void {
      requestText = 0;
    },
    /** Applies one stream part at time `at` (ms); true when what is shown changed. */
    apply(part: StreamPart, at: number): boolean {
      if (part.type !== 'citation') answerLength = null;
      switch (part.type) {
        case 'reasoning-delta': {
          tokenAt(at);
          thinkingFrom ??= at;
          const open = parts[openReasoning];
          if (open?.type === 'reasoning') parts[openReasoning] = { ...open, text: open.text + part.text };
          else openReasoning = parts.push({ type: 'reasoning', text: part.text }) - 1;
          return true;
        }
        case 'reasoning-end': {
          const open = parts[openReasoning];
          if (open?.type === 'reasoning') {
            if (part.signature) parts[openReasoning] = { ...open, signature: part.signature };
          } else if (part.signature) {
            parts.push({ type: 'reasoning', text: '', signature: part.signature });
          }
          openReasoning = -1;
          return false;
        }
        case 'reasoning-redacted':
          tokenAt(at);
          thinkingFrom ??= at;
          parts.push({ type: 'reasoning', text: '', signature: part.data, redacted: true });
          openReasoning = -1;
          return true;
        case 'text-delta': {
          tokenAt(at);
          requestText += part.text.length;
          if (thinkingFrom !== undefined) stats.thinkingMs ??= at - thinkingFrom;
          openReasoning = -1;
          const last = parts.at(-1);
          if (last?.type === 'text') parts[parts.length - 1] = { type: 'text', text: last.text + part.text };
          else parts.push(...textParts(part.text));
          return true;
        }
        case 'tool-call-start': {
          tokenAt(at);
          openReasoning = -1;
          const server = serverOf(part.name);
          parts.push({
            type: 'tool-call',
            callId: part.callId,
            name: part.name,
            arguments: '',
            ...(server !== undefined && { server }),
          });
          return true;
        }
        case 'tool-call-delta': {
          const index = callIndex(part.callId);
          const call = parts[index];
          if (call?.type !== 'tool-call') return false;
          parts[index] = { ...call, arguments: call.arguments + part.delta };
          return true;
        }
        case 'tool-call-end': {
          const index = callIndex(part.callId);
          const call = parts[index];
          if (call?.type !== 'tool-call') return false;
          const ended: ToolCallPart = { ...call, arguments: part.arguments };
          if (part.providerData) ended.providerData = part.providerData;
          else delete ended.providerData;
          parts[index] = ended;
          return true;
        }
        case 'web-search': {
          tokenAt(at);
          const now = research();
          const known = searchAt.get(part.id);
          const run = {
            query: part.query ?? (known !== undefined ? now.searches[known]?.query : undefined) ?? '',
            ...(part.status === 'searching' && { searching: true as const }),
            ...(part.status === 'failed' && { failed: part.error ?? 'The search failed.' }),
          };
          if (known === undefined && now.searches.length >= webLimits.searches) return false;
          const searches = [...now.searches];
          if (known === undefined) searchAt.set(part.id, searches.push(run) - 1);
          else searches[known] = run;
          web = { ...now, searches };
          return true;
        }
        case 'web-source': {
          const next = addSource(research(), part.source).research;
          if (next === web) return false;
          web = next;
          return true;
        }
        case 'citation': {
          const { research: next, index } = addSource(research(), part.source);
          if (index === undefined || next.citations.length >= webLimits.citations) return false;
          const citation = {
            at: answerOffset(part.at),
            source: index,
            ...(part.citedText && { citedText: part.citedText.slice(0, webLimits.citedText) }),
          };
          web = { ...next, citations: [...next.citations, citation] };
          return true;
        }
        case 'search-suggestions':
          if (part.html.length > webLimits.suggestions) return false;
          web = { ...research(), suggestions: part.html };
          return true;
        case 'finish':
          if (part.usage?.webSearches !== undefined)
            webSearches = (webSearches ?? 0) + part.usage.webSearches;
          if (part.usage && Object.keys(part.usage).length > 0) {
            // The last request's input (how big the conversation now is); the output of every step.
            if (part.usage.outputTokens !== undefined)
              outputTokens = (outputTokens ?? 0) + part.usage.outputTokens;
            const usage: Usage = { ...part.usage };
            if (outputTokens !== undefined) usage.outputTokens = outputTokens;
            if (webSearches !== undefined) usage.webSearches = webSearches;
            stats.usage = usage;
          }
          if (part.reason === 'stop') delete stats.finishReason;
          else stats.finishReason = part.reason;
          return false;
        case 'code-start': {
          tokenAt(at);
          openReasoning = -1;
          if (
            runIndex(part.id) !== -1 ||
            parts.filter((p) => p.type === 'code-run').length >= codeRunLimits.runs
          )
            return false;
          parts.push({
            type: 'code-run',
            id: part.id,
            language: part.language.slice(0, codeRunLimits.language),
            code: '',
            output: '',
            running: true,
            files: [],
          });
          return true;
        }
        case 'code-delta': {
          const index = runIndex(part.id);
          const run = parts[index];
          if (run?.type !== 'code-run' || run.code.length >= codeRunLimits.code) return false;
          parts[index] = { ...run, code: (run.code + part.delta).slice(0, codeRunLimits.code) };
          return true;
        }
        case 'code-result': {
          const index = runIndex(part.id);
          const run = parts[index];
          if (run?.type !== 'code-run') return false;
          const ended: CodeRunPart = {
            ...run,
            code: (part.code ?? run.code).slice(0, codeRunLimits.code),
            output: part.output.slice(0, codeRunLimits.output),
          };
          delete ended.running;
          if (part.stderr) ended.stderr = part.stderr.slice(0, codeRunLimits.output);
          if (part.failed) ended.failed = part.failed.slice(0, codeRunLimits.failed);
          parts[index] = ended;
          return true;
        }
        case 'file': {
          if (part.data.size > codeRunLimits.fileBytes) return false;
          const index = part.runId === undefined ? -1 : runIndex(part.runId);
          return index === -1 ? drawn(part) : produced(part, index);
        }
        case 'notice':
          return false;
      }
    },
    /** Calls of this reply that have no result yet, in order. */
    unansweredCalls(): ToolCallPart[] {
      const answered = new Set(parts.flatMap((part) => (part.type === 'tool-result' ? [part.callId] : [])));
      return parts.filter(
        (part): part is ToolCallPart => part.type === 'tool-call' && !answered.has(part.callId),
      );
    },
    /** Adds results, each after the last call or result of its step. */
    answer(results: readonly ToolResultPart[]): void {
      openReasoning = -1;
      answerLength = null;
      parts.push(...results);
    },
    /**
     * The parts so far; a reply holds a text part (its answer) even while it is empty. At the end
     * (`settled`), a run that never said it ended and a picture left at a preview are kept as they
     * are, and nothing marks them as still going.
     */
    parts(settled = false): MessagePart[] {
      const now = settled ? parts.map(settledPart) : [...parts];
      return now.some((part) => part.type === 'text') ? now : [...now, ...textParts('')];
    },
    /**
     * The web research so far; at the end (`settled`), searches that never said they finished are
     * taken as done, and nothing marks them running.
     */
    web(settled = false): WebResearch | undefined {
      if (!web || !settled) return web;
      return {
        ...web,
        searches: web.searches.map(({ query, failed }) => ({ query, ...(failed && { failed }) })),
      };
    },
    /** The figures so far; at the end, with the total time. */
    stats(endedAt?: number): ReplyStats | undefined {
      const result: ReplyStats = { ...stats };
      if (endedAt !== undefined) {
        if (thinkingFrom !== undefined) result.thinkingMs ??= endedAt - thinkingFrom;
        if (result.firstTokenMs !== undefined) result.totalMs = endedAt - startedAt;
      }
      return Object.keys(result).length > 0 ? result : undefined;
    },
  };
}

/** A part as kept when the reply has ended: no run still running, no picture still being drawn. */
function settledPart(part: MessagePart): MessagePart {
  if (part.type === 'code-run' && part.running) {
    const run = { ...part };
    delete run.running;
    return run;
  }
  if (part.type === 'attachment' && part.drawing) {
    const picture = { ...part };
    delete picture.drawing;
    return picture;
  }
  return part;
}
