// @ts-check
/**
 * Web search on OpenAI's APIs and Groq's (web-search.mjs has the answer and the scenarios).
 *
 * Responses API: a `web_search` tool (or its dated and preview types) makes the model search. The
 * output is reasoning items between `web_search_call` items (two searches and an `open_page`),
 * then the message, whose output_text carries `url_citation` annotations; `include:
 * ["web_search_call.action.sources"]` adds each search's `sources`. Stream: per call
 * output_item.added (`status: in_progress`, no action) → response.web_search_call.in_progress →
 * .searching → .completed → output_item.done (the action); the text deltas, each
 * response.output_text.annotation.added right after the delta that completes its link; the
 * annotations again on content_part.done, output_item.done and the response. As recorded (vercel/ai
 * fixture openai-web-search-tool.1, gpt-5-nano, 2025-09), except that there the later searches'
 * actions had no `query`; here every search names its query. Options: `filters.allowed_domains`
 * (web_search only), `search_context_size`, `user_location`, `external_web_access`; the response
 * echoes the tool with its defaults filled in, as recorded. [R] `The following tools cannot be used
 * with reasoning.effort 'minimal': web_search.` (many client reports, 2025-26; its param and code
 * are [A]). [A] the option checks' wording (OpenAI's usual unknown-parameter and invalid-value
 * forms), and that web_search_preview takes no `filters`.
 *
 * Chat Completions: only the `*-search-preview` models search, always; `message.annotations`
 * holds `{type: url_citation, url_citation: {end_index, start_index, title, url}}`, same text and
 * indexes as Responses. Streamed, the annotations come in a chunk of their own after the text
 * ("the very last message does not contain content but annotations", openai/openai-java#297);
 * that it is a chunk before the finish chunk, not the finish chunk itself, is [A].
 *
 * Groq: the compound models search on their own. Each search is an `executed_tools` entry
 * `{index, type: "search", arguments: "{\"query\": …}", output, search_results: {results: [{title,
 * url, content, score}]}}` (groq-python ExecutedTool), streamed as `delta.executed_tools` after
 * the reasoning (`delta.reasoning`) that leads to it, and on the message when not streamed;
 * compound-mini makes one tool call at most (console.groq.com/docs/compound/systems), compound up
 * to ten. [A] the `output` text
 * ("Title: …\nURL: …\nContent: …\nScore: …" per result), that each tool arrives whole in one
 * chunk, and the reasoning text. gpt-oss's `browser_search` tool is accepted and not acted on.
 */

import { encryptedReasoning } from './signatures.mjs';
import { hexId } from './tools.mjs';
import {
  answerText,
  openaiAnswer,
  searchReasoning,
  searchesWeb,
  webSearches,
  webSources,
} from './web-search.mjs';
import { openaiInvalid } from './openai-validation.mjs';
import { isRecord, mockId } from './wire.mjs';

/**
 * @typedef {import('./wire.mjs').Reply} Reply
 * @typedef {import('./wire.mjs').ChatPlan} ChatPlan
 */

export const responsesSearchTypes = [
  'web_search',
  'web_search_2025_08_26',
  'web_search_preview',
  'web_search_preview_2025_03_11',
];

/** @param {unknown} tool @returns {tool is Record<string, unknown>} */
const isSearchTool = (tool) => isRecord(tool) && responsesSearchTypes.includes(String(tool.type));

/** The Responses request's web search tools. @param {Record<string, unknown>} body */
const searchTools = (body) => (Array.isArray(body.tools) ? body.tools : []).filter(isSearchTool);

/** 'a' and 'b'; 'a', 'b', and 'c'. @param {string[]} values */
function quotedList(values) {
  const quoted = values.map((value) => `'${value}'`);
  return quoted.length < 3 ? quoted.join(' and ') : `${quoted.slice(0, -1).join(', ')}, and ${quoted.at(-1)}`;
}

/** @param {string} param @param {unknown} value @param {string[]} allowed @returns {Reply | undefined} */
function oneOf(param, value, allowed) {
  if (allowed.includes(String(value))) return undefined;
  return openaiInvalid(`Invalid value: '${String(value)}'. Supported values are: ${quotedList(allowed)}.`, {
    param,
    code: 'invalid_value',
  });
}

/** @param {string} param */
const unknownParameter = (param) =>
  openaiInvalid(`Unknown parameter: '${param}'.`, { param, code: 'unknown_parameter' });

/** One web search tool's options. @param {Record<string, unknown>} tool @param {string} at @returns {Reply | undefined} */
function searchToolError(tool, at) {
  const preview = String(tool.type).startsWith('web_search_preview');
  const keys = preview
    ? ['type', 'search_context_size', 'user_location']
    : ['type', 'filters', 'search_context_size', 'user_location', 'external_web_access'];
  const extra = Object.keys(tool).find((key) => !keys.includes(key));
  if (extra) return unknownParameter(`${at}.${extra}`);
  if (tool.search_context_size !== undefined && tool.search_context_size !== null) {
    const error = oneOf(`${at}.search_context_size`, tool.search_context_size, ['low', 'medium', 'high']);
    if (error) return error;
  }
  const location = tool.user_location;
  if (location !== undefined && location !== null) {
    if (!isRecord(location))
      return openaiInvalid(`Invalid type for '${at}.user_location'.`, { code: 'invalid_type' });
    const error = oneOf(`${at}.user_location.type`, location.type, ['approximate']);
    if (error) return error;
  }
  const filters = tool.filters;
  if (filters === undefined || filters === null) return undefined;
  const domains = isRecord(filters) ? filters.allowed_domains : undefined;
  if (domains === undefined || domains === null) return undefined;
  if (!Array.isArray(domains) || !domains.every((domain) => typeof domain === 'string')) {
    return openaiInvalid(
      `Invalid type for '${at}.filters.allowed_domains': expected an array of strings, but got ${Array.isArray(domains) ? 'an array with other values' : typeof domains} instead.`,
      { param: `${at}.filters.allowed_domains`, code: 'invalid_type' },
    );
  }
  if (domains.length > 100) {
    return openaiInvalid(
      `Invalid '${at}.filters.allowed_domains': array too long. Expected an array with maximum length 100, but got an array with length ${domains.length} instead.`,
      { param: `${at}.filters.allowed_domains`, code: 'array_above_max_length' },
    );
  }
  return undefined;
}

/**
 * The web search tools of a Responses request: their options, and no minimal reasoning effort.
 * @param {Record<string, unknown>} body @returns {Reply | undefined}
 */
export function responsesSearchError(body) {
  const tools = Array.isArray(body.tools) ? body.tools : [];
  for (const [index, tool] of tools.entries()) {
    if (!isSearchTool(tool)) continue;
    const error = searchToolError(tool, `tools[${index}]`);
    if (error) return error;
  }
  const reasoning = isRecord(body.reasoning) ? body.reasoning : {};
  const named = [...new Set(searchTools(body).map((tool) => String(tool.type)))];
  if (reasoning.effort === 'minimal' && named.length > 0) {
    return openaiInvalid(
      `The following tools cannot be used with reasoning.effort 'minimal': ${named.join(', ')}.`,
    );
  }
  return undefined;
}

/** A web search tool as the response echoes it: its defaults filled in. @param {Record<string, unknown>} tool */
export function echoedSearchTool(tool) {
  const location = isRecord(tool.user_location) ? tool.user_location : {};
  const echoed = {
    type: tool.type,
    ...(!String(tool.type).startsWith('web_search_preview') && { filters: tool.filters ?? null }),
    search_context_size: tool.search_context_size ?? 'medium',
    user_location: {
      type: 'approximate',
      city: null,
      country: 'US',
      region: null,
      timezone: null,
      ...location,
    },
  };
  return tool.external_web_access === undefined
    ? echoed
    : { ...echoed, external_web_access: tool.external_web_access };
}

/**
 * The web search turn of a Responses request under a search scenario with a web search tool: the
 * items before the message (reasoning, then each call) and the message's text and annotations.
 * @param {ChatPlan} plan
 */
export function responsesSearchTurn(plan) {
  if (!searchesWeb(plan.scenario) || searchTools(plan.body).length === 0) return undefined;
  const include = Array.isArray(plan.body.include) ? plan.body.include : [];
  const withSources = include.includes('web_search_call.action.sources');
  const actions = [
    ...webSearches.map(({ query, sources }) => ({
      type: 'search',
      query,
      ...(withSources && {
        sources: sources.map((at) => ({ type: 'url', url: webSources[at]?.url ?? '' })),
      }),
    })),
    { type: 'open_page', url: webSources[0]?.url ?? '' },
  ];
  /** @type {({ kind: 'reasoning', text: string } | { kind: 'call', item: Record<string, unknown> })[]} */
  const steps = [];
  for (const [index, action] of actions.entries()) {
    steps.push({ kind: 'reasoning', text: searchReasoning[index] ?? '' });
    const item = { id: hexId('ws_'), type: 'web_search_call', status: 'completed', action };
    steps.push({ kind: 'call', item });
  }
  steps.push({ kind: 'reasoning', text: searchReasoning.at(-1) ?? '' });
  const { text, citations } = openaiAnswer();
  const annotations = citations.map(({ start, end, title, url }) => ({
    type: 'url_citation',
    end_index: end,
    start_index: start,
    title,
    url,
  }));
  return { steps, text, annotations };
}

/** A reasoning item of a search turn. @param {string} text @param {boolean} summary */
export const searchReasoningItem = (text, summary) => ({
  id: mockId('rs_'),
  type: 'reasoning',
  encrypted_content: encryptedReasoning(text),
  summary: summary ? [{ type: 'summary_text', text }] : [],
});

/** Whether a Chat Completions model is one of the search models (gpt-4o-search-preview, …). @param {string} model */
export const isSearchModel = (model) => /-search-preview(-|$)/.test(model);

/**
 * The answer of a Chat Completions search model under a search scenario: its text and
 * `message.annotations`.
 * @param {ChatPlan} plan
 */
export function chatSearchTurn(plan) {
  if (!searchesWeb(plan.scenario) || !isSearchModel(plan.model)) return undefined;
  const { text, citations } = openaiAnswer();
  const annotations = citations.map(({ start, end, title, url }) => ({
    type: 'url_citation',
    url_citation: { end_index: end, start_index: start, title, url },
  }));
  return { text, annotations };
}

/** Groq's compound systems, and their older beta names. @param {string} model */
export const isCompound = (model) => /^(groq\/)?compound(-beta)?(-mini)?$/.test(model);

/**
 * The turn of a Groq compound model under a search scenario: its reasoning, the searches it ran
 * (one on compound-mini) and the answer.
 * @param {ChatPlan} plan
 */
export function compoundSearchTurn(plan) {
  if (!searchesWeb(plan.scenario) || !isCompound(plan.model)) return undefined;
  const runs = plan.model.endsWith('-mini') ? webSearches.slice(0, 1) : webSearches;
  const tools = runs.map(({ query, sources }, index) => {
    const results = sources.flatMap((at) => {
      const source = webSources[at];
      return source
        ? [{ title: source.title, url: source.url, content: source.snippet, score: source.score }]
        : [];
    });
    return {
      index,
      type: 'search',
      arguments: JSON.stringify({ query }).replace('":"', '": "'),
      output: results
        .map(
          (result) =>
            `Title: ${result.title}\nURL: ${result.url}\nContent: ${result.content}\nScore: ${result.score}\n`,
        )
        .join('\n'),
      search_results: { results },
    };
  });
  // The reasoning before each search, streamed in turn with them.
  const thoughts = searchReasoning
    .slice(0, runs.length)
    .map((text, index) => (index > 0 ? `\n\n${text}` : text));
  return { reasoning: thoughts.join(''), thoughts, tools, text: answerText };
}
