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
  serverOf: (toolName: string) => string | undefined,
  /** A continued reply's parts and web research so far: citations count their offsets after them. */
  earlier: { parts: readonly MessagePart[]; web?: WebResearch } = { parts: [] },
) {
  const parts: MessagePart[] = [];
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
        case 'notice':
        case 'code-start':
        case 'code-delta':
        case 'code-result':
        case 'file':
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
    /** The parts so far; a reply holds a text part (its answer) even while it is empty. */
    parts(): MessagePart[] {
      return parts.some((part) => part.type === 'text') ? [...parts] : [...parts, ...textParts('')];
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
