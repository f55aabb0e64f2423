// @ts-check
/**
 * OpenAI's Responses API (POST /v1/responses) and Azure's v1 path to it (POST /openai/v1/responses).
 * Only reasoning models are called here, so every scenario reasons: a reasoning item comes first,
 * with its summary when `reasoning.summary` asks for one, then the message.
 */

import { responsesAttachments } from './attachments.mjs';
import { responsesAttachmentsError } from './openai-attachments.mjs';
import { azureMock, openaiMock } from './openai-family.mjs';
import {
  echoedSearchTool,
  responsesSearchError,
  responsesSearchTurn,
  responsesSearchTypes,
  searchReasoningItem,
} from './openai-search.mjs';
import { responsesCodeError, responsesCodeTurn, responsesImageTurn } from './openai-code.mjs';
import { responsesResearchedTurn } from './openai-researched.mjs';
import { responsesHistoryError, responsesToolState, responsesToolsError } from './openai-tools.mjs';
import { isReasoningModel, openaiInvalid, stringFieldError } from './openai-validation.mjs';
import { encryptedReasoning, isEncryptedReasoning } from './signatures.mjs';
import { tokenize } from './tokens.mjs';
import { argumentPieces, hexId, randomId } from './tools.mjs';
import { isRecord, mockId, unixNow } from './wire.mjs';

/**
 * @typedef {import('./wire.mjs').Reply} Reply
 * @typedef {import('./wire.mjs').ChatPlan} ChatPlan
 * @typedef {import('./wire.mjs').MockProvider} MockProvider
 * @typedef {'openai' | 'azure'} Variant
 */

/** ResponseCreateParams (docs/providers.md#openai-responses-api); anything else is an unknown parameter. */
const responsesKeys = [
  'background',
  'conversation',
  'include',
  'input',
  'instructions',
  'max_output_tokens',
  'max_tool_calls',
  'metadata',
  'model',
  'parallel_tool_calls',
  'previous_response_id',
  'prompt',
  'prompt_cache_key',
  'prompt_cache_retention',
  'reasoning',
  'safety_identifier',
  'service_tier',
  'store',
  'stream',
  'stream_options',
  'temperature',
  'text',
  'tool_choice',
  'tools',
  'top_logprobs',
  'top_p',
  'truncation',
  'user',
];

const userParts = ['input_text', 'input_image', 'input_file'];
const assistantParts = ['output_text', 'refusal'];

/** 'a' and 'b'; 'a', 'b', and 'c': OpenAI's way of listing supported values. @param {string[]} values */
function quotedList(values) {
  const quoted = values.map((value) => `'${value}'`);
  return quoted.length < 3 ? quoted.join(' and ') : `${quoted.slice(0, -1).join(', ')}, and ${quoted.at(-1)}`;
}

/**
 * The reasoning efforts a model accepts (docs/providers.md#openai-reasoning-models); undefined for models the table
 * does not know, which are not checked.
 * @param {string} model
 */
function effortsOf(model) {
  if (/^o\d/.test(model)) return ['low', 'medium', 'high'];
  if (!model.startsWith('gpt-5')) return undefined;
  if (model.includes('-pro')) return ['medium', 'high', 'xhigh'];
  const family = model.startsWith('gpt-5.1')
    ? ['none', 'low', 'medium', 'high']
    : /^gpt-5\.[2-5]/.test(model)
      ? ['none', 'low', 'medium', 'high', 'xhigh']
      : model.startsWith('gpt-5.6')
        ? ['none', 'low', 'medium', 'high', 'xhigh', 'max']
        : ['minimal', 'low', 'medium', 'high'];
  return model.includes('-codex') ? family.filter((effort) => effort !== 'none') : family;
}

/** @param {unknown} value */
const typeName = (value) => (value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value);

/** @param {Record<string, unknown>} body */
const reasoningOf = (body) => (isRecord(body.reasoning) ? body.reasoning : {});

/** @param {Record<string, unknown>} body */
const summaryAsked = (body) => typeof reasoningOf(body).summary === 'string';

/**
 * A reasoning item sent back (C): with `store:false` it must carry its encrypted_content, and that
 * must be one the mock issued. With storage on, the real API looks the id up among stored responses;
 * the mock stores none and takes the id on trust.
 * @param {Record<string, unknown>} item @param {number} index @param {Record<string, unknown>} body
 * @returns {Reply | undefined}
 */
function reasoningItemError(item, index, body) {
  const encrypted = item.encrypted_content;
  if (encrypted === undefined || encrypted === null) {
    if (body.store !== false) return undefined;
    if (typeof item.id !== 'string') {
      const message = `Missing required parameter: 'input[${index}].encrypted_content'.`;
      return openaiInvalid(message, {
        param: `input[${index}].encrypted_content`,
        code: 'missing_required_parameter',
      });
    }
    const message = `Item with id '${item.id}' not found. Items are not persisted when \`store\` is set to false. Try again with \`store\` set to true, or remove this item from your input.`;
    return { ...openaiInvalid(message, { param: 'input' }), status: 404 };
  }
  if (isEncryptedReasoning(encrypted)) return undefined;
  const text = String(encrypted);
  const shown = text.length > 8 ? `${text.slice(0, 4)}...${text.slice(-4)}` : text;
  return openaiInvalid(`The encrypted content ${shown} could not be verified.`, {
    code: 'invalid_encrypted_content',
  });
}

/** @param {Record<string, unknown>} item @param {number} index @returns {Reply | undefined} */
function messageItemError(item, index) {
  const roles = ['user', 'assistant', 'system', 'developer'];
  if (!roles.includes(String(item.role))) {
    const message = `Invalid value: '${String(item.role)}'. Supported values are: ${quotedList(roles)}.`;
    return openaiInvalid(message, { param: `input[${index}].role`, code: 'invalid_value' });
  }
  if (typeof item.content === 'string') return undefined;
  if (!Array.isArray(item.content)) {
    const message = `Invalid type for 'input[${index}].content': expected one of a string or array of input content, but got ${typeName(item.content)} instead.`;
    return openaiInvalid(message, { param: `input[${index}].content`, code: 'invalid_type' });
  }
  // Assistant history is output: only output_text and refusal parts (A3).
  const allowed = item.role === 'assistant' ? assistantParts : userParts;
  for (const [partIndex, part] of item.content.entries()) {
    const type = isRecord(part) ? String(part.type) : typeName(part);
    if (allowed.includes(type)) continue;
    const message = `Invalid value: '${type}'. Supported values are: ${quotedList(allowed)}.`;
    return openaiInvalid(message, { param: `input[${index}].content[${partIndex}]`, code: 'invalid_value' });
  }
  return undefined;
}

/**
 * @param {Record<string, unknown>} body @param {string} scenario
 * @param {boolean} reasoningModel the model refuses sampling settings
 * @returns {Reply | undefined}
 */
function validate(body, scenario, reasoningModel) {
  const unknown = Object.keys(body).find((key) => !responsesKeys.includes(key));
  if (unknown)
    return openaiInvalid(`Unknown parameter: '${unknown}'.`, { param: unknown, code: 'unknown_parameter' });
  if (typeof body.model !== 'string') {
    return openaiInvalid("Missing required parameter: 'model'.", {
      param: 'model',
      code: 'missing_required_parameter',
    });
  }
  const cacheKeyError = stringFieldError(body, 'prompt_cache_key');
  if (cacheKeyError) return cacheKeyError;
  const maxOutput = body.max_output_tokens;
  if (typeof maxOutput === 'number' && maxOutput < 16) {
    const message = `Invalid 'max_output_tokens': integer below minimum value. Expected a value >= 16, but got ${maxOutput} instead.`;
    return openaiInvalid(message, { param: 'max_output_tokens', code: 'integer_below_min_value' });
  }
  const input = body.input;
  if (input !== undefined && typeof input !== 'string' && !Array.isArray(input)) {
    const message = `Invalid type for 'input': expected one of a string or array of input items, but got ${typeName(input)} instead.`;
    return openaiInvalid(message, { param: 'input', code: 'invalid_type' });
  }
  for (const [index, item] of (Array.isArray(input) ? input : []).entries()) {
    if (!isRecord(item)) {
      const message = `Invalid type for 'input[${index}]': expected an input item, but got ${typeName(item)} instead.`;
      return openaiInvalid(message, { param: `input[${index}]`, code: 'invalid_type' });
    }
    const type = item.type ?? 'message';
    // Function calls and their outputs are checked by responsesHistoryError; other items pass.
    const error =
      type === 'message'
        ? messageItemError(item, index)
        : type === 'reasoning'
          ? reasoningItemError(item, index, body)
          : undefined;
    if (error) return error;
  }
  const toolsError =
    responsesToolsError(body) ??
    responsesSearchError(body) ??
    responsesCodeError(body) ??
    responsesHistoryError(body);
  if (toolsError) return toolsError;
  const attachmentsError = responsesAttachmentsError(Array.isArray(input) ? input : []);
  if (attachmentsError) return attachmentsError;
  const sampling = ['temperature', 'top_p'].find((name) => body[name] !== undefined);
  if (reasoningModel && sampling) {
    // Unlike Chat Completions, Responses refuses the parameter itself, with code null (A2).
    return openaiInvalid(`Unsupported parameter: '${sampling}' is not supported with this model.`, {
      param: sampling,
    });
  }
  const { effort, summary } = reasoningOf(body);
  const efforts = effortsOf(body.model);
  if (effort !== undefined && efforts && !efforts.includes(String(effort))) {
    const message = `Unsupported value: 'reasoning.effort' does not support '${String(effort)}' with this model. Supported values are: ${quotedList(efforts)}.`;
    return openaiInvalid(message, { param: 'reasoning.effort', code: 'unsupported_value' });
  }
  const summaries = ['auto', 'concise', 'detailed'];
  if (summary !== undefined && summary !== null && !summaries.includes(String(summary))) {
    const message = `Invalid value: '${String(summary)}'. Supported values are: ${quotedList(summaries)}.`;
    return openaiInvalid(message, { param: 'reasoning.summary', code: 'invalid_value' });
  }
  if (scenario === 'unverified' && summary !== undefined && summary !== null) {
    const message =
      'Your organization must be verified to generate reasoning summaries. Please go to: https://platform.openai.com/settings/organization/general and click on Verify Organization. If you just verified, it can take up to 15 minutes for access to propagate.';
    return openaiInvalid(message, { param: 'reasoning.summary', code: 'unsupported_value' });
  }
  return undefined;
}

/** Text of a message's content: a string, or its text parts. @param {unknown} content */
function textOf(content) {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((part) => (isRecord(part) && typeof part.text === 'string' ? part.text : '')).join('');
}

/** @param {Record<string, unknown>} body */
function conversationOf(body) {
  const items =
    typeof body.input === 'string'
      ? [{ role: 'user', content: body.input }]
      : Array.isArray(body.input)
        ? body.input.filter(isRecord)
        : [];
  const messages = items.filter((item) => (item.type ?? 'message') === 'message');
  const instructions = typeof body.instructions === 'string' ? body.instructions : '';
  const lastUser = messages.filter((message) => message.role === 'user').at(-1);
  return {
    model: typeof body.model === 'string' ? body.model : '',
    lastUserText: textOf(lastUser?.content),
    messageCount: messages.length + (instructions ? 1 : 0),
    promptText: [instructions, ...messages.map((message) => textOf(message.content))]
      .filter(Boolean)
      .join('\n'),
    attachments: responsesAttachments(lastUser?.content),
  };
}

/** The tokens to send and how the response ends, for a scenario. @param {ChatPlan} plan */
function scriptOf(plan) {
  const cut = plan.tokens.slice(0, 3);
  if (plan.scenario === 'error-event') return { tokens: cut, status: 'failed', reason: null };
  if (plan.scenario === 'length') return { tokens: cut, status: 'incomplete', reason: 'max_output_tokens' };
  if (plan.scenario.startsWith('blocked'))
    return { tokens: cut, status: 'incomplete', reason: 'content_filter' };
  return { tokens: plan.tokens, status: 'completed', reason: null };
}

/**
 * The request's tools as the response echoes them: function tools with `strict` (true unless sent
 * false) and, when strict, `additionalProperties: false` added to their parameters (T1); web
 * search tools with their defaults.
 * @param {Record<string, unknown>} body
 */
function echoedTools(body) {
  return (Array.isArray(body.tools) ? body.tools : []).map((tool) => {
    if (isRecord(tool) && responsesSearchTypes.includes(String(tool.type))) return echoedSearchTool(tool);
    if (!isRecord(tool) || tool.type !== 'function') return tool;
    const strict = tool.strict !== false;
    const parameters = isRecord(tool.parameters) ? tool.parameters : { type: 'object', properties: {} };
    return {
      type: 'function',
      description: tool.description ?? null,
      name: tool.name,
      parameters: strict ? { ...parameters, additionalProperties: false } : parameters,
      strict,
    };
  });
}

/** The response object before any output, as response.created carries it. @param {Variant} variant @param {ChatPlan} plan */
function baseOf(variant, plan) {
  const { body } = plan;
  const reasoning = reasoningOf(body);
  return {
    id: mockId('resp_'),
    object: 'response',
    created_at: unixNow(),
    status: 'in_progress',
    background: false,
    error: null,
    incomplete_details: null,
    instructions: body.instructions ?? null,
    max_output_tokens: body.max_output_tokens ?? null,
    model: plan.model,
    output: /** @type {unknown[]} */ ([]),
    parallel_tool_calls: body.parallel_tool_calls ?? true,
    previous_response_id: body.previous_response_id ?? null,
    reasoning: { effort: reasoning.effort ?? 'medium', summary: reasoning.summary ?? null },
    store: body.store ?? true,
    temperature: 1,
    text: { format: { type: 'text' }, verbosity: 'medium' },
    tool_choice: body.tool_choice ?? 'auto',
    tools: echoedTools(body),
    top_p: 1,
    truncation: 'disabled',
    usage: /** @type {unknown} */ (null),
    user: null,
    metadata: {},
    // Azure adds the content filter results to the response object (B1).
    ...(variant === 'azure' && { content_filters: null }),
  };
}

/**
 * Usage: output_tokens includes the reasoning; input_tokens includes the cached part (E).
 * @param {ChatPlan} plan @param {number} outputTokens @param {number} reasoningTokens
 */
const usageOf = (plan, outputTokens, reasoningTokens) => ({
  input_tokens: plan.inputTokens,
  input_tokens_details: { cached_tokens: 0 },
  output_tokens: outputTokens,
  output_tokens_details: { reasoning_tokens: reasoningTokens },
  total_tokens: plan.inputTokens + outputTokens,
});

/**
 * Everything one response needs, made once so streamed events and the final object agree.
 * @param {Variant} variant @param {ChatPlan} plan
 */
function responseParts(variant, plan) {
  const { body } = plan;
  const script = scriptOf(plan);
  const reasoningText = plan.reasoning.join('');
  const text = script.tokens.join('');
  // A function call item per tool call: its own fc_ id, and the call_id outputs answer to (T2).
  const callItems = (plan.toolTurn?.calls ?? []).map((call) => ({
    id: hexId('fc_'),
    type: 'function_call',
    status: 'completed',
    arguments: call.arguments,
    call_id: randomId('call_'),
    name: call.name,
  }));
  // A turn that only calls tools has no message.
  const hasMessage = callItems.length === 0 || text !== '';
  const reasoningItem = {
    id: mockId('rs_'),
    type: 'reasoning',
    encrypted_content: encryptedReasoning(reasoningText),
    summary: summaryAsked(body) ? [{ type: 'summary_text', text: reasoningText }] : [],
  };
  const messageItem = {
    id: mockId('msg_'),
    type: 'message',
    status: script.status === 'completed' ? 'completed' : 'incomplete',
    content: [{ type: 'output_text', annotations: [], logprobs: [], text }],
    role: 'assistant',
  };
  const base = baseOf(variant, plan);
  const callTokens = callItems.reduce((sum, item) => sum + tokenize(item.arguments).length, 0);
  const outputTokens = script.tokens.length + plan.reasoning.length + callTokens;
  const final = {
    ...base,
    status: script.status,
    incomplete_details: script.reason ? { reason: script.reason } : null,
    output: [reasoningItem, ...(hasMessage ? [messageItem] : []), ...callItems],
    usage: usageOf(plan, outputTokens, plan.reasoning.length),
  };
  return { script, reasoningText, text, reasoningItem, messageItem, hasMessage, callItems, base, final };
}

/**
 * @typedef {NonNullable<ReturnType<typeof serverToolTurn>>} ServerToolTurn
 */

/**
 * A turn of the providers' own tools: web search (openai-search.mjs), code interpreter or image
 * generation (openai-code.mjs), or both web search and image generation in the bench's long
 * answer (openai-researched.mjs), when the scenario and the request's tools make one.
 * @param {ChatPlan} plan
 */
const serverToolTurn = (plan) =>
  responsesSearchTurn(plan) ??
  responsesCodeTurn(plan) ??
  responsesImageTurn(plan) ??
  responsesResearchedTurn(plan);

/**
 * A completed message item with one output_text part.
 * @param {string} text @param {unknown[]} annotations
 */
const completedMessage = (text, annotations) => ({
  id: mockId('msg_'),
  type: 'message',
  status: 'completed',
  content: [{ type: 'output_text', annotations, logprobs: [], text }],
  role: 'assistant',
});

/** A message among the steps before the last one. @param {ReturnType<typeof completedMessage>} message */
const messageStep = (message) => ({ reasoning: undefined, item: message, message });

/**
 * A web search turn (openai-search.mjs): reasoning and web_search_call items, then the message
 * with its url_citation annotations. The steps before it may hold other messages
 * (openai-researched.mjs: text before a picture).
 * @param {Variant} variant @param {ChatPlan} plan
 * @param {ServerToolTurn} turn
 */
function searchParts(variant, plan, turn) {
  const summary = summaryAsked(plan.body);
  const before = turn.steps.map((step) =>
    step.kind === 'reasoning'
      ? { reasoning: step.text, item: searchReasoningItem(step.text, summary) }
      : step.kind === 'message'
        ? messageStep(completedMessage(step.text, step.annotations))
        : {
            reasoning: undefined,
            item: step.item,
            ownFrames: 'callFrames' in step ? step.callFrames : undefined,
          },
  );
  const messageItem = completedMessage(turn.text, turn.annotations);
  const tokens = tokenize(turn.text);
  const reasoningTokens = before.reduce((sum, step) => sum + tokenize(step.reasoning ?? '').length, 0);
  const earlierTokens = turn.steps.reduce(
    (sum, step) => sum + (step.kind === 'message' ? tokenize(step.text).length : 0),
    0,
  );
  const base = baseOf(variant, plan);
  const final = {
    ...base,
    status: 'completed',
    output: [...before.map((step) => step.item), messageItem],
    usage: usageOf(plan, earlierTokens + tokens.length + reasoningTokens, reasoningTokens),
  };
  return { before, messageItem, tokens, base, final };
}

const serverErrorMessage = 'The server had an error while processing your request. Sorry about that!';

/**
 * Writes one event: `event:` and `data:` lines, `type` equal to the event name, a rising
 * sequence_number.
 */
function eventWriter() {
  let sequence = 0;
  /** @param {string} type @param {Record<string, unknown>} fields */
  return (type, fields) =>
    `event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: sequence++, ...fields })}\n\n`;
}

/** @typedef {ReturnType<typeof eventWriter>} EventWriter */

/**
 * A reasoning item's events: added with an empty summary, the summary in deltas when asked, done.
 * @param {EventWriter} event @param {{ id: string }} item @param {string[]} pieces the reasoning
 * @param {number} outputIndex @param {boolean} summary
 */
function reasoningFrames(event, item, pieces, outputIndex, summary) {
  const frames = [
    event('response.output_item.added', { output_index: outputIndex, item: { ...item, summary: [] } }),
  ];
  if (summary) {
    const text = pieces.join('');
    const at = { item_id: item.id, output_index: outputIndex, summary_index: 0 };
    const part = { type: 'summary_text', text };
    frames.push(
      event('response.reasoning_summary_part.added', { ...at, part: { ...part, text: '' } }),
      ...pieces.map((delta) =>
        event('response.reasoning_summary_text.delta', { ...at, delta, obfuscation: 'm0ck' }),
      ),
      event('response.reasoning_summary_text.done', { ...at, text }),
      event('response.reasoning_summary_part.done', { ...at, part }),
    );
  }
  return [...frames, event('response.output_item.done', { output_index: outputIndex, item })];
}

/**
 * A web search turn's events (openai-search.mjs): each reasoning item, each web_search_call
 * (added in_progress without its action, in_progress, searching, completed, done with it), then
 * the message, each annotation added after the delta that completes its span.
 * @param {Variant} variant @param {ChatPlan} plan
 * @param {ServerToolTurn} turn
 */
function searchFrames(variant, plan, turn) {
  const { before, messageItem, base, final } = searchParts(variant, plan, turn);
  const event = eventWriter();
  const summary = summaryAsked(plan.body);
  const frames = [
    event('response.created', { response: base }),
    event('response.in_progress', { response: base }),
  ];
  for (const [outputIndex, step] of before.entries()) {
    const { reasoning, item } = step;
    const ownFrames = 'ownFrames' in step ? step.ownFrames : undefined;
    if ('message' in step) {
      frames.push(...messageFrames(event, step.message, outputIndex));
      continue;
    }
    if (reasoning !== undefined) {
      frames.push(
        ...reasoningFrames(
          event,
          /** @type {{ id: string }} */ (item),
          tokenize(reasoning),
          outputIndex,
          summary,
        ),
      );
      continue;
    }
    if (ownFrames) {
      frames.push(...ownFrames(event, outputIndex));
      continue;
    }
    const at = { output_index: outputIndex, item_id: item.id };
    frames.push(
      event('response.output_item.added', {
        output_index: outputIndex,
        item: { id: item.id, type: 'web_search_call', status: 'in_progress' },
      }),
      event('response.web_search_call.in_progress', at),
      event('response.web_search_call.searching', at),
      event('response.web_search_call.completed', at),
      event('response.output_item.done', { output_index: outputIndex, item }),
    );
  }
  return [
    ...frames,
    ...messageFrames(event, messageItem, before.length),
    event('response.completed', { response: final }),
  ];
}

/**
 * A completed message item's events: added, its part added, the text deltas, each annotation
 * added after the delta that completes its span, the text and part done, the item done.
 * @param {EventWriter} event @param {ReturnType<typeof completedMessage>} messageItem
 * @param {number} outputIndex
 */
function messageFrames(event, messageItem, outputIndex) {
  const at = { item_id: messageItem.id, output_index: outputIndex, content_index: 0 };
  const part = /** @type {{ text: string, annotations: { end_index: number }[] }} */ (messageItem.content[0]);
  const frames = [
    event('response.output_item.added', {
      output_index: outputIndex,
      item: { ...messageItem, status: 'in_progress', content: [] },
    }),
    event('response.content_part.added', { ...at, part: { ...part, annotations: [], text: '' } }),
  ];
  let length = 0;
  let annotationIndex = 0;
  for (const delta of tokenize(part.text)) {
    frames.push(event('response.output_text.delta', { ...at, delta, logprobs: [], obfuscation: 'm0ck' }));
    length += delta.length;
    for (
      let next = part.annotations[annotationIndex];
      next && next.end_index <= length;
      next = part.annotations[annotationIndex]
    ) {
      frames.push(
        event('response.output_text.annotation.added', {
          ...at,
          annotation_index: annotationIndex,
          annotation: next,
        }),
      );
      annotationIndex += 1;
    }
  }
  return [
    ...frames,
    event('response.output_text.done', { ...at, text: part.text, logprobs: [] }),
    event('response.content_part.done', { ...at, part }),
    event('response.output_item.done', { output_index: outputIndex, item: messageItem }),
  ];
}

/**
 * The B1 event sequence: `event:` and `data:` lines, `type` equal to the event name, a rising
 * sequence_number, `obfuscation` padding on deltas, and no [DONE].
 * @param {Variant} variant @param {ChatPlan} plan @returns {string[]}
 */
function streamFrames(variant, plan) {
  const search = serverToolTurn(plan);
  if (search) return searchFrames(variant, plan, search);
  const { script, text, reasoningItem, messageItem, hasMessage, callItems, base, final } = responseParts(
    variant,
    plan,
  );
  const event = eventWriter();
  const obfuscation = 'm0ck';
  const frames = [
    event('response.created', { response: base }),
    event('response.in_progress', { response: base }),
    ...reasoningFrames(event, reasoningItem, plan.reasoning, 0, summaryAsked(plan.body)),
  ];
  if (!hasMessage)
    return [...frames, ...callFrames(event, callItems, 1), event('response.completed', { response: final })];
  const at = { item_id: messageItem.id, output_index: 1, content_index: 0 };
  const part = { type: 'output_text', annotations: [], logprobs: [], text };
  frames.push(
    event('response.output_item.added', {
      output_index: 1,
      item: { ...messageItem, status: 'in_progress', content: [] },
    }),
    event('response.content_part.added', { ...at, part: { ...part, text: '' } }),
    ...script.tokens.map((delta) =>
      event('response.output_text.delta', { ...at, delta, logprobs: [], obfuscation }),
    ),
  );
  if (script.status === 'failed') {
    // The nested error shape of the recorded stream (B1), then the failed response.
    const error = { type: 'server_error', code: 'server_error', message: serverErrorMessage, param: null };
    const failed = {
      ...base,
      status: 'failed',
      error: { code: 'server_error', message: serverErrorMessage },
    };
    return [...frames, event('error', { error }), event('response.failed', { response: failed })];
  }
  return [
    ...frames,
    event('response.output_text.done', { ...at, text, logprobs: [] }),
    event('response.content_part.done', { ...at, part }),
    event('response.output_item.done', { output_index: 1, item: messageItem }),
    ...callFrames(event, callItems, 2),
    event(`response.${script.status}`, { response: final }),
  ];
}

/**
 * The events of function call items (T2): added with empty arguments, the arguments in deltas,
 * their done event, then the item done.
 * @param {(type: string, fields: Record<string, unknown>) => string} event
 * @param {{ id: string, arguments: string }[]} items @param {number} firstIndex the first item's output_index
 */
function callFrames(event, items, firstIndex) {
  return items.flatMap((item, offset) => {
    const outputIndex = firstIndex + offset;
    const at = { item_id: item.id, output_index: outputIndex };
    return [
      event('response.output_item.added', {
        output_index: outputIndex,
        item: { ...item, status: 'in_progress', arguments: '' },
      }),
      ...argumentPieces(item.arguments).map((delta) =>
        event('response.function_call_arguments.delta', { ...at, delta, obfuscation: 'm0ck' }),
      ),
      event('response.function_call_arguments.done', { ...at, arguments: item.arguments }),
      event('response.output_item.done', { output_index: outputIndex, item }),
    ];
  });
}

/**
 * @param {Variant} variant
 * @param {MockProvider} legacy the Chat Completions provider of the same service, for keys, CORS and errors
 * @returns {MockProvider}
 */
function responsesMock(variant, legacy) {
  return {
    ...legacy,
    // Azure's v1 API needs no monthly api-version (docs/providers.md#azure-openai).
    gate: () => undefined,
    validate: (body, _request, scenario) =>
      validate(body, scenario, isReasoningModel(body.model) || scenario === 'reasoning-model'),
    conversation: conversationOf,
    toolState: responsesToolState,
    isStream: (body) => body.stream === true,
    streamFrames: (plan) => streamFrames(variant, plan),
    reply: (plan) => {
      const search = serverToolTurn(plan);
      const parts = search ? searchParts(variant, plan, search) : responseParts(variant, plan);
      return { status: 200, body: parts.final };
    },
    midStreamErrorStatus: 500,
  };
}

export const openaiResponsesMock = responsesMock('openai', openaiMock);
export const azureResponsesMock = responsesMock('azure', azureMock);
