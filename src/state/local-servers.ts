import { connectionIdOf, type Config, type Connections } from '../domain/config.ts';
import {
  corsFix,
  endpointName,
  firstChatModel,
  localBaseUrl,
  localServers,
  readModelList,
  recogniseServer,
  sameBaseUrl,
  localServerName,
  type LocalModel,
  type LocalServer,
  type LocalServerReport,
} from '../domain/local-servers.ts';
import { connectionLabel, newEndpoint, providerCatalog } from '../domain/provider-catalog.ts';
import type { ListedModel } from '../providers/types.ts';
import type { ChatContext } from './chat-context.ts';
import type { ChatState } from './chat-store.ts';
import { connectionsOf, modelListKey } from './chat-store.ts';
import type { ConfigService } from './config-commands.ts';

/** 'Find local models' (loaded on first use). */
export interface LocalServerCommands {
  /**
   * Looks for the usual model servers on this computer (Ollama, LM Studio, llama.cpp, Jan, vLLM at
   * their default ports), adds each one found as an OpenAI-compatible endpoint (once per base URL)
   * with its live model list, and says per server what it found (describeLocalServers).
   */
  findLocalModels(): Promise<LocalServerReport[]>;
}

export interface ProbeOptions {
  fetch: typeof fetch;
  /** The page's origin, named in the fixes for a server that refuses it. */
  origin: string;
  /** Tests use their own ports; the app always looks at `localServers`. */
  servers?: readonly LocalServer[];
  host?: string;
  /** Per request: a server on this computer answers its list at once or not at all. */
  timeoutMs?: number;
}

/** What a port gave, with the models as its list reported them. */
export interface Probed {
  report: LocalServerReport;
  models: LocalModel[];
}

/** More than any model list: a port answering with more is not a model server. */
const maxListChars = 2_000_000;

/**
 * The browser hides why a request failed. An opaque (no-cors) request that goes through shows
 * something listens, so the failure was its CORS refusal of this page; one that fails too means
 * nothing listens (as `serverAnswers` in providers/http.ts).
 */
async function answersOpaquely(fetcher: typeof fetch, url: string, timeoutMs: number): Promise<boolean> {
  try {
    await fetcher(url, { mode: 'no-cors', credentials: 'omit', signal: AbortSignal.timeout(timeoutMs) });
    return true;
  } catch {
    return false;
  }
}

async function probe(server: LocalServer, options: Required<ProbeOptions>): Promise<Probed> {
  const baseUrl = localBaseUrl(server.port, options.host);
  const url = `${baseUrl}/models`;
  const report: Omit<LocalServerReport, 'outcome'> = {
    port: server.port,
    kind: server.kind,
    name: server.name,
    baseUrl,
    models: [],
  };
  const signal = AbortSignal.timeout(options.timeoutMs);
  let response: Response;
  try {
    // A plain GET with no header of ours: a simple request, so no preflight is needed to read it.
    response = await options.fetch(url, { credentials: 'omit', signal });
  } catch {
    // Timed out: something holds the port without answering, which is no server to add.
    if (signal.aborted) return { report: { ...report, outcome: 'absent' }, models: [] };
    if (!(await answersOpaquely(options.fetch, url, options.timeoutMs)))
      return { report: { ...report, outcome: 'absent' }, models: [] };
    const fix = corsFix(server.kind, options.origin);
    return { report: { ...report, outcome: 'refused', fix }, models: [] };
  }
  if (response.status === 401) return { report: { ...report, outcome: 'needs-key' }, models: [] };
  const other = { report: { ...report, outcome: 'other' as const }, models: [] };
  if (!response.ok) return other;
  let json: unknown;
  try {
    const text = await response.text();
    if (text.length > maxListChars) return other;
    json = JSON.parse(text);
  } catch {
    return other;
  }
  const models = readModelList(json);
  if (!models) return other;
  const kind = recogniseServer(json) ?? server.kind;
  const name = kind === server.kind ? server.name : localServerName(kind);
  const found = { ...report, kind, name, outcome: 'found' as const, models: models.map(({ id }) => id) };
  return { report: found, models };
}

/** Asks every server at once, each bounded by its own timeout; in the servers' order. */
export function probeLocalServers(options: ProbeOptions): Promise<Probed[]> {
  const settled: Required<ProbeOptions> = {
    servers: localServers,
    host: 'localhost',
    timeoutMs: 2000,
    ...options,
  };
  return Promise.all(settled.servers.map((server) => probe(server, settled)));
}

function listedModels(models: readonly LocalModel[]): ListedModel[] {
  return models.map(({ id, contextWindow }) => ({
    id,
    capabilities: contextWindow ? { contextWindow } : {},
  }));
}

/** What finding changes: the connections with the new endpoints, the live lists, and the reports. */
export interface LocalEndpoints {
  connections: Connections;
  added: Config[];
  modelLists: Record<string, ListedModel[]>;
  reports: LocalServerReport[];
}

/**
 * Each server found with models becomes an endpoint, unless one has its base URL already (that
 * one's live list is refreshed instead): named after the server, keyless, on its first model
 * that can chat, keeping the saved configuration's temperature and max tokens.
 */
export function planLocalEndpoints(
  state: Pick<ChatState, 'config' | 'connections'>,
  probed: readonly Probed[],
  newId: () => string,
): LocalEndpoints {
  const endpoints = connectionsOf(state).filter(
    (connection) => providerCatalog[connection.provider].multipleConnections === true,
  );
  const connections = { ...state.connections };
  const added: Config[] = [];
  const modelLists: Record<string, ListedModel[]> = {};
  const reports = probed.map(({ report, models }): LocalServerReport => {
    if (report.outcome !== 'found' || models.length === 0) return report;
    const known = endpoints.find(({ baseUrl }) => baseUrl && sameBaseUrl(baseUrl, report.baseUrl));
    if (known) {
      modelLists[modelListKey(known)] = listedModels(models);
      return { ...report, connectionId: connectionIdOf(known), added: false };
    }
    const taken = endpoints.map((endpoint) => connectionLabel(endpoint));
    const endpoint: Config = {
      ...newEndpoint(newId(), state.config),
      name: endpointName(report.name, report.baseUrl, taken),
      baseUrl: report.baseUrl,
      model: firstChatModel(report.models) ?? '',
    };
    endpoints.push(endpoint);
    added.push(endpoint);
    connections[connectionIdOf(endpoint)] = endpoint;
    modelLists[modelListKey(endpoint)] = listedModels(models);
    return { ...report, connectionId: connectionIdOf(endpoint), added: true };
  });
  return { connections, added, modelLists, reports };
}

export function createLocalServerCommands({
  ctx,
  configs,
  fetch: fetcher = (...args) => fetch(...args),
  origin = () => globalThis.location?.origin ?? 'http://localhost',
}: {
  ctx: ChatContext;
  configs: Pick<ConfigService, 'replaceConnections'>;
  fetch?: typeof fetch;
  origin?: () => string;
}): LocalServerCommands {
  // A second click while looking waits for the same look.
  let looking: Promise<LocalServerReport[]> | null = null;

  async function look(): Promise<LocalServerReport[]> {
    const probed = await probeLocalServers({ fetch: fetcher, origin: origin() });
    // Read after probing: the connections may have changed meanwhile (another tab, the panel).
    const plan = planLocalEndpoints(ctx.get(), probed, ctx.newId);
    if (plan.added.length > 0) configs.replaceConnections(plan.connections);
    ctx.store.setState((state) => ({ modelLists: { ...state.modelLists, ...plan.modelLists } }));
    return plan.reports;
  }

  return {
    findLocalModels: () =>
      (looking ??= look().finally(() => {
        looking = null;
      })),
  };
}
