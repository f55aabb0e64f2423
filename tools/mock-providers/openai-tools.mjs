// @ts-check
/**
 * Tool calling on OpenAI's Chat Completions (and Azure's), Groq's and the Responses API: the tool
 * definitions and tool choice each accepts, the tool-call history each checks, and what the tool
 * scenarios read from a request (docs/providers.md#tool-calling).
 *
 * Wording: [R] `Missing required parameter: 'tools[0].function'.` (a flat tool sent to Chat
 * Completions) and `Missing required parameter: 'tools[0].name'.` (a nested one sent to Responses),
 * both code missing_required_parameter; `Invalid 'tools[0].function.name': string does not match
 * pattern. Expected a string that matches the pattern '^[a-zA-Z0-9_-]+$'.` code invalid_value;
 * `… string too long. Expected a string with maximum length 64, but got a string with length 70
 * instead.` code string_above_max_length (T1 says 64; one 2026 report measured 128 on Chat
 * Completions, so the mock keeps the stricter 64); `Invalid 'tools': empty array. …` code
 * empty_array; `Invalid value for 'tool_choice': 'tool_choice' is only allowed when 'tools' are
 * specified.`; `An assistant message with 'tool_calls' must be followed by tool messages responding
 * to each 'tool_call_id'. The following tool_call_ids did not have response messages: call_1`
 * (T2; param `messages.[N].role`); `Invalid parameter: messages with role 'tool' must be a response
 * to a preceeding message with 'tool_calls'.` (their spelling) and `Invalid parameter:
 * 'tool_call_id' of 'call_1' not found in 'tool_calls' of previous message.`; a tool_call_id over 40
 * characters: `… Expected a string with maximum length 40 …` (code corpus, several clients).
 * Responses: `No tool call found for function call output with call_id call_1.` and `No tool output
 * found for function call call_1.`, param input (T2, code corpus). [A]: the same missing, type and
 * pattern wordings applied to other fields, `parallel_tool_calls` named as `tool_choice` is, the
 * params of the pairing errors other than the first, and the 404 for an item_reference with
 * `store:false` (the reasoning-item wording of §C). Groq's tool-definition wordings follow its
 * other validation messages ('tools.0.function.description' : Value is not nullable, code corpus)
 * and are [A]; its tool_use_failed bodies are [R] (T2; `tool call validation failed: parameters for
 * tool X did not match schema: errors: [missing properties: 'a']`, code corpus 2026).
 */

import { groqInvalid, openaiInvalid } from './openai-validation.mjs';
import { resultText } from './tools.mjs';
import { isRecord } from './wire.mjs';

/**
 * @typedef {import('./wire.mjs').Reply} Reply
 * @typedef {import('./tools.mjs').ToolState} ToolState
 * @typedef {import('./tools.mjs').ToolChoice} ToolChoice
 * @typedef {import('./tools.mjs').ToolResult} ToolResult
 */

const namePattern = /^[a-zA-Z0-9_-]+$/;
const maxNameLength = 64;

/** @param {unknown} value */
const typeName = (value) => (value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value);

/** @param {string} param */
const missing = (param) =>
  openaiInvalid(`Missing required parameter: '${param}'.`, { param, code: 'missing_required_parameter' });

/** @param {string} param @param {string} expected @param {unknown} value */
const wrongType = (param, expected, value) =>
  openaiInvalid(`Invalid type for '${param}': expected ${expected}, but got ${typeName(value)} instead.`, {
    param,
    code: 'invalid_type',
  });

/** A function name's pattern and length. @param {unknown} name @param {string} param @returns {Reply | undefined} */
function nameError(name, param) {
  if (typeof name !== 'string') return wrongType(param, 'a string', name);
  if (!namePattern.test(name)) {
    const message = `Invalid '${param}': string does not match pattern. Expected a string that matches the pattern '^[a-zA-Z0-9_-]+$'.`;
    return openaiInvalid(message, { param, code: 'invalid_value' });
  }
  if (name.length > maxNameLength) {
    const message = `Invalid '${param}': string too long. Expected a string with maximum length ${maxNameLength}, but got a string with length ${name.length} instead.`;
    return openaiInvalid(message, { param, code: 'string_above_max_length' });
  }
  return undefined;
}

/** 'a' and 'b'; 'a', 'b', and 'c'. @param {string[]} values */
function quotedList(values) {
  const quoted = values.map((value) => `'${value}'`);
  return quoted.length < 3 ? quoted.join(' and ') : `${quoted.slice(0, -1).join(', ')}, and ${quoted.at(-1)}`;
}

/** @param {unknown} value @param {string} param @param {string[]} allowed @returns {Reply | undefined} */
function oneOf(value, param, allowed) {
  if (allowed.includes(String(value))) return undefined;
  const message = `Invalid value: '${String(value)}'. Supported values are: ${quotedList(allowed)}.`;
  return openaiInvalid(message, { param, code: 'invalid_value' });
}

/** @param {string} field */
const onlyWithTools = (field) =>
  openaiInvalid(`Invalid value for '${field}': '${field}' is only allowed when 'tools' are specified.`, {
    param: field,
  });

/**
 * Chat Completions `tools`, `tool_choice` and `parallel_tool_calls` (T1), OpenAI's and Azure's.
 * @param {Record<string, unknown>} body @returns {Reply | undefined}
 */
export function chatToolsError(body) {
  const tools = body.tools;
  if (tools === undefined || tools === null) {
    if (body.tool_choice !== undefined && body.tool_choice !== null) return onlyWithTools('tool_choice');
    if (body.parallel_tool_calls !== undefined && body.parallel_tool_calls !== null)
      return onlyWithTools('parallel_tool_calls');
    return undefined;
  }
  if (!Array.isArray(tools)) return wrongType('tools', 'an array', tools);
  if (tools.length === 0) {
    const message =
      "Invalid 'tools': empty array. Expected an array with minimum length 1, but got an empty array instead.";
    return openaiInvalid(message, { param: 'tools', code: 'empty_array' });
  }
  for (const [index, tool] of tools.entries()) {
    const at = `tools[${index}]`;
    if (!isRecord(tool)) return wrongType(at, 'an object', tool);
    if (tool.type === undefined) return missing(`${at}.type`);
    const typeError = oneOf(tool.type, `${at}.type`, ['function', 'custom']);
    if (typeError) return typeError;
    const inner = tool.type === 'function' ? tool.function : tool.custom;
    const innerAt = `${at}.${String(tool.type)}`;
    if (inner === undefined) return missing(innerAt);
    if (!isRecord(inner)) return wrongType(innerAt, 'an object', inner);
    if (inner.name === undefined) return missing(`${innerAt}.name`);
    const error = nameError(inner.name, `${innerAt}.name`);
    if (error) return error;
    if (tool.type === 'function' && inner.parameters !== undefined && !isRecord(inner.parameters))
      return wrongType(`${innerAt}.parameters`, 'an object', inner.parameters);
  }
  return chatToolChoiceError(body.tool_choice, ['none', 'auto', 'required']);
}

/** @param {unknown} choice @param {string[]} modes @returns {Reply | undefined} */
function chatToolChoiceError(choice, modes) {
  if (choice === undefined || choice === null) return undefined;
  if (typeof choice === 'string') return oneOf(choice, 'tool_choice', modes);
  if (!isRecord(choice)) return wrongType('tool_choice', 'a string or object', choice);
  const typeError = oneOf(choice.type, 'tool_choice.type', ['function', 'allowed_tools', 'custom']);
  if (typeError) return typeError;
  if (choice.type === 'function') {
    if (!isRecord(choice.function)) return missing('tool_choice.function');
    if (typeof choice.function.name !== 'string') return missing('tool_choice.function.name');
  }
  return undefined;
}

/**
 * One assistant message's tool_calls: each with an id (at most 40 characters), type function and a
 * function whose arguments are a string.
 * @param {unknown[]} calls @param {number} index @returns {Reply | undefined}
 */
function toolCallsError(calls, index) {
  for (const [callIndex, call] of calls.entries()) {
    const at = `messages[${index}].tool_calls[${callIndex}]`;
    if (!isRecord(call)) return wrongType(at, 'an object', call);
    if (call.id === undefined) return missing(`${at}.id`);
    if (call.type === undefined) return missing(`${at}.type`);
    if (!isRecord(call.function)) return missing(`${at}.function`);
    const nameProblem = nameError(call.function.name, `${at}.function.name`);
    if (nameProblem) return nameProblem;
    if (call.function.arguments === undefined) return missing(`${at}.function.arguments`);
    if (typeof call.function.arguments !== 'string')
      return wrongType(`${at}.function.arguments`, 'a string', call.function.arguments);
  }
  return undefined;
}

/** @param {unknown} id @param {string} param @returns {Reply | undefined} */
function callIdError(id, param) {
  if (typeof id !== 'string') return wrongType(param, 'a string', id);
  if (id.length <= 40) return undefined;
  const message = `Invalid '${param}': string too long. Expected a string with maximum length 40, but got a string with length ${id.length} instead.`;
  return openaiInvalid(message, { param, code: 'string_above_max_length' });
}

/** The ids of an assistant message's tool calls. @param {Record<string, unknown>} message */
const callIdsOf = (message) =>
  (Array.isArray(message.tool_calls) ? message.tool_calls : []).flatMap((call) =>
    isRecord(call) && typeof call.id === 'string' ? [call.id] : [],
  );

/**
 * The tool-call history of Chat Completions (T2): an assistant message with tool_calls is followed
 * at once by a tool message for each id; a tool message answers a call of the assistant message
 * before its run of tool messages.
 * @param {Record<string, unknown>} body @returns {Reply | undefined}
 */
export function chatHistoryError(body) {
  const messages = Array.isArray(body.messages) ? body.messages : [];
  /** The assistant message the current run of tool messages answers, and the ids still unanswered. */
  let open = /** @type {{ index: number, ids: string[], pending: string[] } | undefined} */ (undefined);
  /** @param {number} at @returns {Reply | undefined} */
  const closeAt = (at) => {
    if (!open || open.pending.length === 0) return undefined;
    const message = `An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: ${open.pending.join(', ')}`;
    return openaiInvalid(message, { param: `messages.[${at}].role` });
  };
  for (const [index, message] of messages.entries()) {
    if (!isRecord(message)) continue;
    if (message.role === 'tool') {
      if (message.tool_call_id === undefined) return missing(`messages[${index}].tool_call_id`);
      const idError = callIdError(message.tool_call_id, `messages[${index}].tool_call_id`);
      if (idError) return idError;
      if (!open) {
        return openaiInvalid(
          "Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.",
          { param: `messages.[${index}].role` },
        );
      }
      const id = String(message.tool_call_id);
      if (!open.ids.includes(id)) {
        return openaiInvalid(
          `Invalid parameter: 'tool_call_id' of '${id}' not found in 'tool_calls' of previous message.`,
          { param: `messages.[${index}].tool_call_id` },
        );
      }
      open.pending = open.pending.filter((pending) => pending !== id);
      continue;
    }
    const unanswered = closeAt(index);
    if (unanswered) return unanswered;
    open = undefined;
    if (message.role !== 'assistant' || message.tool_calls === undefined || message.tool_calls === null)
      continue;
    if (!Array.isArray(message.tool_calls))
      return wrongType(`messages[${index}].tool_calls`, 'an array', message.tool_calls);
    const callsError = toolCallsError(message.tool_calls, index);
    if (callsError) return callsError;
    const ids = callIdsOf(message);
    if (ids.length > 0) open = { index, ids, pending: [...ids] };
  }
  return closeAt(messages.length);
}

/**
 * Groq's `tools` (T1: types function, browser_search, code_interpreter) and `tool_choice`.
 * @param {Record<string, unknown>} body @returns {Reply | undefined}
 */
export function groqToolsError(body) {
  const tools = body.tools;
  if (tools !== undefined && tools !== null) {
    if (!Array.isArray(tools)) return groqInvalid("'tools' : value must be an array");
    for (const [index, tool] of tools.entries()) {
      const at = `tools.${index}`;
      if (!isRecord(tool)) return groqInvalid(`'${at}' : value must be an object`);
      if (!['function', 'browser_search', 'code_interpreter'].includes(String(tool.type))) {
        return groqInvalid(
          `'${at}.type' : value is not one of the allowed values ['function', 'browser_search', 'code_interpreter']`,
        );
      }
      if (tool.type !== 'function') continue;
      if (!isRecord(tool.function)) return groqInvalid(`'${at}' : property 'function' is missing`);
      const extra = Object.keys(tool).find((key) => key !== 'type' && key !== 'function');
      if (extra) return groqInvalid(`'${at}' : property '${extra}' is unsupported`);
      if (typeof tool.function.name !== 'string')
        return groqInvalid(`'${at}.function' : property 'name' is missing`);
      if (tool.function.description === null)
        return groqInvalid(`'${at}.function.description' : Value is not nullable`);
    }
  }
  const choice = body.tool_choice;
  if (typeof choice === 'string' && !['none', 'auto', 'required'].includes(choice))
    return groqInvalid("'tool_choice' : value is not one of the allowed values ['none', 'auto', 'required']");
  return undefined;
}

/** Text of a Chat Completions message: a string, or its text parts. @param {unknown} content */
function chatText(content) {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((part) => (isRecord(part) && typeof part.text === 'string' ? part.text : '')).join('');
}

/** @param {unknown} choice @returns {ToolChoice} */
function chatChoiceOf(choice) {
  if (choice === 'none' || choice === 'required') return choice;
  if (isRecord(choice) && choice.type === 'function' && isRecord(choice.function))
    return { name: String(choice.function.name) };
  if (isRecord(choice) && isRecord(choice.allowed_tools) && choice.allowed_tools.mode === 'required')
    return 'required';
  return 'auto';
}

/**
 * What the tool scenarios read from a Chat Completions body.
 * @param {Record<string, unknown>} body @returns {ToolState}
 */
export function chatToolState(body) {
  const messages = Array.isArray(body.messages) ? body.messages.filter(isRecord) : [];
  const tools = (Array.isArray(body.tools) ? body.tools : []).flatMap((tool) =>
    isRecord(tool) && tool.type === 'function' && isRecord(tool.function)
      ? [{ name: String(tool.function.name), parameters: tool.function.parameters }]
      : [],
  );
  const lastUser = messages.findLastIndex((message) => message.role === 'user');
  const after = messages.slice(lastUser + 1);
  /** @type {Map<string, string>} */
  const names = new Map();
  for (const message of after) {
    for (const call of Array.isArray(message.tool_calls) ? message.tool_calls : []) {
      if (isRecord(call) && isRecord(call.function)) names.set(String(call.id), String(call.function.name));
    }
  }
  const trailing = [];
  for (const message of [...after].reverse()) {
    if (message.role !== 'tool') break;
    trailing.unshift(message);
  }
  const rounds = after.filter(
    (message, index) => message.role === 'tool' && after[index - 1]?.role !== 'tool',
  ).length;
  return {
    tools,
    choice: chatChoiceOf(body.tool_choice),
    parallel: body.parallel_tool_calls !== false,
    prompt: chatText(messages[lastUser]?.content),
    results: trailing.map((message) => ({
      name: names.get(String(message.tool_call_id)) ?? String(message.tool_call_id),
      content: resultText(message.content),
    })),
    rounds,
  };
}

/**
 * Responses `tools` (flat function tools; hosted tools are taken as they come) and `tool_choice` (T1).
 * @param {Record<string, unknown>} body @returns {Reply | undefined}
 */
export function responsesToolsError(body) {
  const tools = body.tools;
  if (tools !== undefined && tools !== null) {
    if (!Array.isArray(tools)) return wrongType('tools', 'an array of tools', tools);
    for (const [index, tool] of tools.entries()) {
      const at = `tools[${index}]`;
      if (!isRecord(tool)) return wrongType(at, 'an object', tool);
      if (tool.type === undefined) return missing(`${at}.type`);
      if (tool.type !== 'function') continue;
      // The Chat Completions shape, {type, function: {name, …}}, has no top-level name.
      if (tool.name === undefined) return missing(`${at}.name`);
      if ('function' in tool) {
        return openaiInvalid(`Unknown parameter: '${at}.function'.`, {
          param: `${at}.function`,
          code: 'unknown_parameter',
        });
      }
      const error = nameError(tool.name, `${at}.name`);
      if (error) return error;
      if (tool.parameters !== undefined && tool.parameters !== null && !isRecord(tool.parameters))
        return wrongType(`${at}.parameters`, 'an object', tool.parameters);
    }
  }
  const choice = body.tool_choice;
  if (choice === undefined || choice === null) return undefined;
  if (typeof choice === 'string') return oneOf(choice, 'tool_choice', ['none', 'auto', 'required']);
  if (!isRecord(choice)) return wrongType('tool_choice', 'a string or object', choice);
  if (choice.type === 'function' && typeof choice.name !== 'string') return missing('tool_choice.name');
  return undefined;
}

/**
 * Function calls and their outputs in a Responses input (T2). Calls and outputs pair by call_id;
 * with `previous_response_id` the earlier calls live on the server, which the mock does not keep,
 * so pairing is not checked then.
 * @param {Record<string, unknown>} body @returns {Reply | undefined}
 */
export function responsesHistoryError(body) {
  const input = Array.isArray(body.input) ? body.input : [];
  /** @type {Set<string>} */
  const calls = new Set();
  /** @type {Set<string>} */
  const answered = new Set();
  /** @type {string[]} */
  const order = [];
  const paired = body.previous_response_id === undefined || body.previous_response_id === null;
  for (const [index, item] of input.entries()) {
    if (!isRecord(item)) continue;
    const at = `input[${index}]`;
    if (item.type === 'item_reference' && body.store === false) {
      const message = `Item with id '${String(item.id)}' not found. Items are not persisted when \`store\` is set to false. Try again with \`store\` set to true, or remove this item from your input.`;
      return { ...openaiInvalid(message, { param: 'input' }), status: 404 };
    }
    if (item.type === 'function_call') {
      for (const field of ['call_id', 'name', 'arguments']) {
        if (item[field] === undefined) return missing(`${at}.${field}`);
      }
      if (typeof item.arguments !== 'string') return wrongType(`${at}.arguments`, 'a string', item.arguments);
      calls.add(String(item.call_id));
      order.push(String(item.call_id));
    }
    if (item.type === 'function_call_output') {
      if (item.call_id === undefined) return missing(`${at}.call_id`);
      if (item.output === undefined) return missing(`${at}.output`);
      if (typeof item.output !== 'string' && !Array.isArray(item.output))
        return wrongType(`${at}.output`, 'a string or array of content', item.output);
      const id = String(item.call_id);
      if (paired && !calls.has(id)) {
        return openaiInvalid(`No tool call found for function call output with call_id ${id}.`, {
          param: 'input',
        });
      }
      answered.add(id);
    }
  }
  const unanswered = paired ? order.find((id) => !answered.has(id)) : undefined;
  if (unanswered)
    return openaiInvalid(`No tool output found for function call ${unanswered}.`, { param: 'input' });
  return undefined;
}

/** Text of a Responses message: a string, or its text parts. @param {unknown} content */
const responsesText = (content) => chatText(content);

/** @param {unknown} choice @returns {ToolChoice} */
function responsesChoiceOf(choice) {
  if (choice === 'none' || choice === 'required') return choice;
  if (isRecord(choice) && choice.type === 'function') return { name: String(choice.name) };
  if (isRecord(choice) && choice.type === 'allowed_tools' && choice.mode === 'required') return 'required';
  return 'auto';
}

/**
 * What the tool scenarios read from a Responses body. A round is a run of function calls and
 * outputs; reasoning items or messages between them separate rounds.
 * @param {Record<string, unknown>} body @returns {ToolState}
 */
export function responsesToolState(body) {
  const input =
    typeof body.input === 'string'
      ? [{ role: 'user', content: body.input }]
      : (Array.isArray(body.input) ? body.input : []).filter(isRecord);
  const tools = (Array.isArray(body.tools) ? body.tools : []).flatMap((tool) =>
    isRecord(tool) && tool.type === 'function'
      ? [{ name: String(tool.name), parameters: tool.parameters }]
      : [],
  );
  const isMessage = (/** @type {Record<string, unknown>} */ item) => (item.type ?? 'message') === 'message';
  const lastUser = input.findLastIndex((item) => isMessage(item) && item.role === 'user');
  const after = input.slice(lastUser + 1);
  const isToolItem = (/** @type {Record<string, unknown>} */ item) =>
    item.type === 'function_call' || item.type === 'function_call_output';
  /** @type {Map<string, string>} */
  const names = new Map();
  for (const item of after) {
    if (item.type === 'function_call') names.set(String(item.call_id), String(item.name));
  }
  const lastRun = [];
  for (const item of [...after].reverse()) {
    if (!isToolItem(item)) break;
    lastRun.unshift(item);
  }
  const endsWithResults = after.at(-1)?.type === 'function_call_output';
  return {
    tools,
    choice: responsesChoiceOf(body.tool_choice),
    parallel: body.parallel_tool_calls !== false,
    prompt: responsesText(input[lastUser]?.content),
    results: endsWithResults
      ? lastRun
          .filter((item) => item.type === 'function_call_output')
          .map((item) => ({
            name: names.get(String(item.call_id)) ?? String(item.call_id),
            content: resultText(item.output),
          }))
      : [],
    rounds: after.filter((item, index) => isToolItem(item) && !isToolItem(after[index - 1] ?? {})).length,
  };
}
