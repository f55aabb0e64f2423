// @ts-check
/** OpenAI, Azure OpenAI and Groq: one chat-completions wire format with each one's own variations. */

import {
  azureHttpError,
  azureKeyReplies,
  groqHttpError,
  groqKeyReplies,
  groqRetiredError,
  isOpenaiRetired,
  openaiHttpError,
  openaiKeyReplies,
  openaiRetiredError,
  safeFilters,
  violenceFiltered,
} from './openai-errors.mjs';
import { chatAttachments } from './attachments.mjs';
import { chatAttachmentsError, groqAttachmentsError } from './openai-attachments.mjs';
import { isReasoningModel, validateGroqBody, validateOpenAIBody } from './openai-validation.mjs';
import { inThinkTags, thinks } from './scenarios.mjs';
import { anyOriginCors, isRecord, mockId, preflightReply, reflectOriginCors, unixNow } from './wire.mjs';

/**
 * @typedef {import('./wire.mjs').Reply} Reply
 * @typedef {import('./wire.mjs').ChatPlan} ChatPlan
 * @typedef {import('./wire.mjs').MockProvider} MockProvider
 * @typedef {import('./wire.mjs').MockRequest} MockRequest
 * @typedef {'openai' | 'azure' | 'groq'} Variant
 */

/** @param {MockRequest} request */
function bearerKey(request) {
  return /^Bearer\s+(.*)$/i.exec(request.headers.authorization ?? '')?.[1]?.trim() ?? '';
}

/** A message's text: a string, or its text parts (images and files are not text). @param {unknown} content */
function textOf(content) {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((part) => (isRecord(part) && part.type === 'text' && typeof part.text === 'string' ? part.text : ''))
    .join('');
}

/** What a Chat Completions body asks, as the scenarios need it. @param {Record<string, unknown>} body */
export function conversationOf(body) {
  const messages = Array.isArray(body.messages) ? body.messages.filter(isRecord) : [];
  const lastUser = messages.filter((message) => message.role === 'user').at(-1);
  return {
    model: typeof body.model === 'string' ? body.model : '',
    lastUserText: textOf(lastUser?.content),
    messageCount: messages.length,
    promptText: messages.map((message) => textOf(message.content)).join('\n'),
    attachments: chatAttachments(lastUser?.content),
  };
}

const promptFilterResults = [
  {
    content_filter_results: { ...safeFilters, jailbreak: { detected: false, filtered: false } },
    prompt_index: 0,
  },
];

/**
 * OpenAI's and Azure's usage: completion_tokens includes the reasoning tokens (docs/providers.md#usage).
 * @param {ChatPlan} plan @param {{ tokens: string[], reasoning: string[] }} script
 */
function usageOf(plan, { tokens, reasoning }) {
  const completion = tokens.length + reasoning.length;
  return {
    prompt_tokens: plan.inputTokens,
    completion_tokens: completion,
    total_tokens: plan.inputTokens + completion,
    prompt_tokens_details: { cached_tokens: 0, audio_tokens: 0 },
    completion_tokens_details: {
      reasoning_tokens: reasoning.length,
      audio_tokens: 0,
      accepted_prediction_tokens: 0,
      rejected_prediction_tokens: 0,
    },
  };
}

/** Groq's usage, with the token details when the model reasoned. @param {ChatPlan} plan @param {{ tokens: string[], reasoning: string[] }} script */
function groqUsageOf(plan, { tokens, reasoning }) {
  const completion = tokens.length + reasoning.length;
  return {
    queue_time: 0.0121,
    prompt_tokens: plan.inputTokens,
    prompt_time: 0.0024,
    completion_tokens: completion,
    completion_time: 0.05,
    total_tokens: plan.inputTokens + completion,
    total_time: 0.0524,
    ...(reasoning.length > 0 && {
      prompt_tokens_details: { cached_tokens: 0 },
      completion_tokens_details: { reasoning_tokens: reasoning.length },
    }),
  };
}

/** The tokens to send, the reasoning before them and how the reply ends, for a scenario. @param {ChatPlan} plan */
function scriptOf(plan) {
  const reasoning = thinks(plan.scenario) ? plan.reasoning : [];
  const cut = plan.tokens.slice(0, 3);
  if (plan.scenario === 'error-event')
    return { tokens: cut, reasoning, ending: /** @type {const} */ ('error') };
  if (plan.scenario.startsWith('blocked'))
    return { tokens: cut, reasoning, ending: /** @type {const} */ ('content_filter') };
  if (plan.scenario === 'length') return { tokens: cut, reasoning, ending: /** @type {const} */ ('length') };
  return { tokens: plan.tokens, reasoning, ending: /** @type {const} */ ('stop') };
}

/**
 * How Groq returns reasoning (docs/providers.md#groq): `parsed` in a `reasoning` field, `raw` inside
 * <think> tags in the content, `hidden` not at all. The default is raw, but parsed with tools or JSON
 * mode, and for gpt-oss, which has no raw form.
 * @param {ChatPlan} plan
 */
function groqReasoningFormat({ scenario, body, model }) {
  if (scenario === 'think-tags') return 'raw';
  if (typeof body.reasoning_format === 'string') return body.reasoning_format;
  if (body.include_reasoning === false) return 'hidden';
  const structured =
    (Array.isArray(body.tools) && body.tools.length > 0) ||
    (isRecord(body.response_format) && body.response_format.type !== 'text');
  return structured || model.includes('gpt-oss') ? 'parsed' : 'raw';
}

/**
 * What a reply shows of its reasoning: OpenAI and Azure Chat Completions never show it, they only
 * count it (A2); Groq as its reasoning format says.
 * @param {Variant} variant @param {ChatPlan} plan @param {{ tokens: string[], reasoning: string[] }} script
 */
function shownOf(variant, plan, { tokens, reasoning }) {
  const format = variant === 'groq' && reasoning.length > 0 ? groqReasoningFormat(plan) : 'hidden';
  return {
    reasoning: format === 'parsed' ? reasoning : [],
    content: format === 'raw' ? inThinkTags(reasoning, tokens) : tokens,
  };
}

/** @param {unknown} value */
const data = (value) => `data: ${JSON.stringify(value)}\n\n`;

/** @param {Variant} variant @param {ChatPlan} plan @returns {string[]} */
function streamFrames(variant, plan) {
  const script = scriptOf(plan);
  const { ending } = script;
  const shown = shownOf(variant, plan, script);
  const id = mockId('chatcmpl-');
  const requestId = mockId('req_');
  const created = unixNow();
  const includeUsage =
    variant === 'openai' &&
    isRecord(plan.body.stream_options) &&
    plan.body.stream_options.include_usage === true;
  /** @param {Record<string, unknown>} delta @param {string | null} finish @param {Record<string, unknown>} [extra] */
  const chunk = (delta, finish, extra = {}) => {
    if (variant === 'azure') {
      // Azure serializes keys alphabetically and filters each choice.
      const filters = finish === 'content_filter' ? violenceFiltered : finish ? {} : safeFilters;
      const choice = {
        content_filter_results: filters,
        delta,
        finish_reason: finish,
        index: 0,
        logprobs: null,
      };
      return {
        choices: [choice],
        created,
        id,
        model: plan.model,
        object: 'chat.completion.chunk',
        system_fingerprint: 'fp_mock',
      };
    }
    const choice = { index: 0, delta, logprobs: null, finish_reason: finish };
    const common = { id, object: 'chat.completion.chunk', created, model: plan.model };
    if (variant === 'groq') return { ...common, system_fingerprint: 'fp_mock', choices: [choice], ...extra };
    return {
      ...common,
      service_tier: 'default',
      system_fingerprint: 'fp_mock',
      choices: [choice],
      ...(includeUsage ? { usage: null } : {}),
      obfuscation: 'm0ck',
      ...extra,
    };
  };
  const frames = [];
  if (variant === 'azure')
    frames.push(
      data({
        choices: [],
        created: 0,
        id: '',
        model: '',
        object: '',
        prompt_filter_results: promptFilterResults,
      }),
    );
  const roleDelta =
    variant === 'groq'
      ? { role: 'assistant', content: '' }
      : variant === 'azure'
        ? { content: '', refusal: null, role: 'assistant' }
        : { role: 'assistant', content: '', refusal: null };
  frames.push(
    data(chunk(roleDelta, null, variant === 'groq' ? { x_groq: { id: requestId, seed: 1234567 } } : {})),
  );
  if (variant === 'openai') frames.push(': keep-alive\n\n');
  for (const piece of shown.reasoning) frames.push(data(chunk({ reasoning: piece }, null)));
  for (const token of shown.content) frames.push(data(chunk({ content: token }, null)));
  if (ending === 'error') {
    return [
      ...frames,
      data({
        error: {
          message: 'The server had an error while processing your request. Sorry about that!',
          type: 'server_error',
          param: null,
          code: null,
        },
      }),
    ];
  }
  const groqFinish = {
    x_groq: { id: requestId, usage: groqUsageOf(plan, script) },
    usage: groqUsageOf(plan, script),
  };
  frames.push(data(chunk({}, ending, variant === 'groq' ? groqFinish : {})));
  if (includeUsage) {
    // The usage-only chunk: the chunk envelope with no choices.
    frames.push(data({ ...chunk({}, null), choices: [], usage: usageOf(plan, script) }));
  }
  return [...frames, 'data: [DONE]\n\n'];
}

/** @param {Variant} variant @param {ChatPlan} plan @returns {Reply} */
function reply(variant, plan) {
  const script = scriptOf(plan);
  const { ending } = script;
  const shown = shownOf(variant, plan, script);
  const content = shown.content.join('');
  const common = {
    id: mockId('chatcmpl-'),
    object: 'chat.completion',
    created: unixNow(),
    model: plan.model,
  };
  if (variant === 'azure') {
    const choice = {
      content_filter_results: ending === 'content_filter' ? violenceFiltered : safeFilters,
      finish_reason: ending,
      index: 0,
      logprobs: null,
      message: { annotations: [], content, refusal: null, role: 'assistant' },
    };
    return {
      status: 200,
      body: {
        choices: [choice],
        created: common.created,
        id: common.id,
        model: plan.model,
        object: 'chat.completion',
        prompt_filter_results: promptFilterResults,
        system_fingerprint: 'fp_mock',
        usage: usageOf(plan, script),
      },
    };
  }
  if (variant === 'groq') {
    const reasoning = shown.reasoning.length > 0 ? { reasoning: shown.reasoning.join('') } : {};
    const choice = {
      index: 0,
      message: { role: 'assistant', content, ...reasoning },
      logprobs: null,
      finish_reason: ending,
    };
    return {
      status: 200,
      body: {
        ...common,
        choices: [choice],
        usage: groqUsageOf(plan, script),
        system_fingerprint: 'fp_mock',
        x_groq: { id: mockId('req_') },
      },
    };
  }
  const choice = {
    index: 0,
    message: { role: 'assistant', content, refusal: null, annotations: [] },
    logprobs: null,
    finish_reason: ending,
  };
  return {
    status: 200,
    body: {
      ...common,
      choices: [choice],
      usage: usageOf(plan, script),
      service_tier: 'default',
      system_fingerprint: 'fp_mock',
    },
  };
}

/**
 * OpenAI's /v1/models items: `shutdown_date` is 'YYYY-MM-DD' or null (openai-node
 * src/resources/models.ts; the days of platform.openai.com/docs/deprecations).
 * @type {[string, string | null][]}
 */
const openaiModels = [
  ['gpt-5.5', null],
  ['gpt-5.4', null],
  ['gpt-5-mini', '2026-12-11'],
  ['o3', '2026-12-11'],
  ['o4-mini', '2026-10-23'],
  ['gpt-4.1', '2027-01-14'],
  ['gpt-4.1-mini', '2027-01-14'],
  ['gpt-4o', '2027-01-14'],
  ['gpt-4o-mini', '2027-01-14'],
  ['gpt-3.5-turbo', '2026-10-23'],
  ['text-embedding-3-small', null],
];

/** Under `retired`, the list as it stands after the shutdowns: without the models gone. @param {number} created @param {string} scenario */
const models = (created, scenario) =>
  openaiModels
    .filter(([id]) => scenario !== 'retired' || !isOpenaiRetired(id))
    .map(([id, shutdown]) => ({ id, object: 'model', created, owned_by: 'system', shutdown_date: shutdown }));

/** @type {MockProvider} */
export const openaiMock = {
  id: 'openai',
  keyOf: bearerKey,
  corsHeaders: anyOriginCors,
  preflight: (request) => preflightReply(request, anyOriginCors()),
  ...openaiKeyReplies,
  validate: (body, _request, scenario) =>
    validateOpenAIBody(body, {
      requireModel: true,
      allowStreamOptions: true,
      reasoning: isReasoningModel(body.model) || scenario === 'reasoning-model',
    }) ?? chatAttachmentsError(body),
  httpError: openaiHttpError,
  conversation: conversationOf,
  isStream: (body) => body.stream === true,
  streamFrames: (plan) => streamFrames('openai', plan),
  reply: (plan) => reply('openai', plan),
  midStreamErrorStatus: 500,
  models: (_request, scenario) => ({ object: 'list', data: models(1715367049, scenario) }),
  retired: openaiRetiredError,
};

/** @type {MockProvider} */
export const groqMock = {
  id: 'groq',
  keyOf: bearerKey,
  corsHeaders: reflectOriginCors,
  preflight: (request) => preflightReply(request, reflectOriginCors(request)),
  ...groqKeyReplies,
  validate: (body) => validateGroqBody(body) ?? groqAttachmentsError(body),
  httpError: groqHttpError,
  retired: groqRetiredError,
  conversation: conversationOf,
  isStream: (body) => body.stream === true,
  streamFrames: (plan) => streamFrames('groq', plan),
  reply: (plan) => reply('groq', plan),
  midStreamErrorStatus: 500,
  models: () => ({
    object: 'list',
    data: [
      'llama-3.3-70b-versatile',
      'llama-3.1-8b-instant',
      'openai/gpt-oss-120b',
      'openai/gpt-oss-20b',
    ].map((id) => ({
      id,
      object: 'model',
      created: 1693721698,
      owned_by: 'Meta',
      active: true,
      context_window: 131072,
      public_apps: null,
      max_completion_tokens: 32768,
    })),
  }),
};

/** @param {MockRequest} request */
const apiVersionOf = (request) => request.url.searchParams.get('api-version') ?? '';

/** @type {MockProvider} */
export const azureMock = {
  id: 'azure',
  keyOf: (request) => request.headers['api-key'] ?? '',
  corsHeaders: anyOriginCors,
  preflight: (request) => preflightReply(request, anyOriginCors()),
  gate: (request) =>
    apiVersionOf(request)
      ? undefined
      : { status: 404, body: { error: { code: '404', message: 'Resource not found' } } },
  ...azureKeyReplies,
  // stream_options arrived with the 2024 api-versions; older ones reject it.
  validate: (body, request, scenario) =>
    validateOpenAIBody(body, {
      requireModel: false,
      allowStreamOptions: apiVersionOf(request) >= '2024',
      reasoning: isReasoningModel(request.params.deployment) || scenario === 'reasoning-model',
    }) ?? chatAttachmentsError(body),
  httpError: (status, model) => azureHttpError(status, model),
  conversation: (body, request) => ({ ...conversationOf(body), model: request.params.deployment ?? '' }),
  isStream: (body) => body.stream === true,
  streamFrames: (plan) => streamFrames('azure', plan),
  reply: (plan) => reply('azure', plan),
  midStreamErrorStatus: 500,
  models: () => ({
    data: ['gpt-4o-mini', 'gpt-4o'].map((id) => ({
      scale_settings: { scale_type: 'standard' },
      model: id,
      owner: 'organization-owner',
      id,
      status: 'succeeded',
      created_at: 1715367049,
      updated_at: 1715367049,
      object: 'deployment',
    })),
    object: 'list',
  }),
};
