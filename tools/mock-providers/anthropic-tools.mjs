// @ts-check
/**
 * Tool calling on Anthropic's Messages API: tool definitions and tool_choice (T1), the tool_use /
 * tool_result pairing and the thinking block a tool loop needs when thinking is on (T2, §C), and
 * what the tool scenarios read from a request (docs/providers.md#tool-calling).
 *
 * Wording [R]: `tools.0: Input tag 'function' found using 'type' does not match any of the expected
 * tags: 'bash_20250124', 'custom', 'text_editor_20250124', 'text_editor_20250429',
 * 'text_editor_20250728', 'web_search_20250305'` (an OpenAI-shaped tool; the tag list as reported in
 * 2026-01, it grows with each server tool); `tools.0.custom.name: String should match pattern
 * '^[a-zA-Z0-9_-]{1,128}$'`; `tools.0.custom.input_schema: Field required` (a tool sent with
 * `parameters`); `tools.0.custom.input_schema.type: Field required` and `… Input should be
 * 'object'`; `tool_choice: Input should be a valid dictionary or object to extract fields from` (a
 * string choice); `Thinking may not be enabled when tool_choice forces tool use.` (reported for
 * `enabled`; reports on `adaptive` disagree, so the mock lets adaptive pass); `messages.1: `tool_use`
 * ids were found without `tool_result` blocks immediately after: toolu_…. Each `tool_use` block must
 * have a corresponding `tool_result` block in the next message.`; `messages.2.content.0: unexpected
 * `tool_use_id` found in `tool_result` blocks: toolu_…. Each `tool_result` block must have a
 * corresponding `tool_use` block in the previous message.`; and, with thinking on, `messages.1.
 * content.0.type: Expected `thinking` or `redacted_thinking`, but found `tool_use`. When `thinking`
 * is enabled, a final `assistant` message must start with a thinking block …` (§C, code corpus).
 * [A]: the other pydantic-style paths (extra fields, a tool_use block's missing fields, the
 * tool_choice tag list) and which assistant message the thinking rule checks: the first of the
 * current turn, i.e. after the user's last own text.
 */

import { codeToolError, isCodeExecutionTool } from './anthropic-code.mjs';
import { isWebSearchTool, webSearchToolError } from './anthropic-search.mjs';
import { resultText } from './tools.mjs';
import { isRecord, mockId } from './wire.mjs';

/**
 * @typedef {import('./wire.mjs').Reply} Reply
 * @typedef {import('./tools.mjs').ToolState} ToolState
 * @typedef {import('./tools.mjs').ToolChoice} ToolChoice
 */

/** @param {string} message @returns {Reply} */
const invalid = (message) => ({
  status: 400,
  body: { type: 'error', error: { type: 'invalid_request_error', message }, request_id: mockId('req_') },
  headers: { 'request-id': mockId('req_') },
});

const customToolKeys = [
  'type',
  'name',
  'description',
  'input_schema',
  'strict',
  'cache_control',
  'eager_input_streaming',
  'input_examples',
  'defer_loading',
  'allowed_callers',
];

const reportedTags = [
  'bash_20250124',
  'custom',
  'text_editor_20250124',
  'text_editor_20250429',
  'text_editor_20250728',
  'web_search_20250305',
];

/** A server tool's versioned type, e.g. web_search_20250305: taken as it comes. @param {unknown} type */
const isServerTool = (type) => typeof type === 'string' && /_\d{8}$/.test(type);

/** @param {Record<string, unknown>} tool @param {number} index @returns {Reply | undefined} */
function customToolError(tool, index) {
  const at = `tools.${index}.custom`;
  if (tool.name === undefined) return invalid(`${at}.name: Field required`);
  if (typeof tool.name !== 'string' || !/^[a-zA-Z0-9_-]{1,128}$/.test(tool.name))
    return invalid(`${at}.name: String should match pattern '^[a-zA-Z0-9_-]{1,128}$'`);
  if (tool.input_schema === undefined) return invalid(`${at}.input_schema: Field required`);
  if (!isRecord(tool.input_schema)) return invalid(`${at}.input_schema: Input should be a valid dictionary`);
  if (tool.input_schema.type === undefined) return invalid(`${at}.input_schema.type: Field required`);
  if (tool.input_schema.type !== 'object')
    return invalid(`${at}.input_schema.type: Input should be 'object'`);
  const extra = Object.keys(tool).find((key) => !customToolKeys.includes(key));
  if (extra) return invalid(`${at}.${extra}: Extra inputs are not permitted`);
  return undefined;
}

/** Whether a request turns thinking on with a budget (type enabled). @param {Record<string, unknown>} body */
const budgetThinking = (body) => isRecord(body.thinking) && body.thinking.type === 'enabled';

/**
 * `tools` and `tool_choice` (T1).
 * @param {Record<string, unknown>} body @returns {Reply | undefined}
 */
export function anthropicToolsError(body) {
  const tools = body.tools;
  if (tools !== undefined) {
    if (!Array.isArray(tools)) return invalid('tools: Input should be a valid list');
    for (const [index, tool] of tools.entries()) {
      if (!isRecord(tool)) return invalid(`tools.${index}: Input should be a valid dictionary`);
      if (isWebSearchTool(tool)) {
        const error = webSearchToolError(tool, index);
        if (error) return error;
        continue;
      }
      if (isCodeExecutionTool(tool)) {
        const error = codeToolError(tool, index);
        if (error) return error;
        continue;
      }
      if (isServerTool(tool.type)) continue;
      if (tool.type !== undefined && tool.type !== 'custom') {
        const tags = reportedTags.map((tag) => `'${tag}'`).join(', ');
        return invalid(
          `tools.${index}: Input tag '${String(tool.type)}' found using 'type' does not match any of the expected tags: ${tags}`,
        );
      }
      const error = customToolError(tool, index);
      if (error) return error;
    }
  }
  const choice = body.tool_choice;
  if (choice === undefined) return undefined;
  if (!isRecord(choice))
    return invalid('tool_choice: Input should be a valid dictionary or object to extract fields from');
  if (!['auto', 'any', 'tool', 'none'].includes(String(choice.type))) {
    return invalid(
      `tool_choice: Input tag '${String(choice.type)}' found using 'type' does not match any of the expected tags: 'auto', 'any', 'tool', 'none'`,
    );
  }
  if (choice.type === 'tool' && typeof choice.name !== 'string')
    return invalid('tool_choice.tool.name: Field required');
  if ((choice.type === 'any' || choice.type === 'tool') && budgetThinking(body))
    return invalid('Thinking may not be enabled when tool_choice forces tool use.');
  return undefined;
}

/** The blocks of a message's content (a string has none). @param {unknown} message @returns {Record<string, unknown>[]} */
const blocksOf = (message) =>
  isRecord(message) && Array.isArray(message.content) ? message.content.filter(isRecord) : [];

/** @param {unknown} message */
const isResultsTurn = (message) =>
  isRecord(message) &&
  message.role === 'user' &&
  blocksOf(message).some((block) => block.type === 'tool_result');

/**
 * The tool_use / tool_result pairing (T2) and, with thinking on, the thinking block that must open
 * the assistant turn a tool loop continues (§C).
 * @param {Record<string, unknown>} body @param {boolean} thinking whether the request turns thinking on
 * @returns {Reply | undefined}
 */
export function anthropicHistoryError(body, thinking) {
  const messages = Array.isArray(body.messages) ? body.messages : [];
  for (const [index, message] of messages.entries()) {
    if (!isRecord(message)) continue;
    const blocks = blocksOf(message);
    if (message.role === 'assistant') {
      for (const [blockIndex, block] of blocks.entries()) {
        if (block.type !== 'tool_use') continue;
        const where = `messages.${index}.content.${blockIndex}.tool_use`;
        for (const field of ['id', 'name', 'input']) {
          if (block[field] === undefined) return invalid(`${where}.${field}: Field required`);
        }
        if (!isRecord(block.input)) return invalid(`${where}.input: Input should be a valid dictionary`);
      }
      const ids = blocks.flatMap((block) => (block.type === 'tool_use' ? [String(block.id)] : []));
      if (ids.length === 0) continue;
      const answered = blocksOf(messages[index + 1]).flatMap((block) =>
        block.type === 'tool_result' ? [String(block.tool_use_id)] : [],
      );
      const lacking = ids.filter((id) => !answered.includes(id));
      if (lacking.length > 0) {
        return invalid(
          `messages.${index}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${lacking.join(', ')}. Each \`tool_use\` block must have a corresponding \`tool_result\` block in the next message.`,
        );
      }
    }
    if (message.role === 'user') {
      const previous = messages[index - 1];
      const asked =
        isRecord(previous) && previous.role === 'assistant'
          ? blocksOf(previous).flatMap((block) => (block.type === 'tool_use' ? [String(block.id)] : []))
          : [];
      for (const [blockIndex, block] of blocks.entries()) {
        if (block.type !== 'tool_result' || asked.includes(String(block.tool_use_id))) continue;
        return invalid(
          `messages.${index}.content.${blockIndex}: unexpected \`tool_use_id\` found in \`tool_result\` blocks: ${String(block.tool_use_id)}. Each \`tool_result\` block must have a corresponding \`tool_use\` block in the previous message.`,
        );
      }
    }
  }
  return thinking ? loopThinkingError(messages) : undefined;
}

/**
 * With thinking on, a request that continues a tool loop (its last message carries tool results)
 * must send the assistant turn's thinking back: the turn's first assistant message starts with a
 * thinking or redacted_thinking block.
 * @param {unknown[]} messages @returns {Reply | undefined}
 */
function loopThinkingError(messages) {
  if (!isResultsTurn(messages.at(-1))) return undefined;
  const prompt = messages.findLastIndex(
    (message) => isRecord(message) && message.role === 'user' && !isResultsTurn(message),
  );
  const start = messages.findIndex(
    (message, index) => index > prompt && isRecord(message) && message.role === 'assistant',
  );
  if (start === -1) return undefined;
  const first = blocksOf(messages[start])[0];
  const type = isRecord(first) ? String(first.type) : 'text';
  if (type === 'thinking' || type === 'redacted_thinking') return undefined;
  return invalid(
    `messages.${start}.content.0.type: Expected \`thinking\` or \`redacted_thinking\`, but found \`${type}\`. When \`thinking\` is enabled, a final \`assistant\` message must start with a thinking block (preceeding the lastmost set of \`tool_use\` and \`tool_result\` blocks). We recommend you include thinking blocks from previous turns. To avoid this requirement, disable \`thinking\`. Please consult our documentation at https://docs.claude.com/en/docs/build-with-claude/extended-thinking`,
  );
}

/** Text of a message's own text: a string, or its text blocks. @param {unknown} content */
function ownText(content) {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((block) =>
      isRecord(block) && block.type === 'text' && typeof block.text === 'string' ? block.text : '',
    )
    .join('');
}

/** @param {unknown} choice @returns {ToolChoice} */
function choiceOf(choice) {
  if (!isRecord(choice)) return 'auto';
  if (choice.type === 'none') return 'none';
  if (choice.type === 'any') return 'required';
  if (choice.type === 'tool') return { name: String(choice.name) };
  return 'auto';
}

/**
 * What the tool scenarios read from a Messages body: the prompt is the last user message that
 * carries no tool results.
 * @param {Record<string, unknown>} body @returns {ToolState}
 */
export function anthropicToolState(body) {
  const messages = Array.isArray(body.messages) ? body.messages.filter(isRecord) : [];
  const tools = (Array.isArray(body.tools) ? body.tools : []).flatMap((tool) =>
    isRecord(tool) && !isServerTool(tool.type)
      ? [{ name: String(tool.name), parameters: tool.input_schema }]
      : [],
  );
  const prompt = messages.findLastIndex((message) => message.role === 'user' && !isResultsTurn(message));
  const after = messages.slice(prompt + 1);
  /** @type {Map<string, string>} */
  const names = new Map();
  for (const message of after) {
    for (const block of blocksOf(message)) {
      if (block.type === 'tool_use') names.set(String(block.id), String(block.name));
    }
  }
  const last = messages.at(-1);
  const results = isResultsTurn(last)
    ? blocksOf(last)
        .filter((block) => block.type === 'tool_result')
        .map((block) => ({
          name: names.get(String(block.tool_use_id)) ?? String(block.tool_use_id),
          content: resultText(block.content),
        }))
    : [];
  const choice = body.tool_choice;
  return {
    tools,
    choice: choiceOf(choice),
    parallel: !(isRecord(choice) && choice.disable_parallel_tool_use === true),
    prompt: ownText(messages[prompt]?.content),
    results,
    rounds: after.filter(isResultsTurn).length,
  };
}
