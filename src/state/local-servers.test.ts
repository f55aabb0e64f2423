import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { connectionIdOf, type Config } from '../domain/config.ts';
import type { LocalServer } from '../domain/local-servers.ts';
import { startFakeLocalServers, type FakeServers } from '../../tools/local-servers/fake-local-servers.mjs';
import { modelListKey } from './chat-store.ts';
import { config, localStorage, setUpTabs, tab } from './controller-harness.ts';
import { planLocalEndpoints, probeLocalServers, type Probed } from './local-servers.ts';

const origin = 'https://chat.example';

/**
 * Node's fetch as a page of `origin` sees it: the response is readable only when the server allows
 * that origin; an opaque (no-cors) request goes through whenever something answers.
 */
function pageFetch(pageOrigin: string): typeof fetch {
  return async (input, init = {}) => {
    const { mode, ...rest } = init;
    const headers = new Headers(rest.headers);
    headers.set('origin', pageOrigin);
    const response = await fetch(input, { ...rest, headers });
    if (mode === 'no-cors') {
      await response.body?.cancel();
      return new Response(null);
    }
    const allowed = response.headers.get('access-control-allow-origin');
    if (allowed === '*' || allowed === pageOrigin) return response;
    await response.body?.cancel();
    throw new TypeError('Failed to fetch');
  };
}

/** A port nothing listens on: taken, then given back. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('probeLocalServers against fake servers', () => {
  let fakes: FakeServers;
  /** Accepts connections and never answers. */
  let silent: Server;
  let silentPort: number;
  let emptyPort: number;

  beforeAll(async () => {
    fakes = await startFakeLocalServers([
      { kind: 'ollama', cors: [origin] },
      { kind: 'lmstudio' },
      { kind: 'llamacpp' },
      { kind: 'vllm' },
      { kind: 'ollama', models: [] },
    ]);
    silent = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    silentPort = (silent.address() as AddressInfo).port;
    emptyPort = await freePort();
  });

  afterAll(async () => {
    silent.closeAllConnections();
    await new Promise((resolve) => silent.close(resolve));
    await fakes.close();
  });

  function at(index: number, server: Omit<LocalServer, 'port'>): LocalServer {
    const fake = fakes.servers[index];
    if (!fake) throw new Error(`no fake server ${index}`);
    return { ...server, port: fake.port };
  }

  it('finds each server with its models, tells a CORS refusal from nothing listening, all at once', async () => {
    const servers: LocalServer[] = [
      at(0, { kind: 'ollama', name: 'Ollama' }),
      at(1, { kind: 'lmstudio', name: 'LM Studio' }),
      at(2, { kind: 'llamacpp', name: 'llama.cpp' }),
      { kind: 'jan', name: 'Jan', port: emptyPort },
      at(3, { kind: 'vllm', name: 'vLLM' }),
    ];
    const probed = await probeLocalServers({ fetch: pageFetch(origin), origin, servers, host: '127.0.0.1' });
    expect(probed.map(({ report }) => [report.name, report.outcome, report.models])).toEqual([
      ['Ollama', 'found', ['llama3.2:latest', 'qwen3:8b', 'nomic-embed-text:latest']],
      ['LM Studio', 'refused', []],
      ['llama.cpp', 'found', ['gemma-3-4b-it-Q4_K_M.gguf']],
      ['Jan', 'absent', []],
      ['vLLM', 'found', ['Qwen/Qwen2.5-1.5B-Instruct']],
    ]);
    const [ollama, lmStudio, , , vllm] = probed;
    expect(ollama?.report.baseUrl).toBe(`http://127.0.0.1:${servers[0]?.port}/v1`);
    expect(lmStudio?.report.fix).toBe(
      'In LM Studio, turn on Developer → Server settings → Enable CORS, or start the server with lms server start --cors.',
    );
    expect(vllm?.models).toEqual([{ id: 'Qwen/Qwen2.5-1.5B-Instruct', contextWindow: 32768 }]);
    // Only GETs of the model list, without credentials or headers of ours: no preflight.
    expect(fakes.servers[0]?.requests).toEqual([{ method: 'GET', path: '/v1/models', origin, body: null }]);
  });

  it('names a server by its answer rather than by its port', async () => {
    const servers: LocalServer[] = [
      at(3, { kind: 'llamacpp', name: 'llama.cpp' }),
      at(2, { kind: 'vllm', name: 'vLLM' }),
    ];
    const probed = await probeLocalServers({ fetch: pageFetch(origin), origin, servers, host: '127.0.0.1' });
    expect(probed.map(({ report }) => [report.kind, report.name])).toEqual([
      ['vllm', 'vLLM'],
      ['llamacpp', 'llama.cpp'],
    ]);
  });

  it('refuses an origin Ollama was not told about, and finds one that lists no model', async () => {
    const other = 'https://elsewhere.example';
    const servers: LocalServer[] = [
      at(0, { kind: 'ollama', name: 'Ollama' }),
      at(4, { kind: 'ollama', name: 'Ollama' }),
    ];
    const refused = await probeLocalServers({
      fetch: pageFetch(other),
      origin: other,
      servers,
      host: '127.0.0.1',
    });
    expect(refused.map(({ report }) => report.outcome)).toEqual(['refused', 'refused']);
    expect(refused[0]?.report.fix).toBe(
      'Ollama allows only pages on this computer unless told otherwise: quit it and start it with OLLAMA_ORIGINS=https://elsewhere.example ollama serve.',
    );
    const local = 'http://localhost:5173';
    const found = await probeLocalServers({
      fetch: pageFetch(local),
      origin: local,
      servers,
      host: '127.0.0.1',
    });
    expect(found.map(({ report }) => [report.outcome, report.models.length])).toEqual([
      ['found', 3],
      ['found', 0],
    ]);
  });

  it('gives up on a port that holds the connection without answering', async () => {
    const servers: LocalServer[] = [{ kind: 'vllm', name: 'vLLM', port: silentPort }];
    const started = Date.now();
    const probed = await probeLocalServers({
      fetch: pageFetch(origin),
      origin,
      servers,
      host: '127.0.0.1',
      timeoutMs: 300,
    });
    expect(probed[0]?.report.outcome).toBe('absent');
    expect(Date.now() - started).toBeLessThan(5000);
  });
});

describe('planLocalEndpoints', () => {
  const probed: Probed[] = [
    {
      report: {
        port: 11434,
        kind: 'ollama',
        name: 'Ollama',
        baseUrl: 'http://localhost:11434/v1',
        outcome: 'found',
        models: ['nomic-embed-text:latest', 'llama3.2:latest'],
      },
      models: [{ id: 'nomic-embed-text:latest' }, { id: 'llama3.2:latest' }],
    },
    {
      report: {
        port: 8000,
        kind: 'vllm',
        name: 'vLLM',
        baseUrl: 'http://localhost:8000/v1',
        outcome: 'found',
        models: ['q'],
      },
      models: [{ id: 'q', contextWindow: 32768 }],
    },
    {
      report: {
        port: 1234,
        kind: 'lmstudio',
        name: 'LM Studio',
        baseUrl: 'http://localhost:1234/v1',
        outcome: 'refused',
        models: [],
        fix: 'Enable CORS.',
      },
      models: [],
    },
  ];
  let ids = 0;
  const newId = () => `id-${(ids += 1)}`;

  it('adds each server found as a keyless endpoint on its first chat model, with its live list', () => {
    ids = 0;
    const plan = planLocalEndpoints({ config, connections: {} }, probed, newId);
    const ollama: Config = {
      provider: 'custom',
      apiKey: '',
      temperature: config.temperature,
      maxTokens: config.maxTokens,
      name: 'Ollama',
      model: 'llama3.2:latest',
      topP: 1,
      endpointId: 'id-1',
      baseUrl: 'http://localhost:11434/v1',
    };
    expect(plan.added[0]).toEqual(ollama);
    expect(plan.added.map(({ name }) => name)).toEqual(['Ollama', 'vLLM']);
    expect(Object.keys(plan.connections)).toEqual(['custom:id-1', 'custom:id-2']);
    expect(plan.modelLists[modelListKey(ollama)]).toEqual([
      { id: 'nomic-embed-text:latest', capabilities: {} },
      { id: 'llama3.2:latest', capabilities: {} },
    ]);
    expect(plan.reports.map(({ connectionId, added }) => [connectionId, added])).toEqual([
      ['custom:id-1', true],
      ['custom:id-2', true],
      [undefined, undefined],
    ]);
  });

  it('adds no endpoint twice: one with the same base URL gets the live list instead', () => {
    const mine: Config = {
      ...config,
      provider: 'custom',
      apiKey: '',
      endpointId: 'mine',
      name: 'My Ollama',
      baseUrl: 'http://127.0.0.1:11434/v1/',
      model: 'qwen3:8b',
    };
    const elsewhere: Config = { ...mine, endpointId: 'far', name: 'vLLM', baseUrl: 'https://gpu.example/v1' };
    const connections = { [connectionIdOf(mine)]: mine, [connectionIdOf(elsewhere)]: elsewhere };
    const plan = planLocalEndpoints({ config, connections }, probed, newId);
    expect(plan.added.map(({ name, baseUrl }) => [name, baseUrl])).toEqual([
      ['vLLM (localhost:8000)', 'http://localhost:8000/v1'],
    ]);
    expect(plan.reports[0]).toMatchObject({ connectionId: 'custom:mine', added: false });
    expect(plan.modelLists[modelListKey(mine)]).toHaveLength(2);
  });
});

describe('chat.findLocalModels', () => {
  setUpTabs();

  /** Ollama answers this page at its real port; LM Studio refuses it; nothing else listens. */
  function computer(): typeof fetch {
    return (input, init = {}) => {
      const url = String(input);
      if (url === 'http://localhost:11434/v1/models') {
        const list = { object: 'list', data: [{ id: 'llama3.2:latest', owned_by: 'library' }] };
        return Promise.resolve(Response.json(list));
      }
      if (url === 'http://localhost:1234/v1/models' && init.mode === 'no-cors')
        return Promise.resolve(new Response(null));
      return Promise.reject(new TypeError('Failed to fetch'));
    };
  }

  it('adds what it finds as endpoints, once, with their live lists, and loads on first use', async () => {
    vi.stubGlobal('fetch', computer());
    const reports = await tab.chat.findLocalModels();
    expect(reports.map(({ name, outcome }) => `${name} ${outcome}`)).toEqual([
      'Ollama found',
      'LM Studio refused',
      'llama.cpp absent',
      'Jan absent',
      'vLLM absent',
    ]);
    // No page here: the fix names the loopback origin taken instead.
    expect(reports[1]?.fix).toContain('lms server start --cors');
    expect(reports[0]?.added).toBe(true);
    const { connections, modelLists } = tab.chat.store.getState();
    const added = Object.values(connections).filter(({ provider }) => provider === 'custom');
    expect(added.map(({ name, baseUrl, model, apiKey }) => [name, baseUrl, model, apiKey])).toEqual([
      ['Ollama', 'http://localhost:11434/v1', 'llama3.2:latest', ''],
    ]);
    expect(modelLists[modelListKey(added[0] as Config)]).toEqual([
      { id: 'llama3.2:latest', capabilities: {} },
    ]);
    // Stored, so another tab and the next start have it.
    expect(localStorage.getItem('ai-chat-connections')).toContain('http://localhost:11434/v1');

    const again = await tab.chat.findLocalModels();
    expect(again[0]).toMatchObject({
      outcome: 'found',
      added: false,
      connectionId: reports[0]?.connectionId,
    });
    const custom = Object.values(tab.chat.store.getState().connections).filter(
      ({ provider }) => provider === 'custom',
    );
    expect(custom).toHaveLength(1);
  });
});
