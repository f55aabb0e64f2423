// @ts-check
/**
 * Tool calling on Gemini's generateContent: function declarations and toolConfig (T1), the order of
 * function call and function response turns, the thought signatures Gemini 3 checks on function
 * calls (T2, §C), and what the tool scenarios read from a request (docs/providers.md#tool-calling).
 *
 * Wording [R]: `* GenerateContentRequest.tools[0].function_declarations[0].name: Invalid function
 * name. Must start with a letter or an underscore. Must be alphameric (a-z, A-Z, 0-9), underscores
 * (_), dots (.), colons (:), or dashes (-), with a maximum length of 64.` one line per bad name (the
 * js-genai docstring says 128; the API's own message says 64, which the mock holds to); `Please
 * ensure that function call turns come immediately after a user turn or after a function response
 * turn.`; `Please ensure that the number of function response parts is equal to the number of
 * function call parts of the function call turn.`; `Function call is missing a thought_signature in
 * functionCall parts. This is required for tools to work correctly, and missing thought_signature
 * may lead to degraded model performance. Additional data, function call `default_api:NAME` ,
 * position 2. Please refer to https://ai.google.dev/gemini-api/docs/thought-signatures for more
 * details.` (§C); `Corrupted thought signature.` for a signature that is not the model's (Gemini
 * API; Vertex says `Thought signature is not valid`). [A]: "position" read as the 1-based index of
 * the content, `function response turn comes immediately after a function call turn` for a response
 * with no call before it (seen in clients' lists of Gemini errors), the toolConfig mode wording,
 * and that only the current turn (after the user's last own text) is checked, as the thought
 * signatures page says. The sentinel `skip_thought_signature_validator` passes (T2).
 */

import { isCallSignature } from './signatures.mjs';
import { resultText } from './tools.mjs';
import { isRecord } from './wire.mjs';

/**
 * @typedef {import('./wire.mjs').Reply} Reply
 * @typedef {import('./tools.mjs').ToolState} ToolState
 * @typedef {import('./tools.mjs').ToolChoice} ToolChoice
 */

/** @param {string} message @returns {Reply} */
const invalid = (message) => ({
  status: 400,
  body: { error: { code: 400, message, status: 'INVALID_ARGUMENT' } },
});

/** @param {string} name */
const withSnakeCase = (name) => [name, name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`)];

const toolKeys = [
  'functionDeclarations',
  'googleSearch',
  'googleSearchRetrieval',
  'codeExecution',
  'urlContext',
  'computerUse',
  'fileSearch',
  'googleMaps',
  'retrieval',
  'enterpriseWebSearch',
  'mcpServers',
].flatMap(withSnakeCase);

const declarationKeys = [
  'name',
  'description',
  'parameters',
  'parametersJsonSchema',
  'response',
  'responseJsonSchema',
  'behavior',
].flatMap(withSnakeCase);

const namePattern = /^[a-zA-Z_][a-zA-Z0-9_.:-]{0,63}$/;

/** The sentinel that passes the signature check for a call whose signature was lost (T2). */
export const skipSignature = 'skip_thought_signature_validator';

/** Models that check thought signatures on function calls: Gemini 3 and later. @param {string} model */
export const checksSignatures = (model) => /^gemini-([3-9]|\d{2})/.test(model);

/** @param {Record<string, unknown>} record @param {string} name */
const field = (record, name) => record[name] ?? record[withSnakeCase(name)[1] ?? name];

/** @param {Record<string, unknown>} tool @returns {unknown[]} */
const declarationsOf = (tool) => {
  const list = field(tool, 'functionDeclarations');
  return Array.isArray(list) ? list : [];
};

/**
 * `tools` and `toolConfig` (T1).
 * @param {Record<string, unknown>} body @returns {Reply | undefined}
 */
export function geminiToolsError(body) {
  const tools = body.tools;
  if (tools !== undefined) {
    if (!Array.isArray(tools))
      return invalid(
        `Invalid JSON payload received. Unknown name "tools": Proto field is not repeating, cannot start list.`,
      );
    const badNames = [];
    for (const [index, tool] of tools.entries()) {
      if (!isRecord(tool))
        return invalid(`Invalid JSON payload received. Expected an object at 'tools[${index}]'.`);
      const unknown = Object.keys(tool).find((key) => !toolKeys.includes(key));
      if (unknown)
        return invalid(
          `Invalid JSON payload received. Unknown name "${unknown}" at 'tools[${index}]': Cannot find field.`,
        );
      for (const [declIndex, declaration] of declarationsOf(tool).entries()) {
        const at = `tools[${index}].function_declarations[${declIndex}]`;
        if (!isRecord(declaration))
          return invalid(`Invalid JSON payload received. Expected an object at '${at}'.`);
        const extra = Object.keys(declaration).find((key) => !declarationKeys.includes(key));
        if (extra)
          return invalid(
            `Invalid JSON payload received. Unknown name "${extra}" at '${at}': Cannot find field.`,
          );
        if (typeof declaration.name !== 'string' || !namePattern.test(declaration.name)) {
          badNames.push(
            `* GenerateContentRequest.${at}.name: Invalid function name. Must start with a letter or an underscore. Must be alphameric (a-z, A-Z, 0-9), underscores (_), dots (.), colons (:), or dashes (-), with a maximum length of 64.\n`,
          );
        }
      }
    }
    if (badNames.length > 0) return invalid(badNames.join(''));
  }
  const config = body.toolConfig ?? body.tool_config;
  const calling = isRecord(config) ? field(config, 'functionCallingConfig') : undefined;
  const mode = isRecord(calling) ? calling.mode : undefined;
  if (
    mode !== undefined &&
    !['AUTO', 'ANY', 'NONE', 'VALIDATED', 'MODE_UNSPECIFIED'].includes(String(mode))
  ) {
    return invalid(
      `Invalid JSON payload received. Invalid value at 'tool_config.function_calling_config.mode' (type.googleapis.com/google.ai.generativelanguage.v1beta.FunctionCallingConfig.Mode), "${String(mode)}"`,
    );
  }
  return undefined;
}

/** @param {unknown} content @returns {Record<string, unknown>[]} */
const partsOf = (content) =>
  isRecord(content) && Array.isArray(content.parts) ? content.parts.filter(isRecord) : [];

/** @param {unknown} content */
const callsIn = (content) => partsOf(content).filter((part) => isRecord(field(part, 'functionCall')));

/** @param {unknown} content */
const responsesIn = (content) => partsOf(content).filter((part) => isRecord(field(part, 'functionResponse')));

/** A user turn of the user's own, not one that carries function responses. @param {unknown} content */
const isPrompt = (content) =>
  isRecord(content) && content.role !== 'model' && responsesIn(content).length === 0;

/**
 * The order and count of function calls and responses, and on Gemini 3 the thought signature of the
 * first function call of each step in the current turn (T2, §C).
 * @param {Record<string, unknown>} body @param {string} model @returns {Reply | undefined}
 */
export function geminiHistoryError(body, model) {
  const contents = Array.isArray(body.contents) ? body.contents : [];
  for (const [index, content] of contents.entries()) {
    const previous = contents[index - 1];
    if (callsIn(content).length > 0 && isRecord(previous) && previous.role === 'model')
      return invalid(
        'Please ensure that function call turns come immediately after a user turn or after a function response turn.',
      );
    const responses = responsesIn(content).length;
    if (responses === 0) continue;
    const calls = callsIn(previous).length;
    if (calls === 0)
      return invalid(
        'Please ensure that function response turn comes immediately after a function call turn.',
      );
    if (calls !== responses)
      return invalid(
        'Please ensure that the number of function response parts is equal to the number of function call parts of the function call turn.',
      );
  }
  for (const [index, content] of contents.entries()) {
    const calls = callsIn(content);
    if (calls.length === 0) continue;
    const next = contents[index + 1];
    if (next !== undefined && responsesIn(next).length !== calls.length)
      return invalid(
        'Please ensure that the number of function response parts is equal to the number of function call parts of the function call turn.',
      );
  }
  return checksSignatures(model) ? signatureError(contents, model) : undefined;
}

/**
 * Gemini 3 validates the current turn only: every model step after the user's last own text whose
 * first function call lacks its signature is refused, and so is any signature the model did not
 * give (the sentinel aside).
 * @param {unknown[]} contents @param {string} model @returns {Reply | undefined}
 */
function signatureError(contents, model) {
  const start = contents.findLastIndex(isPrompt);
  for (const [index, content] of contents.entries()) {
    if (index <= start) continue;
    const calls = callsIn(content);
    const [first] = calls;
    if (!first) continue;
    const signature = field(first, 'thoughtSignature');
    if (signature === undefined || signature === '') {
      const call = field(first, 'functionCall');
      const name = isRecord(call) ? String(call.name) : '';
      return invalid(
        `Function call is missing a thought_signature in functionCall parts. This is required for tools to work correctly, and missing thought_signature may lead to degraded model performance. Additional data, function call \`default_api:${name}\` , position ${index + 1}. Please refer to https://ai.google.dev/gemini-api/docs/thought-signatures for more details.`,
      );
    }
    for (const part of calls) {
      const value = field(part, 'thoughtSignature');
      if (value === undefined || value === skipSignature || isCallSignature(model, value)) continue;
      return invalid('Corrupted thought signature.');
    }
  }
  return undefined;
}

/** Text of a content's text parts, thoughts left out. @param {unknown} content */
const ownText = (content) =>
  partsOf(content)
    .map((part) => (typeof part.text === 'string' && part.thought !== true ? part.text : ''))
    .join('');

/** What a function response said: its `content`, `output` or `result` text, or the whole response as JSON. @param {unknown} response */
function responseText(response) {
  if (!isRecord(response)) return resultText(response);
  for (const key of ['content', 'output', 'result']) {
    if (typeof response[key] === 'string') return String(response[key]);
  }
  return JSON.stringify(response);
}

/**
 * What the tool scenarios read from a generateContent body. ANY with one allowed function forces
 * it; the declarations are limited to the allowed names.
 * @param {Record<string, unknown>} body @returns {ToolState}
 */
export function geminiToolState(body) {
  const contents = Array.isArray(body.contents) ? body.contents.filter(isRecord) : [];
  const config = body.toolConfig ?? body.tool_config;
  const calling = isRecord(config) ? field(config, 'functionCallingConfig') : undefined;
  const mode = isRecord(calling) ? String(calling.mode ?? 'AUTO') : 'AUTO';
  const allowedField = isRecord(calling) ? field(calling, 'allowedFunctionNames') : undefined;
  const allowed = Array.isArray(allowedField) ? allowedField.map(String) : undefined;
  const tools = (Array.isArray(body.tools) ? body.tools : []).flatMap((tool) =>
    isRecord(tool)
      ? declarationsOf(tool).flatMap((declaration) =>
          isRecord(declaration)
            ? [
                {
                  name: String(declaration.name),
                  parameters: field(declaration, 'parameters') ?? field(declaration, 'parametersJsonSchema'),
                },
              ]
            : [],
        )
      : [],
  );
  const offered = allowed ? tools.filter((tool) => allowed.includes(tool.name)) : tools;
  /** @type {ToolChoice} */
  const choice =
    mode === 'NONE'
      ? 'none'
      : mode === 'ANY'
        ? allowed?.length === 1 && allowed[0]
          ? { name: allowed[0] }
          : 'required'
        : 'auto';
  const prompt = contents.findLastIndex(isPrompt);
  const last = contents.at(-1);
  const results = responsesIn(last).map((part) => {
    const response = field(part, 'functionResponse');
    const record = isRecord(response) ? response : {};
    return { name: String(record.name), content: responseText(record.response) };
  });
  return {
    tools: offered,
    choice,
    parallel: true,
    prompt: ownText(contents[prompt]),
    results,
    rounds: contents.slice(prompt + 1).filter((content) => responsesIn(content).length > 0).length,
  };
}
