// @ts-check
/**
 * A loopback server that behaves like the five provider APIs, each on its real paths (they do not
 * collide), so one origin serves them all. The API key picks a scenario: see scenarios.mjs. Tool
 * calling: tools.mjs; the providers' own web search (scenarios search, search-pause,
 * search-failed, search-disabled): web-search.mjs, with each API's form in openai-search.mjs,
 * anthropic-search.mjs and gemini-search.mjs; code execution and images (scenarios code,
 * code-failed, code-unavailable, image): code-images.mjs, gemini-code.mjs, openai-code.mjs and
 * anthropic-code.mjs, with the downloads of the files a run wrote (OpenAI's container files;
 * Anthropic's Files API bytes and metadata). Voice (voice.mjs): OpenAI's and Groq's transcriptions
 * (multipart uploads, read as raw bytes), OpenAI's speech, and Gemini TTS on its generateContent
 * routes (responseModalities AUDIO); scenario silent hears nothing.
 */

import { createServer } from 'node:http';
import { anthropicFileError, anthropicFileMetadataOf, anthropicFileOf } from './anthropic-code.mjs';
import { anthropicMock } from './anthropic.mjs';
import { geminiMock } from './gemini.mjs';
import { containerFileOf } from './openai-code.mjs';
import { localMock } from './local.mjs';
import { azureMock, groqMock, openaiMock } from './openai-family.mjs';
import { azureResponsesMock, openaiResponsesMock } from './openai-responses.mjs';
import { httpStatusOf, reasoningText, replyPieces, replyText, scenarioOf } from './scenarios.mjs';
import { tokenize } from './tokens.mjs';
import { callsTools, toolTurnOf } from './tools.mjs';
import {
  answerGeminiSpeech,
  answerVoice,
  geminiSpeechOf,
  recordedVoiceBody,
  voiceRouteOf,
} from './voice.mjs';
import { anyOriginCors, dropJson, isRecord, parseJson, sendReply, writeStream } from './wire.mjs';

export { markdownReply } from './markdown.mjs';
export { hostileReply, scenarioHelp, scenarioNames, utf8Reply } from './scenarios.mjs';
export { tokenize } from './tokens.mjs';
export { spokenQuestion } from './voice.mjs';

/**
 * @typedef {import('./wire.mjs').MockProvider} MockProvider
 * @typedef {import('./wire.mjs').MockRequest} MockRequest
 *
 * @typedef {object} RecordedRequest
 * @property {MockProvider['id'] | 'unknown'} provider
 * @property {string} method
 * @property {string} path
 * @property {Record<string, string>} query
 * @property {Record<string, string>} headers Lowercased names.
 * @property {unknown} body Parsed JSON; the raw text when it is not JSON; null when empty; for a
 *   transcription upload, the form's fields with the file as { name, type, size } (voice.mjs).
 * @property {string} key
 * @property {string} time ISO timestamp.
 *
 * @typedef {object} Route
 * @property {MockProvider} provider
 * @property {'chat' | 'models' | 'preflight'} action
 * @property {Record<string, string>} params
 */

const loopbackHosts = ['127.0.0.1', '::1', 'localhost'];

/** Whether a request sends a header, or its preflight asks to. @param {Record<string, string>} headers @param {string} name */
function sendsHeader(headers, name) {
  const requested = (headers['access-control-request-headers'] ?? '').split(',');
  return name in headers || requested.some((entry) => entry.trim().toLowerCase() === name);
}

/** @param {string} method @param {string} path @param {Record<string, string>} headers @returns {Route | undefined} */
function routeOf(method, path, headers) {
  const action =
    method === 'OPTIONS' ? 'preflight' : method === 'POST' ? 'chat' : method === 'GET' ? 'models' : undefined;
  if (!action) return undefined;
  /**
   * @param {MockProvider} provider @param {'chat' | 'models'} expected @param {Record<string, string>} [params]
   * @returns {Route | undefined}
   */
  const match = (provider, expected, params = {}) =>
    action === 'preflight' || action === expected ? { provider, action, params } : undefined;
  const local = /^\/local\/([^/]+)\/v1\/(chat\/completions|models)$/.exec(path);
  if (local?.[1] && local[2])
    return match(localMock, local[2] === 'models' ? 'models' : 'chat', { key: decodeURIComponent(local[1]) });
  if (path === '/v1/chat/completions') return match(openaiMock, 'chat');
  if (path === '/v1/responses') return match(openaiResponsesMock, 'chat');
  if (path === '/v1/messages') return match(anthropicMock, 'chat');
  // One path for OpenAI and Anthropic: Anthropic's requests carry x-api-key.
  if (path === '/v1/models')
    return match(sendsHeader(headers, 'x-api-key') ? anthropicMock : openaiMock, 'models');
  // Azure's v1 API shares the /openai/v1 prefix with Groq; its requests carry api-key.
  if (path === '/openai/v1/responses' && sendsHeader(headers, 'api-key'))
    return match(azureResponsesMock, 'chat');
  if (path === '/openai/v1/chat/completions') return match(groqMock, 'chat');
  if (path === '/openai/v1/models') return match(groqMock, 'models');
  if (path === '/openai/deployments') return match(azureMock, 'models');
  const deployment = /^\/openai\/deployments\/([^/]+)\/chat\/completions$/.exec(path)?.[1];
  if (deployment) return match(azureMock, 'chat', { deployment: decodeURIComponent(deployment) });
  if (path === '/v1beta/models') return match(geminiMock, 'models');
  const gemini = /^\/v1beta\/models\/([^/:]+):(generateContent|streamGenerateContent)$/.exec(path);
  if (gemini?.[1] && gemini[2])
    return match(geminiMock, 'chat', { model: decodeURIComponent(gemini[1]), method: gemini[2] });
  return undefined;
}

/**
 * The whole body, as bytes: uploads (voice.mjs) are binary, and decoding them as UTF-8 would
 * corrupt them; the JSON routes decode it. Nothing caps its size (Node's http server sets no limit
 * and neither does the mock), so the providers' own limits, up to OpenAI's 50 MB of images in a
 * 60+ MB body, can be reached; V8's string limit (~512 MB) is the only ceiling.
 * @param {import('node:http').IncomingMessage} req
 */
async function readBody(req) {
  const chunks = [];
  for await (const chunk of req) chunks.push(/** @type {Buffer} */ (chunk));
  return Buffer.concat(chunks);
}

/** @param {import('node:http').IncomingHttpHeaders} raw */
function flatHeaders(raw) {
  /** @type {Record<string, string>} */
  const headers = {};
  for (const [name, value] of Object.entries(raw)) {
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return headers;
}

/**
 * @param {Route} route
 * @param {MockRequest} request
 * @param {import('node:http').ServerResponse} res
 * @param {number} tokenDelayMs
 * @param {number} callNumber how many chat calls this key has made, this one included
 * @param {Set<string>} memory what this key's earlier requests left for later ones
 */
async function answer(route, request, res, tokenDelayMs, callNumber, memory) {
  const { provider } = route;
  if (route.action === 'preflight') return sendReply(res, provider.preflight(request), {});
  const gate = provider.gate?.(request);
  const key = provider.keyOf(request);
  const scenario = scenarioOf(key);
  const cors = scenario === 'no-cors' ? {} : provider.corsHeaders(request);
  if (gate) return sendReply(res, gate, cors);
  if (!key) return sendReply(res, provider.missingKey(key), cors);
  if (!scenario) return sendReply(res, provider.badKey(key), cors);
  const status = httpStatusOf(scenario);
  if (route.action === 'models') {
    return sendReply(
      res,
      status ? provider.httpError(status, '') : { status: 200, body: provider.models(request, scenario) },
      cors,
    );
  }
  const body = parseJson(request.bodyText);
  if (!isRecord(body)) return sendReply(res, provider.invalidJson(), cors);
  const invalid = provider.validate(body, request, scenario);
  if (invalid) return sendReply(res, invalid, cors);
  // Gemini TTS (voice.mjs): checked as the other fields are, answered after the status scenarios.
  const speech = provider.id === 'gemini' ? geminiSpeechOf(body, request.params.model ?? '') : undefined;
  if (speech && 'refused' in speech) return sendReply(res, speech.refused, cors);
  const conversation = provider.conversation(body, request);
  if (status) return sendReply(res, provider.httpError(status, conversation.model), cors);
  if (speech) return answerGeminiSpeech(speech.speech, provider.isStream(body, request), res, cors, scenario);
  const retired = scenario === 'retired' ? provider.retired?.(conversation.model) : undefined;
  if (retired) return sendReply(res, retired, cors);
  // Under a tool scenario the prompt is the user's last text, not the tool results after it.
  const toolState = callsTools(scenario) ? provider.toolState?.(body, request) : undefined;
  const toolTurn = toolTurnOf(scenario, toolState);
  const plan = {
    scenario,
    model: conversation.model,
    tokens: toolTurn
      ? tokenize(toolTurn.text)
      : replyPieces(scenario, replyText(scenario, conversation, callNumber)),
    reasoning: tokenize(
      reasoningText(toolState ? { ...conversation, lastUserText: toolState.prompt } : conversation, scenario),
    ),
    inputTokens: tokenize(conversation.promptText).length,
    memory,
    body,
    request,
    ...(toolTurn && { toolTurn }),
  };
  const refusal = provider.toolRefusal?.(plan);
  if (refusal) return sendReply(res, refusal, cors);
  if (!provider.isStream(body, request)) {
    if (scenario === 'error-event')
      return sendReply(res, provider.httpError(provider.midStreamErrorStatus, plan.model), cors);
    if (scenario === 'stream-only') return sendReply(res, provider.httpError(500, plan.model), cors);
    const reply = provider.reply(plan);
    if (scenario === 'drop') return dropJson(res, reply.body, cors);
    return sendReply(res, reply, cors);
  }
  const frames = provider.streamFrames(plan);
  await writeStream(res, frames, {
    delayMs: slowDelayMs(scenario, callNumber) ?? tokenDelayMs,
    headers: cors,
    splitUtf8: scenario === 'utf8',
    ...(scenario === 'drop' && { dropAfter: Math.max(2, Math.floor(frames.length / 2)) }),
  });
}

/** Scenarios streamed slower than the rest, to watch them (ms between chunks). @type {Record<string, number>} */
const scenarioDelayMs = { slow: 200, 'slow-thinking': 150, 'image-slow': 300 };
/** Scenarios slow only in a key's first reply: its later ones (an edit asked after it) stream at the usual pace. */
const slowFirstReplyOnly = new Set(['image-slow']);

/**
 * The pause between a slow scenario's chunks, undefined for the usual pace.
 * @param {string} scenario @param {number} callNumber this key's chat calls, this one included
 */
function slowDelayMs(scenario, callNumber) {
  if (slowFirstReplyOnly.has(scenario) && callNumber > 1) return undefined;
  return scenarioDelayMs[scenario];
}

/**
 * Starts the mock on a loopback address.
 * @param {{ port?: number, host?: string, tokenDelayMs?: number }} [options]
 *   tokenDelayMs: the pause between streamed chunks (the `slow` scenario uses 200 ms).
 */
export async function startMockProviders({ port = 0, host = '127.0.0.1', tokenDelayMs = 20 } = {}) {
  if (!loopbackHosts.includes(host)) throw new Error(`The mock binds loopback addresses only, not ${host}`);
  /** @type {RecordedRequest[]} */
  const requests = [];
  /** Per key: what its requests left for later ones, forgotten with the recordings. @type {Map<string, Set<string>>} */
  const memories = new Map();
  const server = createServer((req, res) => {
    handle(req, res).catch((/** @type {unknown} */ error) => {
      if (res.headersSent) return void res.destroy();
      sendReply(
        res,
        { status: 500, body: { error: { message: `Mock failure: ${String(error)}` } } },
        anyOriginCors(),
      );
    });
  });
  /** @param {import('node:http').IncomingMessage} req @param {import('node:http').ServerResponse} res */
  async function handle(req, res) {
    const url = new URL(req.url ?? '/', 'http://mock.invalid');
    const method = req.method ?? 'GET';
    const headers = flatHeaders(req.headers);
    const bodyBytes = await readBody(req);
    if (url.pathname === '/__mock/requests') return answerRecording(method, url, res);
    const voice = voiceRouteOf(url.pathname);
    if (voice) {
      /** @type {import('./voice.mjs').VoiceRequest} */
      const request = { method, url, headers, bodyText: '', bodyBytes, params: {} };
      requests.push({
        provider: voice.provider.id,
        method,
        path: url.pathname,
        query: Object.fromEntries(url.searchParams),
        headers,
        body: recordedVoiceBody(voice, request),
        key: voice.provider.keyOf(request),
        time: new Date().toISOString(),
      });
      return answerVoice(voice, request, res);
    }
    const bodyText = bodyBytes.toString('utf8');
    const file = containerFileOf(url.pathname);
    if (file) return answerContainerFile(method, url, headers, file, res);
    const claudeFile = anthropicFileOf(url.pathname) ?? anthropicFileMetadataOf(url.pathname);
    if (claudeFile) return answerClaudeFile(method, url, headers, claudeFile, res);
    const route = routeOf(method, url.pathname, headers);
    /** @type {MockRequest} */
    const request = { method, url, headers, bodyText, params: route?.params ?? {} };
    requests.push({
      provider: route?.provider.id ?? 'unknown',
      method,
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      headers,
      body: bodyText === '' ? null : (parseJson(bodyText) ?? bodyText),
      key: route ? route.provider.keyOf(request) : '',
      time: new Date().toISOString(),
    });
    if (!route) {
      const message = `Invalid URL (${method} ${url.pathname})`;
      return sendReply(
        res,
        { status: 404, body: { error: { message, type: 'invalid_request_error', param: null, code: null } } },
        anyOriginCors(),
      );
    }
    const key = route.provider.keyOf(request);
    const callNumber = requests.filter((entry) => entry.key === key && entry.method === 'POST').length;
    const memory = memories.get(key) ?? new Set();
    memories.set(key, memory);
    await answer(route, request, res, tokenDelayMs, callNumber, memory);
  }
  /**
   * A file a code interpreter call wrote (openai-code.mjs), with OpenAI's CORS and key checks.
   * @param {string} method @param {URL} url @param {Record<string, string>} headers
   * @param {NonNullable<ReturnType<typeof containerFileOf>>} file
   * @param {import('node:http').ServerResponse} res
   */
  function answerContainerFile(method, url, headers, file, res) {
    /** @type {MockRequest} */
    const request = { method, url, headers, bodyText: '', params: {} };
    if (method === 'OPTIONS') return sendReply(res, openaiMock.preflight(request), {});
    const key = openaiMock.keyOf(request);
    requests.push({
      provider: 'openai',
      method,
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      headers,
      body: null,
      key,
      time: new Date().toISOString(),
    });
    const cors = openaiMock.corsHeaders(request);
    if (method !== 'GET') {
      const message = `Invalid URL (${method} ${url.pathname})`;
      const error = { message, type: 'invalid_request_error', param: null, code: null };
      return sendReply(res, { status: 404, body: { error } }, cors);
    }
    if (!key) return sendReply(res, openaiMock.missingKey(key), cors);
    if (!scenarioOf(key)) return sendReply(res, openaiMock.badKey(key), cors);
    if (!file.found) {
      const error = { message: 'File not found.', type: 'invalid_request_error', param: null, code: null };
      return sendReply(res, { status: 404, body: { error } }, cors);
    }
    res.writeHead(200, {
      'content-type': 'application/octet-stream',
      'content-length': String(file.bytes.length),
      ...cors,
    });
    res.end(file.bytes);
  }
  /**
   * A file a Claude code execution wrote (anthropic-code.mjs), from the Files API: its bytes, or
   * its metadata as JSON, with the Messages API's browser gate, key and version checks and CORS.
   * @param {string} method @param {URL} url @param {Record<string, string>} headers
   * @param {NonNullable<ReturnType<typeof anthropicFileOf> | ReturnType<typeof anthropicFileMetadataOf>>} file
   * @param {import('node:http').ServerResponse} res
   */
  function answerClaudeFile(method, url, headers, file, res) {
    /** @type {MockRequest} */
    const request = { method, url, headers, bodyText: '', params: {} };
    if (method === 'OPTIONS') return sendReply(res, anthropicMock.preflight(request), {});
    const key = anthropicMock.keyOf(request);
    requests.push({
      provider: 'claude',
      method,
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      headers,
      body: null,
      key,
      time: new Date().toISOString(),
    });
    const cors = anthropicMock.corsHeaders(request);
    if (method !== 'GET') {
      const error = { type: 'not_found_error', message: 'Not Found' };
      return sendReply(res, { status: 404, body: { type: 'error', error } }, cors);
    }
    const gate = anthropicMock.gate?.(request);
    if (gate) return sendReply(res, gate, cors);
    if (!key) return sendReply(res, anthropicMock.missingKey(key), cors);
    if (!scenarioOf(key)) return sendReply(res, anthropicMock.badKey(key), cors);
    const refused = anthropicFileError(headers, file);
    if (refused || !file.found) return sendReply(res, refused ?? anthropicMock.badKey(key), cors);
    if ('metadata' in file) return sendReply(res, { status: 200, body: file.metadata }, cors);
    res.writeHead(200, {
      'content-type': file.mediaType,
      'content-length': String(file.bytes.length),
      ...cors,
    });
    res.end(file.bytes);
  }
  /** @param {string} method @param {URL} url @param {import('node:http').ServerResponse} res */
  function answerRecording(method, url, res) {
    const cors = { ...anyOriginCors(), 'access-control-allow-methods': 'GET, DELETE, OPTIONS' };
    if (method === 'OPTIONS') return sendReply(res, { status: 204, body: '' }, cors);
    if (method === 'DELETE') {
      requests.length = 0;
      memories.clear();
    }
    const key = url.searchParams.get('key');
    const body =
      method === 'GET' ? requests.filter((entry) => key === null || entry.key === key) : { cleared: true };
    sendReply(res, { status: 200, body }, cors);
  }
  server.on('connection', (socket) => socket.setNoDelay(true));
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve(undefined));
  });
  const address = server.address();
  const actualPort = typeof address === 'object' && address ? address.port : port;
  const origin = host.includes(':') ? `[${host}]` : host;
  return {
    url: `http://${origin}:${actualPort}`,
    port: actualPort,
    requests,
    /** Stops the server, cutting any stream still running. @returns {Promise<void>} */
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
