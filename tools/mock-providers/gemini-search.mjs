// @ts-check
/**
 * Grounding with Google Search on Gemini (web-search.mjs has the answer and the scenarios).
 *
 * The request offers `tools: [{googleSearch: {}}]` (or `google_search`). The answer streams as
 * plain text parts; the candidate's `groundingMetadata` comes late, on the last chunk (the one
 * with finishReason STOP), and on the candidate when not streamed: `webSearchQueries`,
 * `searchEntryPoint.renderedContent` (Google's search-suggestion chips, HTML with its own
 * <style>, which Google requires be shown as given), `groundingChunks` (`web: {uri, title}`: the
 * uri a vertexaisearch.cloud.google.com redirect, the title the bare domain), and
 * `groundingSupports`: each cited sentence's `segment` {startIndex, endIndex, text} with
 * `groundingChunkIndices` and `confidenceScores`. The indexes are UTF-8 byte offsets into the
 * candidate's text (the text parts joined); startIndex is left out when it is 0 (proto3 JSON
 * drops zero values); partIndex is left out. The answer holds 'ā', 'ʻ' and an emoji before cited
 * segments, so byte, code point and UTF-16 offsets all differ. [R] The legacy
 * `googleSearchRetrieval` tool on Gemini 2 and later: 400 INVALID_ARGUMENT `google_search_retrieval
 * is not supported; please use google_search field instead.` (client reports, 2025). [A] the
 * renderedContent markup (its shape only), the redirect tokens, the confidence values.
 */

import { digest } from './signatures.mjs';
import { answerSentences, answerText, searchesWeb, webSearches, webSources } from './web-search.mjs';
import { isRecord } from './wire.mjs';

/**
 * @typedef {import('./wire.mjs').Reply} Reply
 * @typedef {import('./wire.mjs').ChatPlan} ChatPlan
 */

/** @param {unknown} tool @param {string} camel @param {string} snake */
const hasField = (tool, camel, snake) => isRecord(tool) && (camel in tool || snake in tool);

/** @param {Record<string, unknown>} body @param {string} camel @param {string} snake */
const offers = (body, camel, snake) =>
  (Array.isArray(body.tools) ? body.tools : []).some((tool) => hasField(tool, camel, snake));

/** Whether the request grounds with Google Search. @param {Record<string, unknown>} body */
export const groundsWithSearch = (body) => offers(body, 'googleSearch', 'google_search');

/**
 * The legacy search tool, refused by Gemini 2 and later.
 * @param {Record<string, unknown>} body @param {string} model @returns {Reply | undefined}
 */
export function searchRetrievalError(body, model) {
  if (!offers(body, 'googleSearchRetrieval', 'google_search_retrieval') || /^gemini-1\./.test(model))
    return undefined;
  return {
    status: 400,
    body: {
      error: {
        code: 400,
        message: 'google_search_retrieval is not supported; please use google_search field instead.',
        status: 'INVALID_ARGUMENT',
      },
    },
  };
}

/** Google's search-suggestion chips for the queries: a style block and a row of links. @param {string[]} queries */
function renderedContent(queries) {
  const chips = queries
    .map(
      (query) =>
        `    <a class="chip" href="https://www.google.com/search?q=${encodeURIComponent(query).replace(/%20/g, '+')}&client=app-vertex-grounding&safesearch=active">${query.replace(/'/g, '&#39;')}</a>`,
    )
    .join('\n');
  return [
    '<style>',
    '.container { align-items: center; border-radius: 8px; display: flex; font-family: Google Sans, Roboto, sans-serif; font-size: 14px; line-height: 20px; padding: 8px 12px; }',
    '.chip { display: inline-block; border: solid 1px; border-radius: 16px; min-width: 14px; padding: 5px 16px; text-align: center; user-select: none; margin: 0 8px; }',
    '.carousel { overflow: auto; scrollbar-width: none; white-space: nowrap; margin-right: -12px; }',
    '</style>',
    '<div class="container">',
    '  <div class="headline">Google Search Suggestions</div>',
    '  <div class="carousel">',
    chips,
    '  </div>',
    '</div>',
    '',
  ].join('\n');
}

/** A grounding redirect address for a page: stable, opaque. @param {string} url */
const redirectUri = (url) =>
  `https://vertexaisearch.cloud.google.com/grounding-api-redirect/AUZIYQ${digest(url).replace(/[^A-Za-z0-9]/g, '')}`;

/** The confidence Gemini gives each cited source of a sentence (made up, fixed). */
const confidences = [0.97, 0.91, 0.88, 0.62];

/** The groundingMetadata of the answer: byte offsets into answerText. */
export function groundingMetadata() {
  let offset = 0;
  let confidence = 0;
  const groundingSupports = answerSentences.map((sentence) => {
    const start = offset;
    const end = start + Buffer.byteLength(sentence.text, 'utf8');
    offset = end + 1;
    return {
      segment: { ...(start > 0 && { startIndex: start }), endIndex: end, text: sentence.text },
      groundingChunkIndices: sentence.sources,
      confidenceScores: sentence.sources.map(() => confidences[confidence++] ?? 0.5),
    };
  });
  const queries = webSearches.map((search) => search.query);
  return {
    webSearchQueries: queries,
    searchEntryPoint: { renderedContent: renderedContent(queries) },
    groundingChunks: webSources.map((source) => ({
      web: { uri: redirectUri(source.url), title: source.domain },
    })),
    groundingSupports,
  };
}

/**
 * The grounded answer under a search scenario when the request offers Google Search.
 * @param {ChatPlan} plan
 */
export function geminiSearchTurn(plan) {
  if (!searchesWeb(plan.scenario) || !groundsWithSearch(plan.body)) return undefined;
  return { text: answerText, groundingMetadata: groundingMetadata() };
}
