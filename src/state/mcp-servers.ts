import type { McpServerDraft } from '../domain/mcp-server-input.ts';
import type { McpPromptText } from '../tools/mcp/types.ts';
import type { OfferedTool, ToolSource } from '../tools/tool-source.ts';
import type { ChatContext } from './chat-context.ts';
import type { KeyLock } from './key-lock.ts';
import type { McpRegistry } from './mcp-registry.ts';

/** A tool of a server as Tools settings lists it: on or off everywhere. */
export interface McpToolView {
  tool: OfferedTool;
  on: boolean;
}

/** MCP servers: added, removed, signed in to, and their tools switched on and off everywhere. */
export interface McpCommands {
  /** Adds a server from what the user typed and connects to it; or why it cannot be added. */
  addMcpServer(draft: McpServerDraft): Promise<{ ok: true; id: string } | { ok: false; problem: string }>;
  removeMcpServer(id: string): void;
  /** Off: none of its tools is offered in any conversation, and it is disconnected. */
  setMcpServerEnabled(id: string, on: boolean): void;
  setMcpToolEnabled(id: string, toolName: string, on: boolean): void;
  /** OAuth sign-in: call it in the user's click (it opens the sign-in window at once). */
  signInMcpServer(id: string): void;
  /** Connects again (after a failure, or a fix on the server). */
  reconnectMcpServer(id: string): void;
  /** Every tool the server offers, with the ones switched off; connects first when need be. */
  mcpServerTools(id: string): Promise<McpToolView[]>;
  /**
   * One of the server's prompts (prompts/get, the `/` menu lists those of the servers connected)
   * as text for the message box; rejects with one sentence.
   */
  getMcpPrompt(
    id: string,
    name: string,
    args: Readonly<Record<string, string>>,
    signal?: AbortSignal,
  ): Promise<McpPromptText>;
}

/**
 * The MCP servers the user connected, as tool sources. What the chat screen loads at start is only
 * this: the list of servers, read from storage. Their clients, the MCP SDK and the commands that
 * manage them (mcp-registry.ts) load when a server is first used or managed.
 */
export function createMcpServers({ ctx, keyLock }: { ctx: ChatContext; keyLock: KeyLock }) {
  const { store } = ctx;
  let loading: Promise<McpRegistry> | null = null;
  /** Once loaded: a sign-in then opens its window in the click itself, with nothing awaited. */
  let loaded: McpRegistry | null = null;
  const registry = () =>
    (loading ??= import('./mcp-registry.ts').then(({ createMcpRegistry }) => {
      loaded = createMcpRegistry({ ctx, keyLock });
      return loaded;
    }));
  /** Runs a command now when the registry is loaded, else once it is. */
  const run = (command: (registry: McpRegistry) => void) => {
    if (loaded) command(loaded);
    else void registry().then(command);
  };

  /** The tool source of each server, kept so the same server is the same source. */
  const sources = new Map<string, ToolSource>();
  function sourceOf(id: string): ToolSource {
    let source = sources.get(id);
    if (!source) {
      source = {
        id,
        get label() {
          return store.getState().mcpServers.find((server) => server.id === id)?.name ?? id;
        },
        list: async (signal) => (await registry()).list(id, signal),
        call: async (name, args, signal) => (await registry()).call(id, name, args, signal),
      };
      sources.set(id, source);
    }
    return source;
  }

  const commands: McpCommands = {
    addMcpServer: async (draft) => (await registry()).commands.addMcpServer(draft),
    removeMcpServer: (id) => run((loaded) => loaded.commands.removeMcpServer(id)),
    setMcpServerEnabled: (id, on) => run((loaded) => loaded.commands.setMcpServerEnabled(id, on)),
    setMcpToolEnabled: (id, tool, on) => run((loaded) => loaded.commands.setMcpToolEnabled(id, tool, on)),
    signInMcpServer: (id) => run((loaded) => loaded.commands.signInMcpServer(id)),
    reconnectMcpServer: (id) => run((loaded) => loaded.commands.reconnectMcpServer(id)),
    mcpServerTools: async (id) => (await registry()).commands.mcpServerTools(id),
    getMcpPrompt: async (id, name, args, signal) => (await registry()).getPrompt(id, name, args, signal),
  };

  return {
    commands,
    /** Every enabled server as a tool source. */
    sources: (): ToolSource[] =>
      store
        .getState()
        .mcpServers.filter((server) => server.enabled)
        .map((server) => sourceOf(server.id)),
    /** The stored servers and (unless sealed) secrets, read again: at start and when another tab changed them. */
    load(): void {
      const servers = ctx.settings.loadMcpServers();
      const ids = new Set(servers.map((server) => server.id));
      for (const id of [...sources.keys()]) if (!ids.has(id)) sources.delete(id);
      loaded?.keepOnly(ids);
      // A copy in the clear left beside a vault (a tab that wrote one as another protected the keys) goes.
      if (ctx.settings.loadKeyVault()) ctx.settings.saveMcpSecrets({});
      store.setState((state) => ({
        mcpServers: servers,
        ...(state.keyLock === 'off' && { mcpSecrets: ctx.settings.loadMcpSecrets() }),
      }));
    },
  };
}
