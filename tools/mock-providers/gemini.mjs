// @ts-check
/** Gemini generateContent / streamGenerateContent: CRLF SSE, a bare JSON error mid-stream, prompt blocking. */

import { geminiKeyReplies, httpError, validate } from './gemini-errors.mjs';
import { isRecord, mockId, preflightReply, reflectOriginCors } from './wire.mjs';

/**
 * @typedef {import('./wire.mjs').Reply} Reply
 * @typedef {import('./wire.mjs').ChatPlan} ChatPlan
 * @typedef {import('./wire.mjs').MockProvider} MockProvider
 * @typedef {import('./wire.mjs').MockRequest} MockRequest
 */

/** Google's preflight allow-list: any other requested header gets a 403 without CORS headers. */
const allowedRequestHeaders = ['content-type', 'x-goog-api-key', 'x-goog-api-client', 'authorization'];

/** @param {unknown} content @returns {string} */
const textOf = (content) =>
  isRecord(content) && Array.isArray(content.parts)
    ? content.parts.map((part) => (isRecord(part) && typeof part.text === 'string' ? part.text : '')).join('')
    : '';

/** @param {Record<string, unknown>} body @param {MockRequest} request */
function conversationOf(body, request) {
  const contents = Array.isArray(body.contents) ? body.contents.filter(isRecord) : [];
  const system = textOf(body.systemInstruction ?? body.system_instruction);
  return {
    model: request.params.model ?? '',
    lastUserText: textOf(contents.filter((content) => content.role !== 'model').at(-1)),
    messageCount: contents.length + (system ? 1 : 0),
    promptText: [system, ...contents.map(textOf)].join('\n'),
  };
}

const safetyRatings = [
  'HARM_CATEGORY_HATE_SPEECH',
  'HARM_CATEGORY_DANGEROUS_CONTENT',
  'HARM_CATEGORY_HARASSMENT',
  'HARM_CATEGORY_SEXUALLY_EXPLICIT',
].map((category) => ({
  category,
  probability: category === 'HARM_CATEGORY_DANGEROUS_CONTENT' ? 'HIGH' : 'NEGLIGIBLE',
  ...(category === 'HARM_CATEGORY_DANGEROUS_CONTENT' && { blocked: true }),
}));

/** @param {ChatPlan} plan @param {number} [outputTokens] */
function usageOf(plan, outputTokens) {
  const prompt = {
    promptTokenCount: plan.inputTokens,
    promptTokensDetails: [{ modality: 'TEXT', tokenCount: plan.inputTokens }],
  };
  if (outputTokens === undefined) return { ...prompt, totalTokenCount: plan.inputTokens };
  return { ...prompt, candidatesTokenCount: outputTokens, totalTokenCount: plan.inputTokens + outputTokens };
}

/** One response id for every chunk of a reply. @type {WeakMap<ChatPlan, { modelVersion: string, responseId: string }>} */
const envelopes = new WeakMap();

/** @param {ChatPlan} plan */
function envelope(plan) {
  const known = envelopes.get(plan);
  if (known) return known;
  const created = { modelVersion: plan.model, responseId: mockId('') };
  envelopes.set(plan, created);
  return created;
}

/** Gemini sends a few tokens per chunk. @param {string[]} tokens */
function groups(tokens, size = 3) {
  const result = [];
  for (let index = 0; index < tokens.length; index += size)
    result.push(tokens.slice(index, index + size).join(''));
  return result;
}

/** @param {unknown} value */
const data = (value) => `data: ${JSON.stringify(value)}\r\n\r\n`;

const overloadedJson = JSON.stringify(
  {
    error: { code: 503, message: 'The model is overloaded. Please try again later.', status: 'UNAVAILABLE' },
  },
  null,
  2,
);

/** @param {ChatPlan} plan @returns {string[]} */
function streamFrames(plan) {
  if (plan.scenario === 'blocked') {
    return [
      data({
        promptFeedback: { blockReason: 'SAFETY', safetyRatings },
        usageMetadata: usageOf(plan),
        ...envelope(plan),
      }),
    ];
  }
  const late = plan.scenario === 'blocked-late' || plan.scenario === 'error-event';
  const tokens = late ? plan.tokens.slice(0, 6) : plan.tokens;
  const texts = groups(tokens);
  const frames = texts.map((text, index) => {
    const last = index === texts.length - 1 && !late;
    const candidate = {
      content: { parts: [{ text }], role: 'model' },
      ...(last && { finishReason: 'STOP' }),
      index: 0,
    };
    return data({
      candidates: [candidate],
      usageMetadata: usageOf(plan, last ? tokens.length : undefined),
      ...envelope(plan),
    });
  });
  // Google writes a bare JSON error object (no `data:`) into a stream that had started with 200,
  // here in the same write as the last text, so a reader gets both in one read.
  if (plan.scenario === 'error-event')
    return [...frames.slice(0, -1), `${frames.at(-1) ?? ''}${overloadedJson}\n`];
  if (plan.scenario === 'blocked-late') {
    const candidate = { finishReason: 'SAFETY', index: 0, safetyRatings };
    return [
      ...frames,
      data({ candidates: [candidate], usageMetadata: usageOf(plan, tokens.length), ...envelope(plan) }),
    ];
  }
  return frames;
}

/** @param {ChatPlan} plan @returns {Reply} */
function reply(plan) {
  if (plan.scenario === 'blocked') {
    return {
      status: 200,
      body: {
        promptFeedback: { blockReason: 'SAFETY', safetyRatings },
        usageMetadata: usageOf(plan),
        ...envelope(plan),
      },
    };
  }
  const late = plan.scenario === 'blocked-late';
  const tokens = late ? plan.tokens.slice(0, 6) : plan.tokens;
  const candidate = {
    content: { parts: [{ text: tokens.join('') }], role: 'model' },
    finishReason: late ? 'SAFETY' : 'STOP',
    index: 0,
    ...(late && { safetyRatings }),
  };
  return {
    status: 200,
    body: { candidates: [candidate], usageMetadata: usageOf(plan, tokens.length), ...envelope(plan) },
  };
}

/** @type {MockProvider} */
export const geminiMock = {
  id: 'gemini',
  keyOf: (request) => request.headers['x-goog-api-key'] ?? request.url.searchParams.get('key') ?? '',
  corsHeaders: (request) => ({ ...reflectOriginCors(request), vary: 'Origin, X-Origin, Referer' }),
  preflight: (request) => preflightReply(request, reflectOriginCors(request), allowedRequestHeaders),
  ...geminiKeyReplies,
  validate,
  httpError,
  conversation: conversationOf,
  isStream: (_body, request) => request.params.method === 'streamGenerateContent',
  streamFrames,
  reply,
  midStreamErrorStatus: 503,
  models: () => ({
    models: [
      ...['gemini-2.5-flash', 'gemini-2.5-pro', 'gemini-2.5-flash-lite', 'gemini-2.0-flash'].map((id) => ({
        name: `models/${id}`,
        version: '001',
        displayName: id,
        description: `Mock ${id}`,
        inputTokenLimit: 1048576,
        outputTokenLimit: 65536,
        supportedGenerationMethods: [
          'generateContent',
          'countTokens',
          'createCachedContent',
          'batchGenerateContent',
        ],
        temperature: 1,
        topP: 0.95,
        topK: 64,
        maxTemperature: 2,
        thinking: true,
      })),
      {
        name: 'models/text-embedding-004',
        version: '004',
        displayName: 'Text Embedding 004',
        supportedGenerationMethods: ['embedContent'],
      },
    ],
  }),
};
