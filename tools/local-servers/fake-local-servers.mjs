// @ts-check
/**
 * Fake model servers as people run them on their own computer, for 'Find local models': each
 * answers `GET /v1/models` in the shape the real one sends and streams a minimal
 * `POST /v1/chat/completions` (OpenAI's SSE), with the CORS the real one has by default or as
 * told. Loopback only; each stops on close() or by itself after its lifetime.
 *
 * The shapes, as documented or read from the servers' sources (docs/providers.md#local-model-servers):
 * - Ollama: `{object, data: [{id, object, created, owned_by}]}`, owned_by the model's namespace
 *   ("library" for its own); CORS for loopback origins only unless OLLAMA_ORIGINS adds more,
 *   other origins get 403 without CORS headers.
 * - LM Studio: `{data: [{id, object, owned_by: "organization_owner"}], object}`; no CORS headers
 *   until 'Enable CORS'.
 * - llama.cpp (llama-server): an Ollama-style `models` array beside `object` and `data`, whose
 *   entries are owned by "llamacpp" with a `meta` of the GGUF's figures; the request's Origin is
 *   echoed back on every answer.
 * - vLLM: entries owned by "vllm" with `root`, `parent`, `max_model_len` and `permission`; CORS for
 *   any origin by default.
 *
 * Usage: `const servers = await startFakeLocalServers([{ kind: 'ollama', port: 0 }])`, then
 * `servers.servers[0].baseUrl`, and `await servers.close()`. Run directly
 * (`node tools/local-servers/fake-local-servers.mjs`), it serves Ollama, LM Studio and llama.cpp on
 * their real ports for a look in a browser, for ten minutes at most.
 */

import { createServer } from 'node:http';
import { pathToFileURL } from 'node:url';

/**
 * @typedef {'ollama' | 'lmstudio' | 'llamacpp' | 'vllm'} FakeKind
 *
 * @typedef {object} FakeServerSpec
 * @property {FakeKind} kind
 * @property {number} [port] 0 (the default) picks a free one
 * @property {string[]} [models] the ids it lists and answers for (a few plausible ones otherwise)
 * @property {boolean | readonly string[]} [cors] true: every origin; false: no CORS headers at
 *   all; a list: those origins only (for Ollama, as OLLAMA_ORIGINS, beside loopback ones); unset:
 *   what the real server does by default
 *
 * @typedef {object} FakeRequest
 * @property {string} method
 * @property {string} path
 * @property {string | undefined} origin
 * @property {unknown} body parsed JSON of a POST, else null
 *
 * @typedef {object} FakeServer
 * @property {FakeKind} kind
 * @property {number} port
 * @property {string} baseUrl http://127.0.0.1:<port>/v1
 * @property {FakeRequest[]} requests every request it received, in order
 *
 * @typedef {object} FakeServers
 * @property {FakeServer[]} servers in the order asked for
 * @property {() => Promise<void>} close
 */

/** @type {Record<FakeKind, string[]>} */
const defaultModels = {
  ollama: ['llama3.2:latest', 'qwen3:8b', 'nomic-embed-text:latest'],
  lmstudio: ['qwen2.5-7b-instruct', 'text-embedding-nomic-embed-text-v1.5'],
  llamacpp: ['gemma-3-4b-it-Q4_K_M.gguf'],
  vllm: ['Qwen/Qwen2.5-1.5B-Instruct'],
};

const host = '127.0.0.1';
const loopbackHosts = ['localhost', '127.0.0.1', '[::1]', '0.0.0.0'];

/** Unix seconds, as every created field has them. */
const now = () => Math.floor(Date.now() / 1000);

/** @param {string} origin */
function isLoopbackOrigin(origin) {
  try {
    return loopbackHosts.includes(new URL(origin).hostname);
  } catch {
    return false;
  }
}

/**
 * The Access-Control-Allow-Origin value for a request's origin, or null for none.
 * @param {FakeServerSpec} spec @param {string | undefined} origin
 */
function allowedOrigin(spec, origin) {
  if (!origin) return null;
  if (spec.cors === false) return null;
  if (spec.cors === true) return spec.kind === 'vllm' ? '*' : origin;
  // Ollama's OLLAMA_ORIGINS adds to its loopback defaults; the others' lists replace theirs.
  if (Array.isArray(spec.cors) && spec.cors.includes(origin)) return origin;
  if (Array.isArray(spec.cors) && spec.kind !== 'ollama') return null;
  switch (spec.kind) {
    case 'ollama':
      return isLoopbackOrigin(origin) ? origin : null;
    case 'lmstudio':
      return null;
    case 'llamacpp':
      return origin;
    case 'vllm':
      return '*';
  }
}

/** @param {FakeKind} kind @param {string[]} models */
function modelList(kind, models) {
  const created = now();
  switch (kind) {
    case 'ollama':
      return {
        object: 'list',
        data: models.map((id) => ({
          id,
          object: 'model',
          created,
          // The namespace of the model's name (openai.ToListCompletion): "library" for Ollama's own.
          owned_by: id.split(':')[0]?.split('/').at(-2) ?? 'library',
        })),
      };
    case 'lmstudio':
      return {
        data: models.map((id) => ({ id, object: 'model', owned_by: 'organization_owner' })),
        object: 'list',
      };
    case 'llamacpp':
      return {
        models: models.map((id) => ({
          name: id,
          model: id,
          modified_at: '',
          size: '',
          digest: '',
          type: 'model',
          description: '',
          tags: [''],
          capabilities: ['completion'],
          parameters: '',
          details: {
            parent_model: '',
            format: 'gguf',
            family: '',
            families: [''],
            parameter_size: '',
            quantization_level: '',
          },
        })),
        object: 'list',
        data: models.map((id) => ({
          id,
          object: 'model',
          created,
          owned_by: 'llamacpp',
          meta: {
            vocab_type: 2,
            n_vocab: 262144,
            n_ctx_train: 131072,
            n_embd: 2560,
            n_params: 3880263168,
            size: 2489757696,
          },
        })),
      };
    case 'vllm':
      return {
        object: 'list',
        data: models.map((id) => ({
          id,
          object: 'model',
          created,
          owned_by: 'vllm',
          root: id,
          parent: null,
          max_model_len: 32768,
          permission: [
            {
              id: `modelperm-${Math.random().toString(16).slice(2, 18)}`,
              object: 'model_permission',
              created,
              allow_create_engine: false,
              allow_sampling: true,
              allow_logprobs: true,
              allow_search_indices: false,
              allow_view: true,
              allow_fine_tuning: false,
              organization: '*',
              group: null,
              is_blocking: false,
            },
          ],
        })),
      };
  }
}

/** @param {import('node:http').IncomingMessage} request @returns {Promise<string>} */
function readBody(request) {
  return new Promise((resolve, reject) => {
    /** @type {Buffer[]} */
    const chunks = [];
    let size = 0;
    request.on('data', (/** @type {Buffer} */ chunk) => {
      size += chunk.length;
      // A test's question is small; anything larger is refused rather than held.
      if (size > 1_000_000) request.destroy(new Error('body too large'));
      else chunks.push(chunk);
    });
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

/** @param {string} text @returns {unknown} */
function parseJson(text) {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/** @param {unknown} value @returns {value is Record<string, unknown>} */
function isRecord(value) {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The last user message's text, whatever form its content takes. @param {unknown} body */
function lastQuestion(body) {
  const messages = isRecord(body) && Array.isArray(body.messages) ? body.messages : [];
  const last = messages.filter((message) => isRecord(message) && message.role === 'user').at(-1);
  const content = isRecord(last) ? last.content : '';
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((part) => (isRecord(part) && typeof part.text === 'string' ? part.text : '')).join('');
}

const names = { ollama: 'Ollama', lmstudio: 'LM Studio', llamacpp: 'llama.cpp', vllm: 'vLLM' };

/**
 * @param {FakeServerSpec} spec
 * @param {FakeRequest[]} requests
 * @returns {import('node:http').RequestListener}
 */
function handler(spec, requests) {
  const models = spec.models ?? defaultModels[spec.kind];
  return (request, response) => {
    void (async () => {
      const origin = request.headers.origin;
      const path = new URL(request.url ?? '/', `http://${host}`).pathname;
      const body = request.method === 'POST' ? parseJson(await readBody(request)) : null;
      requests.push({ method: request.method ?? 'GET', path, origin, body });
      const allow = allowedOrigin(spec, origin);
      /** @type {Record<string, string>} */
      const cors = allow ? { 'access-control-allow-origin': allow, vary: 'Origin' } : {};
      if (origin && !allow && spec.kind === 'ollama' && spec.cors !== false) {
        // Ollama refuses an origin it was not told to allow, with no CORS headers.
        response.writeHead(403, { 'content-type': 'text/plain' }).end('403 Forbidden');
        return;
      }
      /** @param {number} status @param {unknown} value */
      const sendJson = (status, value) =>
        response
          .writeHead(status, { ...cors, 'content-type': 'application/json' })
          .end(JSON.stringify(value));

      if (request.method === 'OPTIONS') {
        const asked = request.headers['access-control-request-headers'];
        response
          .writeHead(204, {
            ...cors,
            ...(allow && {
              'access-control-allow-methods': 'GET, POST, OPTIONS',
              'access-control-allow-headers':
                typeof asked === 'string' ? asked : 'authorization, content-type',
              'access-control-max-age': '600',
            }),
          })
          .end();
        return;
      }
      if (request.method === 'GET' && path === '/v1/models') {
        sendJson(200, modelList(spec.kind, models));
        return;
      }
      if (request.method === 'POST' && path === '/v1/chat/completions') {
        const model = isRecord(body) && typeof body.model === 'string' ? body.model : '';
        if (!models.includes(model)) {
          const message = `model "${model}" not found`;
          sendJson(404, { error: { message, type: 'not_found_error', param: null, code: null } });
          return;
        }
        const answer = `${names[spec.kind]} says: ${lastQuestion(body)}`;
        const envelope = { id: `chatcmpl-${Math.random().toString(36).slice(2, 12)}`, created: now(), model };
        if (isRecord(body) && body.stream === true) {
          response.writeHead(200, {
            ...cors,
            'content-type': 'text/event-stream',
            'cache-control': 'no-cache',
          });
          /** @param {unknown} value */
          const frame = (value) => response.write(`data: ${JSON.stringify(value)}\n\n`);
          /** @param {Record<string, unknown>} delta @param {string | null} finish */
          const chunk = (delta, finish) =>
            frame({
              ...envelope,
              object: 'chat.completion.chunk',
              choices: [{ index: 0, delta, finish_reason: finish }],
            });
          chunk({ role: 'assistant', content: '' }, null);
          // A word at a time, as a server streams tokens.
          for (const piece of answer.match(/\S+\s*/g) ?? []) chunk({ content: piece }, null);
          chunk({}, 'stop');
          response.end('data: [DONE]\n\n');
          return;
        }
        sendJson(200, {
          ...envelope,
          object: 'chat.completion',
          choices: [{ index: 0, message: { role: 'assistant', content: answer }, finish_reason: 'stop' }],
          usage: { prompt_tokens: 8, completion_tokens: 8, total_tokens: 16 },
        });
        return;
      }
      sendJson(404, { error: { message: 'File Not Found', type: 'not_found_error', code: 404 } });
    })().catch(() => {
      if (!response.headersSent) response.writeHead(500).end();
      else response.destroy();
    });
  };
}

/**
 * Starts one server per spec on 127.0.0.1 (a busy port rejects, naming it).
 * @param {readonly FakeServerSpec[]} specs
 * @param {{ maxLifetimeMs?: number }} [options] ten minutes by default
 * @returns {Promise<FakeServers>}
 */
export async function startFakeLocalServers(specs, { maxLifetimeMs = 10 * 60_000 } = {}) {
  /** @type {import('node:http').Server[]} */
  const listening = [];
  /** @type {FakeServer[]} */
  const servers = [];
  let closed = false;
  async function close() {
    if (closed) return;
    closed = true;
    clearTimeout(lifetime);
    await Promise.all(
      listening.map(
        (server) =>
          new Promise((resolve) => {
            server.close(() => resolve(undefined));
            // A streamed answer in progress holds its connection: ended at once.
            server.closeAllConnections();
          }),
      ),
    );
  }
  // A forgotten server stops by itself.
  const lifetime = setTimeout(() => void close(), maxLifetimeMs);
  lifetime.unref();
  try {
    for (const spec of specs) {
      /** @type {FakeRequest[]} */
      const requests = [];
      const server = createServer(handler(spec, requests));
      await new Promise((resolve, reject) => {
        server.once('error', (error) =>
          reject(
            new Error(
              `Fake ${names[spec.kind]} could not listen on port ${spec.port ?? 0}: ${error.message}`,
            ),
          ),
        );
        server.listen(spec.port ?? 0, host, () => resolve(undefined));
      });
      listening.push(server);
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      servers.push({ kind: spec.kind, port, baseUrl: `http://${host}:${port}/v1`, requests });
    }
  } catch (error) {
    await close();
    throw error;
  }
  return { servers, close };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const fakes = await startFakeLocalServers([
    { kind: 'ollama', port: 11434 },
    { kind: 'lmstudio', port: 1234 },
    { kind: 'llamacpp', port: 8080 },
  ]);
  for (const server of fakes.servers) console.log(`Fake ${names[server.kind]}: ${server.baseUrl}`);
  console.log('Stops on Ctrl+C, or by itself after ten minutes.');
  process.once('SIGINT', () => void fakes.close());
  process.once('SIGTERM', () => void fakes.close());
}
