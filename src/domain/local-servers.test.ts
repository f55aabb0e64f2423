import { describe, expect, it } from 'vitest';
import {
  corsFix,
  describeLocalServers,
  endpointName,
  firstChatModel,
  localBaseUrl,
  localServers,
  readModelList,
  recogniseServer,
  sameBaseUrl,
  type LocalServerReport,
} from './local-servers.ts';

// Model lists in the shapes the servers send (docs/providers.md#local-model-servers).
const ollama = {
  object: 'list',
  data: [
    { id: 'llama3.2:latest', object: 'model', created: 1730000000, owned_by: 'library' },
    { id: 'nomic-embed-text:latest', object: 'model', created: 1730000000, owned_by: 'library' },
  ],
};
const ollamaOwnNamespace = {
  object: 'list',
  data: [{ id: 'someone/tiny:q4', object: 'model', created: 1, owned_by: 'someone' }],
};
const lmStudio = {
  data: [
    { id: 'text-embedding-nomic-embed-text-v1.5', object: 'model', owned_by: 'organization_owner' },
    { id: 'qwen2.5-7b-instruct', object: 'model', owned_by: 'organization_owner' },
  ],
  object: 'list',
};
const llamaCpp = {
  models: [{ name: 'gemma.gguf', model: 'gemma.gguf', type: 'model', capabilities: ['completion'] }],
  object: 'list',
  data: [
    {
      id: 'gemma.gguf',
      object: 'model',
      created: 1,
      owned_by: 'llamacpp',
      meta: { n_ctx_train: 131072, n_vocab: 262144 },
    },
  ],
};
const vllm = {
  object: 'list',
  data: [
    {
      id: 'Qwen/Qwen2.5-1.5B-Instruct',
      object: 'model',
      created: 1,
      owned_by: 'vllm',
      root: 'Qwen/Qwen2.5-1.5B-Instruct',
      parent: null,
      max_model_len: 32768,
      permission: [],
    },
  ],
};
const jan = { object: 'list', data: [{ id: 'qwen3-4b', object: 'model', created: 1, owned_by: 'user' }] };

describe('the servers', () => {
  it('are the five usual ones at their default ports, each an OpenAI-compatible base URL', () => {
    expect(localServers.map(({ name, port }) => `${name} ${port}`)).toEqual([
      'Ollama 11434',
      'LM Studio 1234',
      'llama.cpp 8080',
      'Jan 1337',
      'vLLM 8000',
    ]);
    expect(localBaseUrl(11434)).toBe('http://localhost:11434/v1');
    expect(localBaseUrl(5, '127.0.0.1')).toBe('http://127.0.0.1:5/v1');
  });
});

describe('readModelList', () => {
  it('reads the ids of an OpenAI-shaped list, once each, and vLLM’s served length', () => {
    expect(readModelList(ollama)).toEqual([{ id: 'llama3.2:latest' }, { id: 'nomic-embed-text:latest' }]);
    expect(readModelList(vllm)).toEqual([{ id: 'Qwen/Qwen2.5-1.5B-Instruct', contextWindow: 32768 }]);
    // llama.cpp's n_ctx_train is the training length, not what the server was started with.
    expect(readModelList(llamaCpp)).toEqual([{ id: 'gemma.gguf' }]);
    expect(readModelList({ data: [{ id: 'a' }, { id: 'a' }, { id: ' ' }, { id: 3 }, 'b', null] })).toEqual([
      { id: 'a' },
    ]);
    expect(readModelList({ data: [] })).toEqual([]);
  });

  it('is null for anything that is not such a list', () => {
    for (const json of [null, [], 'text', { models: [] }, { data: {} }, { error: 'no' }])
      expect(readModelList(json)).toBeNull();
  });

  it('never reads inherited fields', () => {
    expect(readModelList(JSON.parse('{"__proto__": {"data": [{"id": "x"}]}}'))).toBeNull();
  });
});

describe('recogniseServer', () => {
  it('tells the servers apart by the shape of their list', () => {
    expect(recogniseServer(ollama)).toBe('ollama');
    expect(recogniseServer(lmStudio)).toBe('lmstudio');
    expect(recogniseServer(llamaCpp)).toBe('llamacpp');
    expect(recogniseServer({ ...llamaCpp, models: undefined })).toBe('llamacpp');
    expect(recogniseServer(vllm)).toBe('vllm');
  });

  it('says nothing when the shape does not tell (Jan, only others’ models, an empty list)', () => {
    expect(recogniseServer(jan)).toBeUndefined();
    expect(recogniseServer(ollamaOwnNamespace)).toBeUndefined();
    expect(recogniseServer({ object: 'list', data: [] })).toBeUndefined();
    expect(recogniseServer({ models: [] })).toBeUndefined();
  });
});

describe('firstChatModel', () => {
  it('skips embedding and reranking models', () => {
    expect(firstChatModel(['nomic-embed-text:latest', 'llama3.2:latest'])).toBe('llama3.2:latest');
    expect(firstChatModel(['bge-reranker', 'qwen'])).toBe('qwen');
    expect(firstChatModel(['text-embedding-3'])).toBe('text-embedding-3');
    expect(firstChatModel([])).toBeUndefined();
  });
});

describe('sameBaseUrl and endpointName', () => {
  it('takes loopback hosts and a trailing slash as the same address', () => {
    expect(sameBaseUrl('http://localhost:11434/v1', 'http://127.0.0.1:11434/v1/')).toBe(true);
    expect(sameBaseUrl('http://localhost:11434/v1', 'http://[::1]:11434/v1')).toBe(true);
    expect(sameBaseUrl('http://localhost:11434/v1', 'http://localhost:11435/v1')).toBe(false);
    expect(sameBaseUrl('http://localhost:11434/v1', 'http://localhost:11434')).toBe(false);
    expect(sameBaseUrl('not a url/', 'not a url')).toBe(true);
  });

  it('keeps the server’s name unless an endpoint elsewhere has it', () => {
    expect(endpointName('Ollama', 'http://localhost:11434/v1', ['LM Studio'])).toBe('Ollama');
    expect(endpointName('Ollama', 'http://localhost:11434/v1', ['Ollama'])).toBe('Ollama (localhost:11434)');
  });
});

describe('corsFix', () => {
  const origin = 'https://chat.example';
  it('names each server’s own switch, with the page’s origin where it takes one', () => {
    expect(corsFix('ollama', origin)).toBe(
      'Ollama allows only pages on this computer unless told otherwise: quit it and start it with OLLAMA_ORIGINS=https://chat.example ollama serve.',
    );
    expect(corsFix('lmstudio', origin)).toBe(
      'In LM Studio, turn on Developer → Server settings → Enable CORS, or start the server with lms server start --cors.',
    );
    expect(corsFix('llamacpp', origin)).toContain('--cors-origins: add https://chat.example');
    expect(corsFix('jan', origin)).toBe('In Jan, open Settings → Local API Server and switch CORS on.');
    expect(corsFix('vllm', origin)).toContain(`--allowed-origins '["https://chat.example"]'`);
  });
});

describe('describeLocalServers', () => {
  function report(port: number, patch: Partial<LocalServerReport>): LocalServerReport {
    const server = localServers.find((candidate) => candidate.port === port);
    if (!server) throw new Error(`no server at ${port}`);
    return {
      port,
      kind: server.kind,
      name: server.name,
      baseUrl: localBaseUrl(port),
      outcome: 'absent',
      models: [],
      ...patch,
    };
  }

  it('names what was found and added, then each refusal with its fix', () => {
    const lines = describeLocalServers([
      report(11434, { outcome: 'found', models: ['a', 'b', 'c'], added: true }),
      report(1234, { outcome: 'found', models: ['d'], added: true }),
      report(8080, { outcome: 'refused', fix: 'Fix it so.' }),
      report(1337, {}),
      report(8000, {}),
    ]);
    expect(lines).toEqual([
      'Found Ollama (3 models), LM Studio (1 model): added as endpoints.',
      'llama.cpp (port 8080) answered but refused this page (CORS). Fix it so.',
    ]);
  });

  it('says when a server was already an endpoint, wants a key, lists no model, or is something else', () => {
    const lines = describeLocalServers([
      report(11434, { outcome: 'found', models: ['a'], added: true }),
      report(1234, { outcome: 'found', models: ['d', 'e'], added: false }),
      report(8080, { outcome: 'found', models: [] }),
      report(1337, { outcome: 'needs-key' }),
      report(8000, { outcome: 'other' }),
    ]);
    expect(lines).toEqual([
      'Found Ollama (1 model): added as an endpoint.',
      'Found LM Studio (2 models): already among your endpoints.',
      'llama.cpp (port 8080) answered but lists no models: download or load one in it, then look again.',
      'Jan (port 1337) asks for an API key: add it with Add OpenAI-compatible endpoint…, base URL http://localhost:1337/v1 and that key.',
      'Something on port 8000 answered, but not with a list of models.',
    ]);
  });

  it('says where it looked when nothing answered, and on a page elsewhere, that Chrome may have been told no', () => {
    const nothing = localServers.map(({ port }) => report(port, {}));
    const lines = describeLocalServers(nothing, 'http://127.0.0.1:4173');
    expect(lines).toEqual([
      'No model server answered on this computer (Ollama 11434, LM Studio 1234, llama.cpp 8080, Jan 1337, vLLM 8000).',
    ]);
    expect(describeLocalServers(nothing, 'https://chat.example')).toEqual([
      ...lines,
      "If you blocked Chrome's request to access this device, allow it again in the site settings (left of the address), then look again.",
    ]);
  });
});
