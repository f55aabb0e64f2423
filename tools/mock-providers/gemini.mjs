// @ts-check
/** Gemini generateContent / streamGenerateContent: CRLF SSE, a bare JSON error mid-stream, prompt blocking, thoughts. */

import { geminiAttachments } from './attachments.mjs';
import { gate, geminiKeyReplies, httpError, retiredError, validate } from './gemini-errors.mjs';
import { geminiCodeTurn, geminiImageTurn } from './gemini-code.mjs';
import { geminiSearchTurn } from './gemini-search.mjs';
import { checksSignatures, geminiToolState } from './gemini-tools.mjs';
import { thinks } from './scenarios.mjs';
import { callSignature, thoughtSignature } from './signatures.mjs';
import { tokenize } from './tokens.mjs';
import { randomId } from './tools.mjs';
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
  const lastUser = contents.filter((content) => content.role !== 'model').at(-1);
  return {
    model: request.params.model ?? '',
    lastUserText: textOf(lastUser),
    messageCount: contents.length + (system ? 1 : 0),
    promptText: [system, ...contents.map(textOf)].join('\n'),
    attachments: geminiAttachments(lastUser),
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

/**
 * candidatesTokenCount counts the answer only and thoughtsTokenCount the thoughts; the total adds
 * both to the prompt (docs/providers.md#usage).
 * @param {ChatPlan} plan @param {number} [outputTokens] @param {number} [thoughtTokens]
 */
function usageOf(plan, outputTokens, thoughtTokens) {
  return {
    promptTokenCount: plan.inputTokens,
    promptTokensDetails: [{ modality: 'TEXT', tokenCount: plan.inputTokens }],
    ...(outputTokens !== undefined && { candidatesTokenCount: outputTokens }),
    totalTokenCount: plan.inputTokens + (outputTokens ?? 0) + (thoughtTokens ?? 0),
    ...(thoughtTokens !== undefined && { thoughtsTokenCount: thoughtTokens }),
  };
}

/** Whether the request asks for thought text; the thinking scenario counts thoughts either way. @param {Record<string, unknown>} body */
function includeThoughts(body) {
  const config = body.generationConfig ?? body.generation_config;
  const thinking = isRecord(config) ? (config.thinkingConfig ?? config.thinking_config) : undefined;
  return isRecord(thinking) && (thinking.includeThoughts ?? thinking.include_thoughts) === true;
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
  for (let index = 0; index < tokens.length; index += size) result.push(tokens.slice(index, index + size));
  return result;
}

/** @param {unknown} value */
const data = (value) => `data: ${JSON.stringify(value)}\r\n\r\n`;

/**
 * One streamed chunk of the reply.
 * @param {ChatPlan} plan @param {Record<string, unknown>[]} parts @param {unknown} usage @param {string} [finishReason]
 */
const chunk = (plan, parts, usage, finishReason) =>
  data({
    candidates: [{ content: { parts, role: 'model' }, ...(finishReason && { finishReason }), index: 0 }],
    usageMetadata: usage,
    ...envelope(plan),
  });

/**
 * The thinking scenario (B3): thought parts first when includeThoughts asks for them, then the
 * answer, then a last chunk whose empty text part carries the thought signature, with STOP. Usage
 * is in every chunk, cumulative.
 * @param {ChatPlan} plan @returns {string[]}
 */
function thinkingFrames(plan) {
  const frames = [];
  let thoughts = 0;
  if (includeThoughts(plan.body)) {
    // slow-thinking is there to watch the thinking live: one piece per chunk, not Gemini's groups.
    const pieces =
      plan.scenario === 'slow-thinking' ? plan.reasoning.map((piece) => [piece]) : groups(plan.reasoning);
    for (const group of pieces) {
      thoughts += group.length;
      frames.push(chunk(plan, [{ text: group.join(''), thought: true }], usageOf(plan, undefined, thoughts)));
    }
  }
  const allThoughts = plan.reasoning.length;
  let answer = 0;
  for (const group of groups(plan.tokens)) {
    answer += group.length;
    frames.push(chunk(plan, [{ text: group.join('') }], usageOf(plan, answer, allThoughts)));
  }
  const signature = thoughtSignature(plan.model, plan.reasoning.join(''));
  const last = [{ text: '', thoughtSignature: signature }];
  return [...frames, chunk(plan, last, usageOf(plan, answer, allThoughts), 'STOP')];
}

/**
 * A turn that calls tools: the functionCall parts, each whole with its id, and on a thinking model
 * a thought signature on the first one only (T2). Gemini 3 always thinks; other models sign under
 * tools-thinking.
 * @param {ChatPlan} plan
 */
function callPartsOf(plan) {
  const signed = thinks(plan.scenario) || checksSignatures(plan.model);
  return (plan.toolTurn?.calls ?? []).map((call, index) => {
    const id = randomId('', 8).toLowerCase();
    return {
      functionCall: { name: call.name, args: call.args, id },
      ...(index === 0 && signed && { thoughtSignature: callSignature(plan.model, `${id}\n${call.name}`) }),
    };
  });
}

/** The tokens of a tool turn's output: its text and its calls' arguments. @param {ChatPlan} plan */
const callTokensOf = (plan) =>
  (plan.toolTurn?.calls ?? []).reduce((sum, call) => sum + tokenize(call.arguments).length, 0);

/**
 * A streamed tool turn (T2): thought parts (tools-thinking, includeThoughts), the text before the
 * calls, every call in one chunk, then a last chunk with an empty text part and STOP: Gemini has no
 * finish reason of its own for tool calls.
 * @param {ChatPlan} plan @returns {string[]}
 */
function toolFrames(plan) {
  const thinking = thinks(plan.scenario);
  const allThoughts = thinking ? plan.reasoning.length : undefined;
  const frames = [];
  let thoughts = 0;
  if (thinking && includeThoughts(plan.body)) {
    for (const group of groups(plan.reasoning)) {
      thoughts += group.length;
      frames.push(chunk(plan, [{ text: group.join(''), thought: true }], usageOf(plan, undefined, thoughts)));
    }
  }
  let answer = 0;
  for (const group of groups(plan.tokens)) {
    answer += group.length;
    frames.push(chunk(plan, [{ text: group.join('') }], usageOf(plan, answer, allThoughts)));
  }
  const output = answer + callTokensOf(plan);
  frames.push(chunk(plan, callPartsOf(plan), usageOf(plan, output, allThoughts)));
  return [...frames, chunk(plan, [{ text: '' }], usageOf(plan, output, allThoughts), 'STOP')];
}

/**
 * A grounded answer (gemini-search.mjs): the text in chunks of a few tokens, the last one with
 * STOP and the groundingMetadata.
 * @param {ChatPlan} plan @param {NonNullable<ReturnType<typeof geminiSearchTurn>>} search
 * @returns {string[]}
 */
function groundedFrames(plan, search) {
  const texts = groups(tokenize(search.text));
  let answer = 0;
  return texts.map((group, index) => {
    answer += group.length;
    const last = index === texts.length - 1;
    const candidate = {
      content: { parts: [{ text: group.join('') }], role: 'model' },
      ...(last && { finishReason: 'STOP', groundingMetadata: search.groundingMetadata }),
      index: 0,
    };
    return data({
      candidates: [candidate],
      usageMetadata: usageOf(plan, last ? answer : undefined),
      ...envelope(plan),
    });
  });
}

/** @typedef {NonNullable<ReturnType<typeof geminiCodeTurn> | ReturnType<typeof geminiImageTurn>>} MediaTurn */

/** A code execution or image turn (gemini-code.mjs), if the scenario and request make one. @param {ChatPlan} plan */
const mediaTurnOf = (plan) => geminiCodeTurn(plan) ?? geminiImageTurn(plan);

/** The text part of a media turn: its signature, if any, on it. @param {MediaTurn} turn @param {string} text */
const mediaText = (turn, text) => ({ text, ...('textSignature' in turn ? turn.textSignature : {}) });

/** @param {MediaTurn} turn */
const mediaTokens = (turn) => tokenize(`${turn.counted}${turn.text}`).length;

/**
 * A code execution or image turn, streamed: each part before the text in a chunk of its own, the
 * text in chunks of a few tokens (the first carrying the text's signature), each part after it in
 * a chunk of its own; the last chunk has STOP and the usage's output side.
 * @param {ChatPlan} plan @param {MediaTurn} turn @returns {string[]}
 */
function mediaFrames(plan, turn) {
  const texts = groups(tokenize(turn.text)).map((group, index) =>
    index === 0 ? mediaText(turn, group.join('')) : { text: group.join('') },
  );
  const parts = [...turn.before, ...texts, ...turn.after];
  return parts.map((part, index) => {
    const last = index === parts.length - 1;
    return chunk(
      plan,
      [part],
      usageOf(plan, last ? mediaTokens(turn) : undefined),
      last ? 'STOP' : undefined,
    );
  });
}

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
  if (plan.toolTurn && plan.toolTurn.calls.length > 0) return toolFrames(plan);
  if (thinks(plan.scenario)) return thinkingFrames(plan);
  const search = geminiSearchTurn(plan);
  if (search) return groundedFrames(plan, search);
  const media = mediaTurnOf(plan);
  if (media) return mediaFrames(plan, media);
  const late = plan.scenario === 'blocked-late' || plan.scenario === 'error-event';
  const length = plan.scenario === 'length';
  const tokens = late ? plan.tokens.slice(0, 6) : length ? plan.tokens.slice(0, 3) : plan.tokens;
  const texts = groups(tokens);
  const frames = texts.map((group, index) => {
    const last = index === texts.length - 1 && !late;
    return chunk(
      plan,
      [{ text: group.join('') }],
      usageOf(plan, last ? tokens.length : undefined),
      last ? (length ? 'MAX_TOKENS' : 'STOP') : undefined,
    );
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
  if (plan.toolTurn && plan.toolTurn.calls.length > 0) {
    const thinking = thinks(plan.scenario);
    const parts = [
      ...(thinking && includeThoughts(plan.body) ? [{ text: plan.reasoning.join(''), thought: true }] : []),
      ...(plan.tokens.length > 0 ? [{ text: plan.tokens.join('') }] : []),
      ...callPartsOf(plan),
    ];
    const usage = usageOf(
      plan,
      plan.tokens.length + callTokensOf(plan),
      thinking ? plan.reasoning.length : undefined,
    );
    const candidate = { content: { parts, role: 'model' }, finishReason: 'STOP', index: 0 };
    return { status: 200, body: { candidates: [candidate], usageMetadata: usage, ...envelope(plan) } };
  }
  const search = geminiSearchTurn(plan);
  if (search) {
    const candidate = {
      content: { parts: [{ text: search.text }], role: 'model' },
      finishReason: 'STOP',
      index: 0,
      groundingMetadata: search.groundingMetadata,
    };
    const usage = usageOf(plan, tokenize(search.text).length);
    return { status: 200, body: { candidates: [candidate], usageMetadata: usage, ...envelope(plan) } };
  }
  const media = mediaTurnOf(plan);
  if (media) {
    const parts = [...media.before, mediaText(media, media.text), ...media.after];
    const candidate = { content: { parts, role: 'model' }, finishReason: 'STOP', index: 0 };
    const usage = usageOf(plan, mediaTokens(media));
    return { status: 200, body: { candidates: [candidate], usageMetadata: usage, ...envelope(plan) } };
  }
  const late = plan.scenario === 'blocked-late';
  const length = plan.scenario === 'length';
  const thinking = thinks(plan.scenario);
  const tokens = late ? plan.tokens.slice(0, 6) : length ? plan.tokens.slice(0, 3) : plan.tokens;
  // Not streamed, the thought signature sits on the answer's text part (B3).
  const parts = thinking
    ? [
        ...(includeThoughts(plan.body) ? [{ text: plan.reasoning.join(''), thought: true }] : []),
        { text: tokens.join(''), thoughtSignature: thoughtSignature(plan.model, plan.reasoning.join('')) },
      ]
    : [{ text: tokens.join('') }];
  const candidate = {
    content: { parts, role: 'model' },
    finishReason: late ? 'SAFETY' : length ? 'MAX_TOKENS' : 'STOP',
    index: 0,
    ...(late && { safetyRatings }),
  };
  const usage = usageOf(plan, tokens.length, thinking ? plan.reasoning.length : undefined);
  return { status: 200, body: { candidates: [candidate], usageMetadata: usage, ...envelope(plan) } };
}

/** @type {MockProvider} */
export const geminiMock = {
  id: 'gemini',
  keyOf: (request) => request.headers['x-goog-api-key'] ?? request.url.searchParams.get('key') ?? '',
  corsHeaders: (request) => ({ ...reflectOriginCors(request), vary: 'Origin, X-Origin, Referer' }),
  preflight: (request) => preflightReply(request, reflectOriginCors(request), allowedRequestHeaders),
  // A body over the inline limit is refused before the key is looked at.
  gate,
  ...geminiKeyReplies,
  validate,
  httpError,
  retired: retiredError,
  conversation: conversationOf,
  toolState: geminiToolState,
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
