import { readMcpSecret, serverFromDraft, type McpServerDraft } from '../domain/mcp-server-input.ts';
import { mcpOAuthPrefix, mcpSecretKey, type McpServer } from '../domain/mcp-servers.ts';
import { createMcpSource, type McpSource, type McpStatus } from '../tools/mcp/index.ts';
import type { ChatContext } from './chat-context.ts';
import type { KeyLock } from './key-lock.ts';
import { createKeptSecrets } from './kept-secrets.ts';

/**
 * The MCP servers' clients and commands, loaded when a server is first used or managed (see
 * mcp-servers.ts). Each server's state is mirrored in the store (ChatState.mcpStatus).
 */
export function createMcpRegistry({ ctx, keyLock }: { ctx: ChatContext; keyLock: KeyLock }) {
  const { store } = ctx;
  /** The client of each server, made when it is first needed (its SDK loads when it first connects). */
  const clients = new Map<string, McpSource>();

  const serverOf = (id: string) => store.getState().mcpServers.find((server) => server.id === id);

  function setStatus(id: string, status: McpStatus): void {
    store.setState((state) => ({ mcpStatus: { ...state.mcpStatus, [id]: status } }));
  }

  const secrets = createKeptSecrets({ ctx, keyLock });
  const writeSecrets = secrets.write;

  /** Changes the list of servers as storage holds it (another tab may have changed it meanwhile). */
  function saveServers(change: (servers: McpServer[]) => McpServer[]): void {
    const servers = change(ctx.settings.loadMcpServers());
    store.setState({ mcpServers: servers });
    const written = ctx.settings.saveMcpServers(servers);
    if (!written.ok) ctx.notify.error('Could not save the MCP servers', written.message);
  }

  function client(server: McpServer): McpSource {
    let made = clients.get(server.id);
    if (!made) {
      made = createMcpSource(
        {
          id: server.id,
          name: server.name,
          url: server.url,
          auth: server.auth,
          ...(server.clientId && { oauthClientId: server.clientId }),
        },
        {
          secrets: {
            headers: () =>
              Promise.resolve(readMcpSecret(store.getState().mcpSecrets[mcpSecretKey(server.id)]).headers),
          },
          oauthStore: {
            read: (key) => Promise.resolve(store.getState().mcpSecrets[mcpOAuthPrefix + key]),
            write(key, value) {
              const kept = mcpOAuthPrefix + key;
              writeSecrets((secrets) => {
                const rest = Object.fromEntries(Object.entries(secrets).filter(([name]) => name !== kept));
                return value === undefined ? rest : { ...rest, [kept]: value };
              });
              return Promise.resolve();
            },
          },
        },
      );
      made.subscribe((status) => setStatus(server.id, status));
      clients.set(server.id, made);
    }
    return made;
  }

  function forget(id: string): void {
    const made = clients.get(id);
    clients.delete(id);
    if (made) void made.disconnect();
    store.setState((state) => ({
      mcpStatus: Object.fromEntries(Object.entries(state.mcpStatus).filter(([key]) => key !== id)),
    }));
  }

  /** A server's tools less those switched off; the client connects when first asked. */
  async function list(id: string, signal?: AbortSignal) {
    const server = serverOf(id);
    if (!server?.enabled) return [];
    const off = new Set(server.disabledTools);
    const tools = await client(server).list(signal);
    return tools.filter((tool) => !off.has(tool.definition.name));
  }

  function call(id: string, name: string, args: Record<string, unknown>, signal: AbortSignal) {
    const server = serverOf(id);
    if (!server?.enabled) return Promise.reject(new Error('This MCP server was turned off or removed.'));
    return client(server).call(name, args, signal);
  }

  /** A prompt of a server that is on (the `/` menu lists those of the servers connected). */
  function getPrompt(id: string, name: string, args: Readonly<Record<string, string>>, signal?: AbortSignal) {
    const server = serverOf(id);
    if (!server?.enabled) return Promise.reject(new Error('This MCP server was turned off or removed.'));
    return client(server).getPrompt(name, args, signal);
  }

  const commands = {
    addMcpServer(draft: McpServerDraft): { ok: true; id: string } | { ok: false; problem: string } {
      const id = `mcp-${ctx.newId()}`;
      const made = serverFromDraft(draft, id);
      if ('problem' in made) return { ok: false, problem: made.problem };
      const { server, secret } = made;
      const servers = store.getState().mcpServers;
      if (servers.some((existing) => existing.url === server.url))
        return { ok: false, problem: 'This server is already in the list.' };
      if (secret && store.getState().keyLock === 'locked')
        return { ok: false, problem: 'Unlock your keys first: the server’s secret is kept with them.' };
      if (secret) writeSecrets((secrets) => ({ ...secrets, [mcpSecretKey(id)]: JSON.stringify(secret) }));
      saveServers((stored) => [...stored, server]);
      void client(server).connect();
      return { ok: true, id };
    },
    removeMcpServer(id: string) {
      forget(id);
      saveServers((stored) => stored.filter((server) => server.id !== id));
      writeSecrets((secrets) =>
        Object.fromEntries(
          Object.entries(secrets).filter(
            ([key]) => key !== mcpSecretKey(id) && !key.startsWith(`${mcpOAuthPrefix}${id}:`),
          ),
        ),
      );
    },
    setMcpServerEnabled(id: string, on: boolean) {
      saveServers((stored) =>
        stored.map((server) => (server.id === id ? { ...server, enabled: on } : server)),
      );
      const server = serverOf(id);
      if (!on) forget(id);
      else if (server) void client(server).connect();
    },
    setMcpToolEnabled(id: string, toolName: string, on: boolean) {
      saveServers((stored) =>
        stored.map((server) => {
          if (server.id !== id) return server;
          const off = new Set(server.disabledTools);
          if (on) off.delete(toolName);
          else off.add(toolName);
          return { ...server, disabledTools: [...off] };
        }),
      );
    },
    signInMcpServer(id: string) {
      const server = serverOf(id);
      if (!server) return;
      if (store.getState().keyLock === 'locked') {
        ctx.notify.error('Unlock your keys first', 'What the sign-in gives is kept with your API keys.');
        return;
      }
      // Synchronously, in the user's click: a popup blocker allows the window only there.
      void client(server).signIn();
    },
    reconnectMcpServer(id: string) {
      const server = serverOf(id);
      if (!server) return;
      forget(id);
      void client(server).connect();
    },
    async mcpServerTools(id: string) {
      const server = serverOf(id);
      if (!server) return [];
      const off = new Set(server.disabledTools);
      const tools = await client(server).list();
      return tools.map((tool) => ({ tool, on: !off.has(tool.definition.name) }));
    },
  };

  // Keys locked again, or forgotten: connections made with a secret must not go on using it.
  store.subscribe((state, before) => {
    const locked = state.keyLock === 'locked' && before.keyLock !== 'locked';
    const forgotten = Object.keys(state.mcpSecrets).length === 0 && Object.keys(before.mcpSecrets).length > 0;
    if (locked || forgotten) for (const id of [...clients.keys()]) forget(id);
  });

  /** Servers removed elsewhere (another tab): their clients go. */
  function keepOnly(ids: ReadonlySet<string>): void {
    for (const id of [...clients.keys()]) if (!ids.has(id)) forget(id);
  }

  return { commands, list, call, getPrompt, keepOnly };
}

export type McpRegistry = ReturnType<typeof createMcpRegistry>;
