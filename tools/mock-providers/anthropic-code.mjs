// @ts-check
/**
 * Code execution on Claude (code-images.mjs has the program, its output and the scenarios).
 *
 * The request offers `{type: "code_execution_20250825" | "code_execution_20260120" |
 * "code_execution_20250522", name: "code_execution"}` (with the beta header vercel-ai sends,
 * `code-execution-2025-08-25` or `code-execution-2025-05-22`, or none: both accepted). The answer,
 * as recorded (vercel/ai fixture anthropic-code-execution-20250825.1, claude-sonnet-4-5, 2025-10):
 *
 * - 20250825 and 20260120: a `server_tool_use` block `{id: "srvtoolu_…", name:
 *   "bash_code_execution", input: {}}` at its start, then its JSON `{"command": "python3 -
 *   <<'EOF'\n…\nEOF"}` in input_json_delta pieces (the first one empty); then a
 *   `bash_code_execution_tool_result` block complete in its content_block_start, content
 *   `{type: "bash_code_execution_result", stdout, stderr, return_code, content: [{type:
 *   "code_execution_output", file_id}, …]}`.
 * - 20250522 (Python only): the `server_tool_use` is named `code_execution` with input `{code}`,
 *   and the result block is a `code_execution_tool_result` with content `{type:
 *   "code_execution_result", stdout, stderr, return_code, content}`.
 *
 * Then the answer's text block. message_delta's delta carries `container: {id: "container_011C…",
 * expires_at}` (a non-streamed reply: top-level `container`), its usage `server_tool_use:
 * {web_search_requests: 0, web_fetch_requests: 0}` as recorded. A request may name a container to
 * reuse (`container: "container_…"`, or `{id}`): the answer keeps its id.
 *
 * Under `code` the program's two files, squares.csv and squares.png, are the result's
 * `code_execution_output` entries (Files API ids, `file_011C…`); `GET /v1/files/{file_id}/content`
 * returns their bytes, and `GET /v1/files/{file_id}` their metadata (added with the client's
 * downloads, which name a file from it) as the Files API's FileMetadata: `{id, type: "file",
 * filename, mime_type, size_bytes, created_at, downloadable: true}` (anthropic-sdk-typescript
 * `src/resources/beta/files.ts`); both with the Messages API's key, version and browser checks and
 * the beta header `anthropic-beta: files-api-2025-04-14` required (one of several comma-separated
 * values is enough). Under `code-failed` stdout is empty, stderr the
 * traceback, return_code 1, no files. Under `code-unavailable` the result is the tool error
 * `{type: "bash_code_execution_tool_result_error" | "code_execution_tool_result_error", error_code:
 * "unavailable"}` (a 200), and the answer `unavailableAnswer`.
 *
 * [A]: that no text comes before the code (real turns often open with a sentence); that the
 * program runs as a heredoc in one bash call (real turns often create a file with
 * text_editor_code_execution first); that both files are listed, csv then png; the containers'
 * lifetime (expires_at an hour on); the Files API's 400 wording without the beta header, its 404
 * wording, and the download's content types. The assistant turn sent back (server_tool_use and
 * result blocks kept, or its text only) is accepted as it is: nothing in it is checked.
 */

import {
  codeRun,
  runsCode,
  squaresCsv,
  squaresCsvName,
  squaresPng,
  unavailableAnswer,
} from './code-images.mjs';
import { tokenize } from './tokens.mjs';
import { randomId } from './tools.mjs';
import { isRecord, mockId } from './wire.mjs';

/**
 * @typedef {import('./wire.mjs').Reply} Reply
 * @typedef {import('./wire.mjs').ChatPlan} ChatPlan
 * @typedef {import('./anthropic-search.mjs').StreamedBlock} StreamedBlock
 */

/** @param {string} message @returns {Reply} */
const invalid = (message) => ({
  status: 400,
  body: { type: 'error', error: { type: 'invalid_request_error', message }, request_id: mockId('req_') },
  headers: { 'request-id': mockId('req_') },
});

/** Whether a tool is the code execution server tool (any version). @param {unknown} tool @returns {boolean} */
export const isCodeExecutionTool = (tool) =>
  isRecord(tool) && /^code_execution_\d{8}$/.test(String(tool.type));

/** The request's code execution tool, if it offers one. @param {Record<string, unknown>} body */
const codeToolOf = (body) =>
  (Array.isArray(body.tools) ? body.tools : []).filter(isRecord).find(isCodeExecutionTool);

const codeToolKeys = ['type', 'name', 'cache_control', 'allowed_callers', 'defer_loading', 'strict'];

/**
 * One code execution tool's definition ([A] wording, pydantic-style as for web search).
 * @param {Record<string, unknown>} tool @param {number} index @returns {Reply | undefined}
 */
export function codeToolError(tool, index) {
  const at = `tools.${index}.${String(tool.type)}`;
  if (tool.name !== 'code_execution') return invalid(`${at}.name: Input should be 'code_execution'`);
  const extra = Object.keys(tool).find((key) => !codeToolKeys.includes(key));
  if (extra) return invalid(`${at}.${extra}: Extra inputs are not permitted`);
  return undefined;
}

/**
 * Files the code scenario wrote, by file id.
 * @type {Map<string, { filename: string, mediaType: string, bytes: Buffer, createdAt: string }>}
 */
const files = new Map();

/**
 * `GET /v1/files/{file_id}/content`: the file, or undefined when the path is not that route.
 * @param {string} path
 * @returns {{ found: true, mediaType: string, bytes: Buffer } | { found: false, id: string } | undefined}
 */
export function anthropicFileOf(path) {
  const match = /^\/v1\/files\/([^/]+)\/content$/.exec(path);
  if (!match) return undefined;
  const id = decodeURIComponent(match[1] ?? '');
  const file = files.get(id);
  return file ? { found: true, mediaType: file.mediaType, bytes: file.bytes } : { found: false, id };
}

/**
 * `GET /v1/files/{file_id}`: the file's metadata, or undefined when the path is not that route.
 * @param {string} path
 * @returns {{ found: true, metadata: Record<string, unknown> } | { found: false, id: string } | undefined}
 */
export function anthropicFileMetadataOf(path) {
  const match = /^\/v1\/files\/([^/]+)$/.exec(path);
  if (!match) return undefined;
  const id = decodeURIComponent(match[1] ?? '');
  const file = files.get(id);
  if (!file) return { found: false, id };
  const metadata = {
    id,
    type: 'file',
    filename: file.filename,
    mime_type: file.mediaType,
    size_bytes: file.bytes.length,
    created_at: file.createdAt,
    downloadable: true,
  };
  return { found: true, metadata };
}

/**
 * The Files API's own refusals: the beta header missing, an unknown id ([A] wording).
 * @param {Record<string, string>} headers @param {{ found: boolean, id?: string }} file
 * @returns {Reply | undefined}
 */
export function anthropicFileError(headers, file) {
  const betas = (headers['anthropic-beta'] ?? '').split(',').map((beta) => beta.trim());
  if (!betas.includes('files-api-2025-04-14'))
    return invalid('The Files API is in beta: send the header `anthropic-beta: files-api-2025-04-14`.');
  if (!file.found) {
    return {
      status: 404,
      body: {
        type: 'error',
        error: { type: 'not_found_error', message: `File not found: ${file.id ?? ''}` },
        request_id: mockId('req_'),
      },
      headers: { 'request-id': mockId('req_') },
    };
  }
  return undefined;
}

/** Splits text into pieces of at most `size` characters (code points). @param {string} text */
function slices(text, size = 12) {
  const characters = Array.from(text);
  const pieces = [];
  for (let at = 0; at < characters.length; at += size) pieces.push(characters.slice(at, at + size).join(''));
  return pieces;
}

/** The container a request names, or a new one. @param {Record<string, unknown>} body */
function containerOf(body) {
  const named = isRecord(body.container) ? body.container.id : body.container;
  const id = typeof named === 'string' && named !== '' ? named : randomId('container_011C', 20);
  return { id, expires_at: new Date(Date.now() + 60 * 60 * 1000).toISOString() };
}

/**
 * The turn under a code scenario when the request offers the code execution tool: the tool's
 * two blocks and the answer's text block, the stop reason, output tokens and the container.
 * @param {ChatPlan} plan
 */
export function anthropicCodeTurn(plan) {
  const tool = codeToolOf(plan.body);
  if (!runsCode(plan.scenario) || !tool) return undefined;
  const legacy = tool.type === 'code_execution_20250522';
  const run = codeRun(plan.scenario);
  const id = randomId('srvtoolu_01', 22);
  const name = legacy ? 'code_execution' : 'bash_code_execution';
  const input = legacy ? { code: run.code } : { command: `python3 - <<'EOF'\n${run.code}EOF` };
  const json = JSON.stringify(input);
  /** @type {StreamedBlock} */
  const use = {
    start: { type: 'server_tool_use', id, name, input: {} },
    deltas: ['', ...slices(json)].map((partial) => ({ type: 'input_json_delta', partial_json: partial })),
    whole: { type: 'server_tool_use', id, name, input },
  };
  const resultType = legacy ? 'code_execution_tool_result' : 'bash_code_execution_tool_result';
  /** @type {Record<string, unknown>} */
  let content;
  if (plan.scenario === 'code-unavailable') {
    content = { type: `${resultType}_error`, error_code: 'unavailable' };
  } else {
    const written = run.failed
      ? []
      : [
          { filename: squaresCsvName, mediaType: 'text/csv', bytes: Buffer.from(squaresCsv, 'utf8') },
          { filename: 'squares.png', mediaType: 'image/png', bytes: squaresPng() },
        ];
    const outputs = written.map((file) => {
      const fileId = randomId('file_011C', 22);
      files.set(fileId, { ...file, createdAt: new Date().toISOString() });
      return { type: 'code_execution_output', file_id: fileId };
    });
    content = {
      type: legacy ? 'code_execution_result' : 'bash_code_execution_result',
      stdout: run.failed ? '' : run.output,
      stderr: run.failed ? run.output : '',
      return_code: run.failed ? 1 : 0,
      content: outputs,
    };
  }
  const result = { type: resultType, tool_use_id: id, content };
  const answer = plan.scenario === 'code-unavailable' ? unavailableAnswer : run.answer;
  /** @type {StreamedBlock} */
  const text = {
    start: { type: 'text', text: '' },
    deltas: tokenize(answer).map((piece) => ({ type: 'text_delta', text: piece })),
    whole: { type: 'text', text: answer },
  };
  return {
    blocks: [use, { start: result, deltas: [], whole: result }, text],
    stopReason: 'end_turn',
    outputTokens: tokenize(json).length + tokenize(answer).length,
    container: containerOf(plan.body),
  };
}
