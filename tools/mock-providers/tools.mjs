// @ts-check
/**
 * The tool-calling scenarios, shared by every API (docs/providers.md#tool-calling). Each API's module
 * reads its own request into a ToolState (the tools offered, the tool choice, the user's prompt and
 * the tool results that follow it); this module decides the model's turn from it, and each API
 * writes that turn in its own wire format.
 *
 * - The last turn is the user's text and tools are offered (tool choice not `none`): the model calls
 *   a tool. Which one, with which arguments, how many at once and after what text can be set by a
 *   recipe, the user's text as JSON: {"call": CALL | [CALL, …], "text": TEXT, "rounds": N}, where
 *   CALL is a tool name (called with no arguments) or {"name": NAME, "arguments": {…} | "<raw JSON
 *   text>"}. Without a recipe (or without `call`) the model calls the first tool offered, with its
 *   first string parameter set to the user's text. A forced tool choice names the tool; parallel calls off keep the first call.
 * - The last turn carries tool results: the model answers `Tool results: NAME: CONTENT; …`, so a
 *   test sees that the results reached it; or, while fewer than `rounds` rounds of results follow
 *   the prompt, it calls the tools again.
 * - Anything else (no tools offered, tool choice `none`): the plain Echo.
 */

import { randomBytes } from 'node:crypto';
import { isRecord } from './wire.mjs';

/**
 * @typedef {object} ToolSpec
 * @property {string} name
 * @property {unknown} parameters The JSON schema of its arguments, as sent (undefined when none).
 *
 * @typedef {'auto' | 'none' | 'required' | { name: string }} ToolChoice
 *
 * @typedef {object} ToolResult
 * @property {string} name The tool's name, found through its call.
 * @property {string} content What the result said, as text.
 *
 * @typedef {object} ToolState
 * @property {ToolSpec[]} tools The function tools offered.
 * @property {ToolChoice} choice
 * @property {boolean} parallel Whether the model may call several tools at once.
 * @property {string} prompt The last user text (tool results are not prompts).
 * @property {ToolResult[]} results The tool results in the last turn; none when it is the user's text.
 * @property {number} rounds How many turns of tool results follow the prompt.
 *
 * @typedef {object} ToolCall
 * @property {string} name
 * @property {string} arguments The arguments as JSON text, as the model writes them.
 * @property {Record<string, unknown>} args The same, parsed ({} when the text is not a JSON object).
 *
 * @typedef {object} ToolTurn
 * @property {string} text What the model says (before its calls, when it calls).
 * @property {ToolCall[]} calls
 */

/** The scenarios that call tools; `tools-failed*` fail the call on Groq (T2), and act as `tools` elsewhere. */
export const toolScenarios = ['tools', 'tools-thinking', 'tools-failed', 'tools-failed-late'];

/** @param {string} scenario */
export const callsTools = (scenario) => toolScenarios.includes(scenario);

/** @param {unknown} value @returns {value is string} */
const isString = (value) => typeof value === 'string';

/**
 * The arguments the model makes up for a tool: its first string parameter (a required one first)
 * set to the user's text, or none.
 * @param {ToolSpec | undefined} tool @param {string} prompt @returns {Record<string, unknown>}
 */
function derivedArgs(tool, prompt) {
  const schema = isRecord(tool?.parameters) ? tool.parameters : {};
  const properties = isRecord(schema.properties) ? schema.properties : {};
  const required = Array.isArray(schema.required) ? schema.required.filter(isString) : [];
  const names = [...required, ...Object.keys(properties)];
  const name = names.find((key) => {
    const property = properties[key];
    return isRecord(property) && (property.type === undefined || property.type === 'string');
  });
  return name ? { [name]: prompt } : {};
}

/** @param {string} text @returns {Record<string, unknown>} */
function parsedObject(text) {
  try {
    const value = JSON.parse(text);
    return isRecord(value) ? value : {};
  } catch {
    return {};
  }
}

/**
 * One call as the model writes it.
 * @param {string} name @param {unknown} given the recipe's arguments, if any
 * @param {ToolState} state @returns {ToolCall}
 */
function callOf(name, given, state) {
  if (isString(given)) return { name, arguments: given, args: parsedObject(given) };
  const args = isRecord(given)
    ? given
    : derivedArgs(
        state.tools.find((tool) => tool.name === name),
        state.prompt,
      );
  return { name, arguments: JSON.stringify(args), args };
}

/** The user's text read as a recipe; {} when it is not one. @param {string} prompt */
function recipeOf(prompt) {
  try {
    const value = JSON.parse(prompt);
    return isRecord(value) ? value : {};
  } catch {
    return {};
  }
}

/** @param {ToolState} state @param {Record<string, unknown>} recipe @returns {ToolCall[]} */
function plannedCalls(state, recipe) {
  const wanted = Array.isArray(recipe.call) ? recipe.call : recipe.call === undefined ? [] : [recipe.call];
  const calls = wanted.flatMap((entry) => {
    // A recipe names its arguments: a call without them has none.
    if (isString(entry)) return [callOf(entry, {}, state)];
    if (isRecord(entry) && isString(entry.name)) return [callOf(entry.name, entry.arguments ?? {}, state)];
    return [];
  });
  const forced = typeof state.choice === 'object' ? state.choice.name : undefined;
  if (forced) {
    // A forced tool choice makes the model call that one tool.
    const call = calls.find((entry) => entry.name === forced) ?? callOf(forced, undefined, state);
    return [call];
  }
  const first = state.tools[0];
  if (calls.length === 0 && first) return [callOf(first.name, undefined, state)];
  return state.parallel ? calls : calls.slice(0, 1);
}

/** The answer to tool results. @param {ToolResult[]} results */
export const resultsAnswer = (results) =>
  `Tool results: ${results.map((result) => `${result.name}: ${result.content}`).join('; ')}`;

/**
 * The model's turn under a tool scenario; undefined when it just answers as `ok` does.
 * @param {string} scenario @param {ToolState | undefined} state @returns {ToolTurn | undefined}
 */
export function toolTurnOf(scenario, state) {
  if (!callsTools(scenario) || !state) return undefined;
  const recipe = recipeOf(state.prompt);
  const rounds = Number.isSafeInteger(recipe.rounds) ? Number(recipe.rounds) : 1;
  const offered = state.tools.length > 0 && state.choice !== 'none';
  if (state.results.length > 0 && (state.rounds >= rounds || !offered))
    return { text: resultsAnswer(state.results), calls: [] };
  if (!offered) return undefined;
  return { text: isString(recipe.text) ? recipe.text : '', calls: plannedCalls(state, recipe) };
}

const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** A random id of `length` letters and digits after `prefix`, as providers' call ids look. */
export function randomId(/** @type {string} */ prefix, length = 24) {
  const bytes = randomBytes(length);
  return prefix + Array.from(bytes, (byte) => alphabet[byte % alphabet.length]).join('');
}

/** A random id of hex digits after `prefix`, as OpenAI's item ids (fc_…) look. */
export const hexId = (/** @type {string} */ prefix, bytes = 24) =>
  prefix + randomBytes(bytes).toString('hex');

/**
 * The fragments streamed arguments arrive in: runs of JSON punctuation and runs of other text (at
 * most 6 characters), as `{"`, `city`, `":"`, `Paris`, `"}`. Joined, they are the text again.
 * @param {string} text @returns {string[]}
 */
export function argumentPieces(text) {
  return text.match(/[{}[\]":,]+|[^{}[\]":,]{1,6}/gu) ?? [];
}

/** Text of a tool result's content: a string, or the text of its text parts; others as [type]. @param {unknown} content */
export function resultText(content) {
  if (isString(content)) return content;
  if (!Array.isArray(content))
    return content === undefined || content === null ? '' : JSON.stringify(content);
  return content
    .map((part) => {
      if (!isRecord(part)) return '';
      if (isString(part.text)) return part.text;
      return `[${String(part.type)}]`;
    })
    .join('');
}
