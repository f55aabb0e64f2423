import type { Config } from '../domain/config.ts';
import type { Conversation } from '../domain/conversation.ts';
import { supportsTools } from '../domain/provider-definitions/capabilities.ts';
import {
  declinedCallText,
  errorResult,
  type ToolCallPart,
  type ToolResultContent,
  type ToolResultPart,
} from '../domain/tools.ts';
import type { ChatContext } from './chat-context.ts';
import { modelCapabilities, type ToolApproval } from './chat-store.ts';
import type { OfferedTool, ToolOutcome, ToolSource } from '../tools/tool-source.ts';

/** The user's answer to a call waiting for approval. */
export type ToolDecision = 'once' | 'always' | 'deny';

/** Where the tools of a reply come from, who allows them, and how they run. */
export interface ToolRunner {
  /**
   * The tools this conversation's next request offers with this configuration: none when the
   * model takes no tools, or when none is on for the conversation.
   */
  offered(conversation: Conversation, config: Config): Promise<OfferedTool[]>;
  /** A reply calls tools at most this many times in a row (the setting). */
  stepLimit(): number;
  /**
   * Runs one step's calls: each is allowed first where the user must say (one at a time, and
   * nothing runs meanwhile), then the allowed ones run together. One result per call, in order; a
   * call not run (declined, unknown, unreadable arguments) has an error result the model can read.
   * When `signal` aborts, it resolves at once with what has finished (the loop answers the rest).
   */
  runCalls(step: {
    conversationId: string;
    messageId: string;
    calls: readonly ToolCallPart[];
    offered: readonly OfferedTool[];
    signal: AbortSignal;
  }): Promise<ToolResultPart[]>;
  /** Answers the call waiting for approval (ChatState.toolApproval). */
  answer(decision: ToolDecision): void;
}

/** Whether a source's tools are on in a conversation: built-in ones only when turned on there. */
export type SourceSwitch = (conversation: Conversation, source: ToolSource) => boolean;

/** The key a tool is always allowed under. */
export const permissionKey = (server: string, tool: string) => `${server}/${tool}`;

export function createToolRunner({
  ctx,
  sources,
  isOn,
}: {
  ctx: ChatContext;
  /** Every place tools come from, now. */
  sources: () => readonly ToolSource[];
  isOn: SourceSwitch;
}): ToolRunner {
  let waiting: ((decision: ToolDecision) => void) | null = null;

  async function offered(conversation: Conversation, config: Config): Promise<OfferedTool[]> {
    if (!supportsTools(modelCapabilities(ctx.get(), config))) return [];
    const lists = await Promise.all(
      sources()
        .filter((source) => isOn(conversation, source))
        .map((source) =>
          source.list().catch((error: unknown) => {
            console.warn(`The tools of ${source.label} could not be listed`, error);
            return [];
          }),
        ),
    );
    // A name is offered once: the first source to list it has it.
    const seen = new Set<string>();
    return lists.flat().filter(({ definition }) => !seen.has(definition.name) && seen.add(definition.name));
  }

  /** Waits for the user's answer to this call (or the abort: then 'deny', never reported). */
  function approval(asked: Omit<ToolApproval, 'sourceLabel'> & { server: string }, signal: AbortSignal) {
    const { server, ...shown } = asked;
    const sourceLabel = sources().find((source) => source.id === server)?.label ?? server;
    return new Promise<ToolDecision>((resolve) => {
      const settle = (decision: ToolDecision) => {
        signal.removeEventListener('abort', onAbort);
        waiting = null;
        ctx.store.setState({ toolApproval: null });
        resolve(decision);
      };
      const onAbort = () => settle('deny');
      if (signal.aborted) return onAbort();
      signal.addEventListener('abort', onAbort, { once: true });
      waiting = settle;
      ctx.store.setState({ toolApproval: { ...shown, sourceLabel } });
    });
  }

  /** The call's arguments as an object, or why they cannot be read. */
  function readArguments(call: ToolCallPart): Record<string, unknown> | string {
    try {
      const value: unknown = JSON.parse(call.arguments.trim() === '' ? '{}' : call.arguments);
      if (typeof value === 'object' && value !== null && !Array.isArray(value))
        return value as Record<string, unknown>;
      return 'The arguments must be a JSON object.';
    } catch (error) {
      return `The arguments are not valid JSON (${error instanceof Error ? error.message : String(error)}). Send them again as a JSON object.`;
    }
  }

  /** A tool's outcome as a stored result: its images staged to be stored with the conversation. */
  function resultOf(call: ToolCallPart, outcome: ToolOutcome): ToolResultPart {
    const content: ToolResultContent[] = outcome.content.map((piece) => {
      if (piece.type === 'text') return piece;
      const attachmentId = ctx.newId();
      ctx.db().stageAttachment(attachmentId, piece.blob);
      return { type: 'image', attachmentId, mimeType: piece.mimeType };
    });
    return {
      type: 'tool-result',
      callId: call.callId,
      name: call.name,
      content,
      ...(outcome.isError && { isError: true as const }),
    };
  }

  async function runCalls({
    conversationId,
    messageId,
    calls,
    offered: tools,
    signal,
  }: Parameters<ToolRunner['runCalls']>[0]): Promise<ToolResultPart[]> {
    const byName = new Map(tools.map((tool) => [tool.definition.name, tool]));
    const plans: (
      | { call: ToolCallPart; result: ToolResultPart }
      | { call: ToolCallPart; tool: OfferedTool; args: Record<string, unknown> }
    )[] = [];
    for (const call of calls) {
      if (signal.aborted) break;
      const tool = byName.get(call.name);
      if (!tool) {
        plans.push({ call, result: errorResult(call, `There is no tool named ${call.name} here.`) });
        continue;
      }
      const args = readArguments(call);
      if (typeof args === 'string') {
        plans.push({ call, result: errorResult(call, args) });
        continue;
      }
      const settings = ctx.settings.loadToolSettings();
      const key = permissionKey(tool.server, tool.definition.name);
      if (!settings.alwaysAllowed.includes(key)) {
        const decision = await approval(
          { conversationId, messageId, callId: call.callId, server: tool.server, hints: tool.hints },
          signal,
        );
        if (signal.aborted) break;
        if (decision === 'deny') {
          plans.push({ call, result: errorResult(call, declinedCallText) });
          continue;
        }
        // 'Always' is never offered for a tool marked destructive; a stale answer counts once.
        if (decision === 'always' && tool.hints.destructive !== true) {
          const allowed = { ...settings, alwaysAllowed: [...settings.alwaysAllowed, key] };
          ctx.settings.saveToolSettings(allowed);
          ctx.store.setState({ toolSettings: allowed });
        }
      }
      plans.push({ call, tool, args });
    }
    const source = (server: string) => sources().find((candidate) => candidate.id === server);
    const running = plans.map(async (plan): Promise<ToolResultPart | null> => {
      if ('result' in plan) return plan.result;
      const from = source(plan.tool.server);
      if (!from) return errorResult(plan.call, `The tool ${plan.call.name} is no longer available.`);
      try {
        return resultOf(plan.call, await from.call(plan.call.name, plan.args, signal));
      } catch (error) {
        if (signal.aborted) return null;
        return errorResult(
          plan.call,
          `The tool could not be run: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
    });
    const aborted = new Promise<(ToolResultPart | null)[]>((resolve) => {
      if (signal.aborted) resolve([]);
      signal.addEventListener('abort', () => resolve([]), { once: true });
    });
    // Stop does not wait for a tool that hangs: what finished is kept, the loop answers the rest.
    const settled = await Promise.race([Promise.all(running), aborted]);
    if (settled.length === 0 && signal.aborted) {
      // A call already finished wins its race (its settlement is queued first); the rest are null.
      const done = await Promise.all(running.map((result) => Promise.race([result, Promise.resolve(null)])));
      return done.filter((result): result is ToolResultPart => result !== null);
    }
    return settled.filter((result): result is ToolResultPart => result !== null);
  }

  return {
    offered,
    stepLimit: () => ctx.settings.loadToolSettings().stepLimit,
    runCalls,
    answer(decision) {
      waiting?.(decision);
    },
  };
}
