import type { ProviderTool } from '../domain/provider-definitions/capabilities.ts';
import { providerToolSwitches, setToolSwitch } from '../domain/tool-switches.ts';
import type { ChatContext } from './chat-context.ts';
import type { OpenConversations } from './open-conversations.ts';
import type { ToolDecision, ToolRunner } from './tool-runner.ts';
import type { OfferedTool, ToolSource } from '../tools/tool-source.ts';

/** A place tools come from, as the Tools settings and the composer show it. */
export interface ToolSourceView {
  id: string;
  label: string;
  /** On in this conversation. */
  on: boolean;
  tools: OfferedTool[];
  /** Why its tools could not be listed. */
  problem?: string;
}

/** Tools: what a conversation offers, who allows a call, and the settings. */
export interface ToolCommands {
  /** Answers the call waiting for approval: 'Allow once', 'Always allow {tool}' or 'Deny'. */
  answerToolCall(decision: ToolDecision): void;
  /** Every tool source with its tools, and whether it is on in this conversation. */
  toolSources(conversationId: string): Promise<ToolSourceView[]>;
  /** Switches a source's tools on or off in one conversation. */
  setConversationTools(conversationId: string, sourceId: string, on: boolean): Promise<void>;
  /** 'Search the web' (the provider's own search) on or off in one conversation. */
  /** 'Search the web', 'Run code' or 'Create images', in one conversation. */
  setProviderTool(conversationId: string, tool: ProviderTool, on: boolean): Promise<void>;
  /** Takes back an 'Always allow' (its key, `{server}/{tool}`). */
  revokeToolPermission(key: string): void;
  /** How many tool steps a reply may take, 1 to 100. */
  setToolStepLimit(limit: number): void;
}

export function createToolCommands({
  ctx,
  open,
  runner,
  sources,
  isOn,
}: {
  ctx: ChatContext;
  open: OpenConversations;
  runner: ToolRunner;
  sources: () => readonly ToolSource[];
  isOn: (conversation: Parameters<typeof setToolSwitch>[0], source: ToolSource) => boolean;
}): ToolCommands {
  /** The settings as stored, mirrored in the store for the screen. */
  function saveSettings(change: Partial<ReturnType<typeof ctx.settings.loadToolSettings>>) {
    const settings = { ...ctx.settings.loadToolSettings(), ...change };
    ctx.settings.saveToolSettings(settings);
    ctx.store.setState({ toolSettings: settings });
  }

  return {
    answerToolCall: (decision) => runner.answer(decision),
    async toolSources(conversationId) {
      const conversation = await open.ensureLoaded(conversationId);
      return Promise.all(
        sources().map(async (source): Promise<ToolSourceView> => {
          const on = conversation ? isOn(conversation, source) : false;
          try {
            return { id: source.id, label: source.label, on, tools: await source.list() };
          } catch (error) {
            const problem = error instanceof Error ? error.message : String(error);
            return { id: source.id, label: source.label, on, tools: [], problem };
          }
        }),
      );
    },
    async setConversationTools(conversationId, sourceId, on) {
      await open.change(conversationId, (conversation) =>
        setToolSwitch(conversation, sourceId, on, ctx.now()),
      );
    },
    async setProviderTool(conversationId, tool, on) {
      await open.change(conversationId, (conversation) =>
        setToolSwitch(conversation, providerToolSwitches[tool], on, ctx.now()),
      );
    },
    revokeToolPermission(key) {
      const { alwaysAllowed } = ctx.settings.loadToolSettings();
      saveSettings({ alwaysAllowed: alwaysAllowed.filter((entry) => entry !== key) });
    },
    setToolStepLimit(limit) {
      saveSettings({ stepLimit: Math.min(100, Math.max(1, Math.round(limit))) });
    },
  };
}
