// @ts-check
/**
 * Anthropic's web search server tool (web-search.mjs has the answer and the scenarios).
 *
 * The request offers `{type: "web_search_20250305" | "web_search_20260209" | …, name: "web_search",
 * max_uses?, allowed_domains? | blocked_domains?, user_location?}` (any beta header or none). The
 * answer, as recorded (vercel/ai fixture anthropic-web-search-tool.1, claude-sonnet-4, 2025-09):
 * per search a `server_tool_use` block (input `{}` at its start, then its JSON `{"query": "…"}` in
 * input_json_delta pieces, the first one empty), then a `web_search_tool_result` block complete in
 * its content_block_start (results with title, url, encrypted_content, page_age); then text
 * blocks: uncited ones plain, cited ones starting `{"citations": [], "type": "text", "text": ""}`
 * with a citations_delta per citation (web_search_result_location: cited_text, url, title,
 * encrypted_index) before their text deltas. message_delta's usage adds `server_tool_use:
 * {web_search_requests, web_fetch_requests}`. A failed search is a 200 whose result's content is
 * `{type: "web_search_tool_result_error", error_code}` (docs); `max_uses` below the searches the
 * answer needs fails the extra ones with max_uses_exceeded.
 *
 * `search-pause` stops the turn after its first search with stop_reason `pause_turn`; sending the
 * conversation back with that assistant turn last continues it: the answer resumes after the
 * searches the turn already holds (block indexes from 0, as in any response).
 *
 * History: encrypted_content and encrypted_index are bound to their page (signatures.mjs), so a
 * result or citation sent back changed, or made up, is refused. [R]-modelled: `messages.N.content.M:
 * unexpected \`tool_use_id\` found in \`web_search_tool_result\` blocks: ID. Each
 * \`web_search_tool_result\` block must have a corresponding \`server_tool_use\` block before it.`
 * (the advisor_tool_result form of 2026 reports, anthropics/claude-code#62577). [A]: the wording of
 * the encrypted-value, missing-result, tool-definition (pydantic-style paths; allowed and blocked
 * domains together) checks; and, under search-pause only (a mock check, not the API's), a 400 when a
 * continuation's assistant turn lacks the paused search blocks. `search-disabled`: a 400 for a
 * request with the tool; the API's wording for an organization without web search is not
 * documented (only that "your organization's administrator must enable web search in Console"),
 * so the message here is unverified.
 */

import { citationIndex, searchResultContent } from './signatures.mjs';
import { tokenize } from './tokens.mjs';
import { randomId } from './tools.mjs';
import {
  anthropicLead,
  answerSentences,
  failedSearchSentence,
  searchesWeb,
  webSearches,
  webSources,
} from './web-search.mjs';
import { isRecord, mockId } from './wire.mjs';

/**
 * @typedef {import('./wire.mjs').Reply} Reply
 * @typedef {import('./wire.mjs').ChatPlan} ChatPlan
 *
 * @typedef {object} StreamedBlock
 * @property {Record<string, unknown>} start The content_block_start's block.
 * @property {Record<string, unknown>[]} deltas The content_block_delta deltas, in order.
 * @property {Record<string, unknown>} whole The block as a non-streamed reply holds it.
 *
 * @typedef {object} SearchTurn
 * @property {StreamedBlock[]} blocks
 * @property {'end_turn' | 'pause_turn'} stopReason
 * @property {number} requests The searches that ran (billed; a failed one is not).
 * @property {number} outputTokens
 */

/** @param {string} message @returns {Reply} */
const invalid = (message) => ({
  status: 400,
  body: { type: 'error', error: { type: 'invalid_request_error', message }, request_id: mockId('req_') },
  headers: { 'request-id': mockId('req_') },
});

/** Whether a tool is the web search server tool (any version). @param {unknown} tool @returns {boolean} */
export const isWebSearchTool = (tool) => isRecord(tool) && /^web_search_\d{8}$/.test(String(tool.type));

/** The request's web search tool, if it offers one. @param {Record<string, unknown>} body */
export const webSearchToolOf = (body) =>
  (Array.isArray(body.tools) ? body.tools : []).filter(isRecord).find(isWebSearchTool);

const searchToolKeys = [
  'type',
  'name',
  'max_uses',
  'allowed_domains',
  'blocked_domains',
  'user_location',
  'cache_control',
  'allowed_callers',
  'defer_loading',
  'strict',
];

/** @param {unknown} value */
const isStringList = (value) => Array.isArray(value) && value.every((entry) => typeof entry === 'string');

/**
 * One web search tool's definition.
 * @param {Record<string, unknown>} tool @param {number} index @returns {Reply | undefined}
 */
export function webSearchToolError(tool, index) {
  const at = `tools.${index}.${String(tool.type)}`;
  if (tool.name !== 'web_search') return invalid(`${at}.name: Input should be 'web_search'`);
  const extra = Object.keys(tool).find((key) => !searchToolKeys.includes(key));
  if (extra) return invalid(`${at}.${extra}: Extra inputs are not permitted`);
  const uses = tool.max_uses;
  if (uses !== undefined && uses !== null) {
    if (!Number.isSafeInteger(uses)) return invalid(`${at}.max_uses: Input should be a valid integer`);
    if (Number(uses) <= 0) return invalid(`${at}.max_uses: Input should be greater than 0`);
  }
  for (const field of ['allowed_domains', 'blocked_domains']) {
    const value = tool[field];
    if (value !== undefined && value !== null && !isStringList(value))
      return invalid(`${at}.${field}: Input should be a valid list`);
  }
  const allowed = tool.allowed_domains ?? null;
  const blocked = tool.blocked_domains ?? null;
  if (allowed !== null && blocked !== null)
    return invalid(`${at}: Cannot specify both allowed_domains and blocked_domains in the same request.`);
  const location = tool.user_location;
  if (location !== undefined && location !== null && (!isRecord(location) || location.type !== 'approximate'))
    return invalid(`${at}.user_location.type: Input should be 'approximate'`);
  return undefined;
}

/** @param {unknown} message @returns {Record<string, unknown>[]} */
const blocksOf = (message) =>
  isRecord(message) && Array.isArray(message.content) ? message.content.filter(isRecord) : [];

/**
 * One web_search_tool_result sent back: each result's encrypted_content is the one the mock gave
 * for its page.
 * @param {Record<string, unknown>} block @param {string} where @returns {Reply | undefined}
 */
function resultBlockError(block, where) {
  if (!Array.isArray(block.content)) return undefined;
  for (const [index, result] of block.content.entries()) {
    if (!isRecord(result) || result.type !== 'web_search_result') continue;
    const at = `${where}.web_search_tool_result.content.${index}`;
    if (result.encrypted_content === undefined) return invalid(`${at}.encrypted_content: Field required`);
    if (result.encrypted_content !== searchResultContent(String(result.url), String(result.title)))
      return invalid(
        `${where}.content.${index}: Invalid \`encrypted_content\` in \`web_search_result\` block`,
      );
  }
  return undefined;
}

/** A text block's web search citations sent back: each encrypted_index the mock's. @param {Record<string, unknown>} block @param {string} where */
function citationsError(block, where) {
  if (!Array.isArray(block.citations)) return undefined;
  for (const [index, citation] of block.citations.entries()) {
    if (!isRecord(citation) || citation.type !== 'web_search_result_location') continue;
    const at = `${where}.text.citations.${index}`;
    if (citation.encrypted_index === undefined) return invalid(`${at}.encrypted_index: Field required`);
    if (citation.encrypted_index !== citationIndex(String(citation.url), String(citation.cited_text)))
      return invalid(`${at}: Invalid \`encrypted_index\` in \`web_search_result_location\` citation`);
  }
  return undefined;
}

/**
 * Web search blocks in the assistant turns sent back: each web_search_tool_result after its
 * server_tool_use, unchanged; a server_tool_use answered in its own message (the last message,
 * a turn being continued, aside); citations unchanged.
 * @param {Record<string, unknown>} body @returns {Reply | undefined}
 */
export function searchHistoryError(body) {
  const messages = Array.isArray(body.messages) ? body.messages : [];
  for (const [index, message] of messages.entries()) {
    if (!isRecord(message) || message.role !== 'assistant') continue;
    /** @type {string[]} */
    const pending = [];
    for (const [blockIndex, block] of blocksOf(message).entries()) {
      const where = `messages.${index}.content.${blockIndex}`;
      if (block.type === 'server_tool_use') {
        if (typeof block.id !== 'string') return invalid(`${where}.server_tool_use.id: Field required`);
        if (block.name === 'web_search') pending.push(block.id);
      } else if (block.type === 'web_search_tool_result') {
        const id = String(block.tool_use_id);
        if (!pending.includes(id)) {
          return invalid(
            `${where}: unexpected \`tool_use_id\` found in \`web_search_tool_result\` blocks: ${id}. Each \`web_search_tool_result\` block must have a corresponding \`server_tool_use\` block before it.`,
          );
        }
        pending.splice(pending.indexOf(id), 1);
        const error = resultBlockError(block, where);
        if (error) return error;
      } else if (block.type === 'text') {
        const error = citationsError(block, where);
        if (error) return error;
      }
    }
    if (pending.length > 0 && index < messages.length - 1) {
      return invalid(
        `messages.${index}: \`server_tool_use\` ids were found without \`web_search_tool_result\` blocks after them: ${pending.join(', ')}. Each \`server_tool_use\` block must have a corresponding \`web_search_tool_result\` block in the same message.`,
      );
    }
  }
  return undefined;
}

/** The searches an assistant message already holds (its server_tool_use blocks). @param {unknown} message */
const searchesIn = (message) =>
  blocksOf(message).filter((block) => block.type === 'server_tool_use' && block.name === 'web_search').length;

/** @param {Record<string, unknown>} body */
const lastMessage = (body) => (Array.isArray(body.messages) ? body.messages.at(-1) : undefined);

/**
 * What the search scenarios refuse before answering: under search-disabled a request with the
 * tool; under search-pause a continuation (the last message the assistant's) whose turn lacks the
 * paused search (a mock check).
 * @param {Record<string, unknown>} body @param {string} scenario @returns {Reply | undefined}
 */
export function searchScenarioError(body, scenario) {
  if (!webSearchToolOf(body)) return undefined;
  if (scenario === 'search-disabled') {
    // Unverified wording: the docs only say an administrator must enable web search in Console.
    return invalid(
      'Web search is not enabled for this organization. An organization admin can enable it in the Claude Console, in Settings > Privacy.',
    );
  }
  const last = lastMessage(body);
  if (scenario === 'search-pause' && isRecord(last) && last.role === 'assistant' && searchesIn(last) === 0) {
    const index = Array.isArray(body.messages) ? body.messages.length - 1 : 0;
    return invalid(
      `messages.${index}: this continues a paused turn (stop_reason pause_turn) without its \`server_tool_use\` and \`web_search_tool_result\` blocks; send the assistant content back as it was (mock check).`,
    );
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

/** A search's server_tool_use block. @param {string} id @param {string} query @returns {StreamedBlock} */
function useBlock(id, query) {
  const json = `{"query": ${JSON.stringify(query)}}`;
  return {
    start: { type: 'server_tool_use', id, name: 'web_search', input: {} },
    deltas: ['', ...slices(json)].map((partial) => ({ type: 'input_json_delta', partial_json: partial })),
    whole: { type: 'server_tool_use', id, name: 'web_search', input: { query } },
  };
}

/** A search's result block: its pages, or the error. @param {string} id @param {number[] | string} found */
function resultBlock(id, found) {
  const content =
    typeof found === 'string'
      ? { type: 'web_search_tool_result_error', error_code: found }
      : found.flatMap((at) => {
          const source = webSources[at];
          if (!source) return [];
          return [
            {
              type: 'web_search_result',
              title: source.title,
              url: source.url,
              encrypted_content: searchResultContent(source.url, source.title),
              page_age: source.pageAge,
            },
          ];
        });
  const block = { type: 'web_search_tool_result', tool_use_id: id, content };
  return { start: block, deltas: [], whole: block };
}

/** A text block, cited when it names pages. @param {string} text @param {number[]} [cites] @returns {StreamedBlock} */
function textBlock(text, cites = []) {
  const citations = cites.flatMap((at) => {
    const source = webSources[at];
    if (!source) return [];
    return [
      {
        type: 'web_search_result_location',
        cited_text: source.snippet,
        url: source.url,
        title: source.title,
        encrypted_index: citationIndex(source.url, source.snippet),
      },
    ];
  });
  const textDeltas = tokenize(text).map((piece) => ({ type: 'text_delta', text: piece }));
  if (citations.length === 0)
    return { start: { type: 'text', text: '' }, deltas: textDeltas, whole: { type: 'text', text } };
  return {
    start: { citations: [], type: 'text', text: '' },
    deltas: [...citations.map((citation) => ({ type: 'citations_delta', citation })), ...textDeltas],
    whole: { type: 'text', text, citations },
  };
}

/**
 * The turn under a search scenario when the request offers the web search tool: its blocks,
 * from where the conversation's last assistant turn (a paused one sent back) left off.
 * @param {ChatPlan} plan @returns {SearchTurn | undefined}
 */
export function anthropicSearchTurn(plan) {
  const tool = webSearchToolOf(plan.body);
  if (!searchesWeb(plan.scenario) || !tool) return undefined;
  const last = lastMessage(plan.body);
  const done = isRecord(last) && last.role === 'assistant' ? searchesIn(last) : 0;
  // search-failed lets one search run, as max_uses 1 does; the next fails.
  const allowed =
    plan.scenario === 'search-failed' ? 1 : typeof tool.max_uses === 'number' ? tool.max_uses : Infinity;
  const failing = allowed < webSearches.length;
  /** @type {({ kind: 'search', query: string, found: number[] | string } | { kind: 'text', text: string, cites?: number[] })[]} */
  const steps = webSearches.map(({ query, sources }, index) => ({
    kind: /** @type {const} */ ('search'),
    query,
    found: index < allowed ? sources : 'max_uses_exceeded',
  }));
  steps.push({ kind: 'text', text: anthropicLead });
  for (const [index, sentence] of answerSentences.entries()) {
    if (index > 0) steps.push({ kind: 'text', text: ' ' });
    const uncited = failing && index === answerSentences.length - 1;
    steps.push(
      uncited
        ? { kind: 'text', text: failedSearchSentence }
        : { kind: 'text', text: sentence.text, cites: sentence.sources },
    );
  }
  // The searches come first: a continued turn resumes after those it holds.
  const remaining = steps.slice(Math.min(done, webSearches.length));
  const pauses = plan.scenario === 'search-pause' && done === 0;
  const taken = pauses ? remaining.slice(0, 1) : remaining;
  const blocks = taken.flatMap((step) => {
    if (step.kind === 'text') return [textBlock(step.text, step.cites)];
    const id = randomId('srvtoolu_01', 22);
    return [useBlock(id, step.query), resultBlock(id, step.found)];
  });
  const outputTokens = taken.reduce(
    (sum, step) =>
      sum + tokenize(step.kind === 'text' ? step.text : `{"query": ${JSON.stringify(step.query)}}`).length,
    0,
  );
  const requests = taken.filter((step) => step.kind === 'search' && typeof step.found !== 'string').length;
  return { blocks, stopReason: pauses ? 'pause_turn' : 'end_turn', requests, outputTokens };
}
