// @ts-check
/**
 * The `long-researched` scenario (bench): a long answer that searched the web and drew a picture,
 * on OpenAI's Responses API. It only combines what the other modules write as the real API does
 * (openai-search.mjs: web_search_call items, url_citation annotations, the `sources`;
 * openai-code.mjs: image_generation_call items and their partial images; openai-responses.mjs: the
 * events), at the size of the bench's long reply.
 *
 * When the request offers a `web_search` tool and an `image_generation` tool, the output is a
 * reasoning item, one `web_search_call` (a search whose `sources`, when `include` asks for
 * `web_search_call.action.sources`, are the 30 pages), then the answer: the text of the `long`
 * scenario (markdownReply(6000), unchanged), in two message items with the picture drawn between
 * them: a first message up to the end of the line nearest a third of the text, the
 * `image_generation_call` (as under `image`: in_progress, generating, one partial_image per preview
 * the tool asks for, `partial_images` 0-3, completed, then output_item.done with the whole `result`),
 * then a second message with the rest (items one after another, each done before the next is
 * added, as in every recorded stream; that a picture drawn mid-answer splits the text into two
 * message items this way is [A]). Joined, the two texts are the `long` text. Its output_text
 * parts carry 30 `url_citation` annotations, one per page (30 distinct https addresses and titles),
 * on spans spread evenly through the text: each the prose of a line outside the code blocks (a
 * paragraph, a list item, a quote), never the last line ("That is all."); each index counts in its
 * own part. Unlike the recorded answers (an inline `([domain](url))` link that the annotation
 * covers), the text keeps no link, so that it stays the `long` text. The picture is a 1024×1024 PNG
 * of the four coloured quadrants with noise in each channel's low bits, so that it does not
 * compress: 2.17 MB (2.9 MB of base64), built once; the previews are 256×256, the top third and
 * two thirds drawn. Without both tools: as `long`.
 */

import { encodePng } from '../png.mjs';
import { markdownReply } from './markdown.mjs';
import { imageGenerationCall, toolOf } from './openai-code.mjs';
import { hexId } from './tools.mjs';
import { isRecord } from './wire.mjs';

/**
 * @typedef {import('./wire.mjs').ChatPlan} ChatPlan
 * @typedef {(type: string, fields: Record<string, unknown>) => string} EventWriter
 * @typedef {{ url: string, title: string }} ResearchedSource
 * @typedef {{ start: number, end: number }} Span
 */

export const researchedScenario = 'long-researched';

/** The answer: the `long` scenario's text. */
export const researchedText = markdownReply(6000);

/** How many pages the answer cites, each once. */
export const researchedCitationCount = 30;

const reasoningBeforeSearch =
  '**Researching**\n\nI will search the web for worked examples, cite each page where it is used, and draw a picture for the answer.';
const searchQuery = 'worked examples of ranking records in typescript python bash sql rust json';
const revisedPrompt =
  'Four coloured quadrants, red, blue, green and amber, with a fine grain of noise over them.';

/**
 * The prose of each line outside fenced code blocks, in order: paragraphs, list items and quotes
 * (their markers left out), not headings, table rows or the closing "That is all.".
 * @param {string} text
 * @returns {Span[]}
 */
function proseSpans(text) {
  /** @type {Span[]} */
  const spans = [];
  let inFence = false;
  let lineStart = 0;
  for (const line of text.split('\n')) {
    const start = lineStart;
    lineStart += line.length + 1;
    if (line.startsWith('```')) {
      inFence = !inFence;
      continue;
    }
    if (inFence || line.trim() === '' || /^(#|\|)/.test(line) || line === 'That is all.') continue;
    const prefix = /^\s*(?:[-*]|\d+\.|>)\s+/.exec(line)?.[0].length ?? 0;
    spans.push({ start: start + prefix, end: start + line.length });
  }
  return spans;
}

/**
 * `count` spans, spread evenly: for each of `count` equal stretches of the text, the unused span
 * whose end lies nearest the stretch's middle; in order.
 * @param {string} text @param {number} count
 */
function spreadSpans(text, count) {
  const candidates = proseSpans(text);
  const used = new Set();
  for (let k = 0; k < count; k++) {
    const target = ((k + 0.5) * text.length) / count;
    let best = -1;
    for (const [index, span] of candidates.entries()) {
      if (used.has(index)) continue;
      const bestSpan = candidates[best];
      if (!bestSpan || Math.abs(span.end - target) < Math.abs(bestSpan.end - target)) best = index;
    }
    used.add(best);
  }
  return [...used].sort((a, b) => a - b).map((index) => /** @type {Span} */ (candidates[index]));
}

const domains = ['example.com', 'example.org', 'example.net'];

/** A few words of a span, for its page's address and title. @param {string} text */
const slugOf = (text) =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 40)
    .replace(/-$/, '');

/**
 * The cited spans (indexes into researchedText) and their pages, one page per span, in order.
 * The addresses are the pages'; the annotations add `?utm_source=openai`, as OpenAI's do.
 */
export const researchedCitations = spreadSpans(researchedText, researchedCitationCount).map((span, index) => {
  const number = index + 1;
  const slug = slugOf(researchedText.slice(span.start, span.end)) || 'notes';
  const domain = domains[index % domains.length] ?? 'example.com';
  /** @type {ResearchedSource} */
  const source = {
    url: `https://${domain}/research/${String(number).padStart(2, '0')}-${slug}`,
    title: `Research note ${number}: ${researchedText.slice(span.start, span.end).slice(0, 60)}`,
  };
  return { ...span, source };
});

/**
 * Where the first message ends and the picture is drawn: the end of the prose line (outside a
 * code block) nearest a third of the text. A cited span lies within a line, so none is cut, and
 * the streamed pieces of the two parts are those of the whole text (a piece ends where a word does).
 */
export const researchedSplit = proseSpans(researchedText).reduce(
  (best, span) =>
    Math.abs(span.end - researchedText.length / 3) < Math.abs(best - researchedText.length / 3)
      ? span.end
      : best,
  0,
);

/**
 * The picture: the four quadrants of the test picture (tools/png.mjs), each channel's low bits
 * noise from a fixed generator, so that deflate finds little to shrink (2.17 MB at 1024×1024);
 * rows from `drawnRows` on black (a preview).
 * @param {number} size @param {number} [drawnRows]
 */
function noisyQuadrantsPng(size, drawnRows = size) {
  const colours = [
    [0xe1, 0x1d, 0x48],
    [0x25, 0x63, 0xeb],
    [0x16, 0xa3, 0x4a],
    [0xf5, 0x9e, 0x0b],
  ];
  // The noise bits per channel: red and green the low four, blue the low three.
  const masks = [0x0f, 0x0f, 0x07];
  let state = 0x2545f491;
  /** xorshift32 @param {number} mask */
  const noise = (mask) => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return state & mask;
  };
  const black = [0, 0, 0];
  return encodePng(size, size, (x, y) => {
    if (y >= drawnRows) return black;
    const colour = colours[(y < size / 2 ? 0 : 2) + (x < size / 2 ? 0 : 1)] ?? black;
    return colour.map((channel, index) => {
      const mask = masks[index] ?? 0;
      return (channel & ~mask) | noise(mask);
    });
  });
}

/** @type {Buffer | undefined} */
let picture;

/** The drawn picture, a ~2 MB PNG of 1024×1024, built on first use and kept. */
export function researchedPng() {
  picture ??= noisyQuadrantsPng(1024);
  return picture;
}

/** @type {Map<string, string>} */
const previews = new Map();

/**
 * A preview of the picture being drawn, base64: 256×256, the top `(index + 1) / (count + 1)` drawn.
 * @param {number} index @param {number} count
 */
export function researchedPreviewBase64(index, count) {
  const key = `${index}/${count}`;
  let preview = previews.get(key);
  if (preview === undefined) {
    preview = noisyQuadrantsPng(256, Math.round(((index + 1) * 256) / (count + 1))).toString('base64');
    previews.set(key, preview);
  }
  return preview;
}

/** The web search tool types of the Responses API (openai-search.mjs). @param {unknown} tool */
const isSearchTool = (tool) => isRecord(tool) && String(tool.type).startsWith('web_search');

/**
 * The annotations of the text from `from` to `to`, their indexes counted from `from` (ASCII text:
 * characters and code points agree).
 * @param {number} from @param {number} to
 */
const annotationsIn = (from, to) =>
  researchedCitations
    .filter((cited) => cited.start >= from && cited.end <= to)
    .map((cited) => ({
      type: 'url_citation',
      end_index: cited.end - from,
      start_index: cited.start - from,
      title: cited.source.title,
      url: `${cited.source.url}?utm_source=openai`,
    }));

/**
 * The turn under long-researched with both tools offered, as openai-responses.mjs writes a
 * server tool turn: the steps before the last message (a reasoning item, the search, the first
 * message, the picture), then the last message's text and annotations.
 * @param {ChatPlan} plan
 */
export function responsesResearchedTurn(plan) {
  if (plan.scenario !== researchedScenario) return undefined;
  const tools = Array.isArray(plan.body.tools) ? plan.body.tools : [];
  const imageTool = toolOf(plan.body, 'image_generation');
  if (!tools.some(isSearchTool) || !isRecord(imageTool)) return undefined;
  const include = Array.isArray(plan.body.include) ? plan.body.include : [];
  const search = {
    id: hexId('ws_'),
    type: 'web_search_call',
    status: 'completed',
    action: {
      type: 'search',
      query: searchQuery,
      ...(include.includes('web_search_call.action.sources') && {
        sources: researchedCitations.map((cited) => ({ type: 'url', url: cited.source.url })),
      }),
    },
  };
  const { item: image, callFrames: imageFrames } = imageGenerationCall(
    imageTool,
    researchedPng().toString('base64'),
    researchedPreviewBase64,
    revisedPrompt,
  );
  const split = researchedSplit;
  return {
    steps: [
      { kind: /** @type {const} */ ('reasoning'), text: reasoningBeforeSearch },
      { kind: /** @type {const} */ ('call'), item: search },
      {
        kind: /** @type {const} */ ('message'),
        text: researchedText.slice(0, split),
        annotations: annotationsIn(0, split),
      },
      { kind: /** @type {const} */ ('call'), item: image, callFrames: imageFrames },
    ],
    text: researchedText.slice(split),
    annotations: annotationsIn(split, researchedText.length),
  };
}
