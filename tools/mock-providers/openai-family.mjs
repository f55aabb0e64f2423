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
import { compoundCodeTurn } from './openai-code.mjs';
import { chatSearchTurn, compoundSearchTurn, isCompound } from './openai-search.mjs';
import { chatHistoryError, chatToolState, chatToolsError, groqToolsError } from './openai-tools.mjs';
import { isReasoningModel, validateGroqBody, validateOpenAIBody } from './openai-validation.mjs';
import { inThinkTags, thinks } from './scenarios.mjs';
import { tokenize } from './tokens.mjs';
import { argumentPieces, randomId } from './tools.mjs';
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
 * @typedef {object} Script
 * @property {string[]} tokens
 * @property {string[]} reasoning
 * @property {'error' | 'content_filter' | 'length' | 'stop' | 'tool_calls'} ending
 * @property {(import('./tools.mjs').ToolCall & { id: string })[]} calls The tool calls, with their ids.
 */

/** Output tokens: the text, the reasoning and the tool calls' arguments. @param {Script} script */
const completionTokens = ({ tokens, reasoning, calls }) =>
  tokens.length + reasoning.length + calls.reduce((sum, call) => sum + tokenize(call.arguments).length, 0);

/**
 * OpenAI's and Azure's usage: completion_tokens includes the reasoning tokens (docs/providers.md#usage).
 * @param {ChatPlan} plan @param {Script} script
 */
function usageOf(plan, script) {
  const { reasoning } = script;
  const completion = completionTokens(script);
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

/** Groq's usage, with the token details when the model reasoned. @param {ChatPlan} plan @param {Script} script */
function groqUsageOf(plan, script) {
  const { reasoning } = script;
  const completion = completionTokens(script);
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

/**
 * The ids of a tool turn's calls: OpenAI's `call_` and 24 characters; Groq's 9 lower-case ones (T2).
 * @param {Variant} variant @param {ChatPlan} plan
 */
const callsOf = (variant, plan) =>
  (plan.toolTurn?.calls ?? []).map((call) => ({
    ...call,
    id: variant === 'groq' ? randomId('', 9).toLowerCase() : randomId('call_'),
  }));

/**
 * The tokens to send, the reasoning before them and how the reply ends, for a scenario.
 * @param {Variant} variant @param {ChatPlan} plan @returns {Script}
 */
function scriptOf(variant, plan) {
  const compoundSearch =
    variant === 'groq' && (compoundSearchTurn(plan) ?? compoundCodeTurn(plan)) !== undefined;
  const reasoning = thinks(plan.scenario) || compoundSearch ? plan.reasoning : [];
  const cut = plan.tokens.slice(0, 3);
  if (plan.scenario === 'error-event') return { tokens: cut, reasoning, ending: 'error', calls: [] };
  if (plan.scenario.startsWith('blocked'))
    return { tokens: cut, reasoning, ending: 'content_filter', calls: [] };
  if (plan.scenario === 'length') return { tokens: cut, reasoning, ending: 'length', calls: [] };
  const calls = callsOf(variant, plan);
  return { tokens: plan.tokens, reasoning, ending: calls.length > 0 ? 'tool_calls' : 'stop', calls };
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
  return structured || model.includes('gpt-oss') || isCompound(model) ? 'parsed' : 'raw';
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

/**
 * A web search turn (openai-search.mjs): OpenAI's search models and Groq's compound models answer
 * a search scenario with the search answer (and compound with its reasoning and executed tools);
 * compound models answer a code scenario with their run the same way (openai-code.mjs).
 * @param {Variant} variant @param {ChatPlan} plan
 */
function withSearch(variant, plan) {
  const chat = variant === 'openai' ? chatSearchTurn(plan) : undefined;
  const compound = variant === 'groq' ? (compoundSearchTurn(plan) ?? compoundCodeTurn(plan)) : undefined;
  const text = chat?.text ?? compound?.text;
  if (text === undefined) return { plan, search: undefined };
  return {
    plan: { ...plan, tokens: tokenize(text), reasoning: tokenize(compound?.reasoning ?? '') },
    search: { annotations: chat?.annotations, tools: compound?.tools, thoughts: compound?.thoughts },
  };
}

/** @param {unknown} value */
const data = (value) => `data: ${JSON.stringify(value)}\n\n`;

/** @param {Variant} variant @param {ChatPlan} asked @returns {string[]} */
function streamFrames(variant, asked) {
  const { plan, search } = withSearch(variant, asked);
  const script = scriptOf(variant, plan);
  const { ending, calls } = script;
  if (variant === 'groq' && calls.length > 0 && plan.scenario === 'tools-failed-late')
    return [groqToolFailedEvent];
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
  // A turn that only calls tools has null content; OpenAI sends the first call's first fragment
  // along with the role (T2).
  const content = calls.length > 0 && shown.content.length === 0 ? null : '';
  const firstCall = variant !== 'groq' && content === null ? calls[0] : undefined;
  const firstFragments = firstCall ? { tool_calls: [callStart(firstCall, 0)] } : {};
  const roleDelta =
    variant === 'groq'
      ? { role: 'assistant', content }
      : variant === 'azure'
        ? { content, refusal: null, role: 'assistant', ...firstFragments }
        : { role: 'assistant', content, ...firstFragments, refusal: null };
  frames.push(
    data(chunk(roleDelta, null, variant === 'groq' ? { x_groq: { id: requestId, seed: 1234567 } } : {})),
  );
  if (variant === 'openai') frames.push(': keep-alive\n\n');
  if (search?.tools) {
    // Groq's compound models: each search it ran, whole, after the reasoning that leads to it.
    for (const [index, tool] of search.tools.entries()) {
      const thought = shown.reasoning.length > 0 ? (search.thoughts?.[index] ?? '') : '';
      for (const piece of tokenize(thought)) frames.push(data(chunk({ reasoning: piece }, null)));
      frames.push(data(chunk({ executed_tools: [tool] }, null)));
    }
  } else {
    for (const piece of shown.reasoning) frames.push(data(chunk({ reasoning: piece }, null)));
  }
  for (const token of shown.content) frames.push(data(chunk({ content: token }, null)));
  // OpenAI's search models: the citations in a chunk of their own after the text.
  if (search?.annotations) frames.push(data(chunk({ annotations: search.annotations }, null)));
  if (variant === 'groq') {
    // Groq sends each call whole, its arguments in one piece (T2).
    for (const [index, call] of calls.entries()) {
      const whole = {
        id: call.id,
        type: 'function',
        function: { name: call.name, arguments: call.arguments },
      };
      frames.push(data(chunk({ tool_calls: [{ ...whole, index }] }, null)));
    }
  } else {
    // OpenAI: id, type and name in the first fragment only, the arguments in pieces after it (T2).
    for (const [index, call] of calls.entries()) {
      if (index > 0 || !firstCall) frames.push(data(chunk({ tool_calls: [callStart(call, index)] }, null)));
      for (const piece of argumentPieces(call.arguments))
        frames.push(data(chunk({ tool_calls: [{ index, function: { arguments: piece } }] }, null)));
    }
  }
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

const groqToolFailedMessage =
  "Failed to call a function. Please adjust your prompt. See 'failed_generation' for more details.";

/**
 * Groq's failed tool call inside a 200 stream: the whole body is one `event: error` (T2, as a
 * client dumped it).
 */
const groqToolFailedEvent = `event: error\ndata: ${JSON.stringify({
  error: {
    message: groqToolFailedMessage,
    type: 'invalid_request_error',
    code: 'tool_use_failed',
    failed_generation: 'Tool use failed: JSON does not match the expected schema for tool calls',
    status_code: 400,
  },
})}\n\n`;

/**
 * Groq refuses the model's tool calls with a 400 (T2): under `tools-failed` (and `tools-failed-late`
 * when not streamed) with the model's raw text in failed_generation; otherwise when a call lacks a
 * required parameter of its tool, unless the request sets disable_tool_validation.
 * @param {ChatPlan} plan @returns {Reply | undefined}
 */
function groqToolRefusal(plan) {
  const calls = plan.toolTurn?.calls ?? [];
  if (calls.length === 0) return undefined;
  /** @param {string} message @param {Record<string, unknown>} [fields] @returns {Reply} */
  const refusal = (message, fields = {}) => ({
    status: 400,
    body: { error: { message, type: 'invalid_request_error', code: 'tool_use_failed', ...fields } },
  });
  if (
    plan.scenario === 'tools-failed' ||
    (plan.scenario === 'tools-failed-late' && plan.body.stream !== true)
  ) {
    // Llama-style raw text, as reported in failed_generation.
    const generated = calls.map((call) => `<function=${call.name}${call.arguments}</function>`).join('\n');
    return refusal(groqToolFailedMessage, { failed_generation: generated });
  }
  if (plan.body.disable_tool_validation === true) return undefined;
  const declared = chatToolState(plan.body).tools;
  for (const call of calls) {
    const schema = declared.find((tool) => tool.name === call.name)?.parameters;
    const required = isRecord(schema) && Array.isArray(schema.required) ? schema.required : [];
    const lacking = required.filter((name) => typeof name === 'string' && !(name in call.args));
    if (lacking.length > 0) {
      const list = lacking.map((name) => `'${String(name)}'`).join(', ');
      return refusal(
        `tool call validation failed: parameters for tool ${call.name} did not match schema: errors: [missing properties: ${list}]`,
      );
    }
  }
  return undefined;
}

/** The first fragment of a streamed call: its id, type and name, and no arguments yet. @param {{ id: string, name: string }} call @param {number} index */
const callStart = (call, index) => ({
  index,
  id: call.id,
  type: 'function',
  function: { name: call.name, arguments: '' },
});

/** A message's tool_calls. @param {Script['calls']} calls */
const toolCallsOf = (calls) =>
  calls.map((call) => ({
    id: call.id,
    type: 'function',
    function: { name: call.name, arguments: call.arguments },
  }));

/** @param {Variant} variant @param {ChatPlan} asked @returns {Reply} */
function reply(variant, asked) {
  const { plan, search } = withSearch(variant, asked);
  const script = scriptOf(variant, plan);
  const { ending, calls } = script;
  const shown = shownOf(variant, plan, script);
  const text = shown.content.join('');
  const content = calls.length > 0 && text === '' ? null : text;
  const toolCalls = calls.length > 0 ? { tool_calls: toolCallsOf(calls) } : {};
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
      message: { annotations: [], content, refusal: null, role: 'assistant', ...toolCalls },
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
      message: {
        role: 'assistant',
        ...(content !== null && { content }),
        ...reasoning,
        ...toolCalls,
        ...(search?.tools && { executed_tools: search.tools }),
      },
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
    message: {
      role: 'assistant',
      content,
      refusal: null,
      annotations: search?.annotations ?? [],
      ...toolCalls,
    },
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
    }) ??
    chatToolsError(body) ??
    chatHistoryError(body) ??
    chatAttachmentsError(body),
  httpError: openaiHttpError,
  conversation: conversationOf,
  toolState: chatToolState,
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
  validate: (body) => validateGroqBody(body) ?? groqToolsError(body) ?? groqAttachmentsError(body),
  httpError: groqHttpError,
  retired: groqRetiredError,
  conversation: conversationOf,
  toolState: chatToolState,
  toolRefusal: groqToolRefusal,
  isStream: (body) => body.stream === true,
  streamFrames: (plan) => streamFrames('groq', plan),
  reply: (plan) => reply('groq', plan),
  midStreamErrorStatus: 500,
  // The compound systems search the web on their own (openai-search.mjs).
  models: () => ({
    object: 'list',
    data: [
      'llama-3.3-70b-versatile',
      'llama-3.1-8b-instant',
      'openai/gpt-oss-120b',
      'openai/gpt-oss-20b',
      'groq/compound',
      'groq/compound-mini',
    ].map((id) => ({
      id,
      object: 'model',
      created: 1693721698,
      owned_by: isCompound(id) ? 'Groq' : 'Meta',
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
    }) ??
    chatToolsError(body) ??
    chatHistoryError(body) ??
    chatAttachmentsError(body),
  httpError: (status, model) => azureHttpError(status, model),
  conversation: (body, request) => ({ ...conversationOf(body), model: request.params.deployment ?? '' }),
  toolState: chatToolState,
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
