// @ts-check
/**
 * The providers' own web search, shared by every API: one fixed answer, drawn from two searches
 * and three pages, that each API's module writes in its own wire format (docs of each below, and
 * in openai-search.mjs, anthropic-search.mjs, gemini-tools.mjs).
 *
 * Scenarios (the key's name, as for every scenario): `search` answers with searches and citations
 * when the request asks for web search, and with the plain Echo when it does not, so a test can
 * see that a switch changed the request. Asking means: Responses `tools` with a `web_search*`
 * tool; Chat Completions a `*-search-preview` model (they always search); Anthropic a
 * `web_search_YYYYMMDD` server tool; Gemini a `googleSearch` tool; Groq a compound model
 * (`groq/compound`, `groq/compound-mini`), which searches unasked. `search-pause`,
 * `search-failed` and `search-disabled` change Anthropic's answer (see scenarios.mjs) and act as
 * `search` elsewhere.
 *
 * The answer is the same three sentences everywhere (OpenAI's without the emoji, whose index
 * unit is unknown; see openaiAnswer), each citing its page: Everest (above sea level), Mauna Kea
 * (base to peak), Chimborazo (farthest from Earth's centre, citing the Everest page too). It holds
 * multi-byte text before cited spans ('ā', 'ʻ', and on Gemini an emoji), so byte, code point and
 * UTF-16 offsets all differ.
 */

/**
 * @typedef {object} WebSource
 * @property {string} url
 * @property {string} title
 * @property {string} domain
 * @property {string | null} pageAge Anthropic's page_age.
 * @property {string} snippet What the page says: Anthropic's cited_text, Groq's content.
 * @property {number} score Groq's relevance score.
 */

/** @type {readonly WebSource[]} */
export const webSources = [
  {
    url: 'https://example.com/mountains/everest',
    title: 'Mount Everest: The Highest Mountain on Earth',
    domain: 'example.com',
    pageAge: 'April 30, 2025',
    snippet: 'Mount Everest rises 8,849 metres (29,032 ft) above sea level, the highest summit on Earth.',
    score: 0.93,
  },
  {
    url: 'https://example.org/volcanoes/mauna-kea',
    title: 'Mauna Kea, Tallest from Base to Peak',
    domain: 'example.org',
    pageAge: 'March 2, 2024',
    snippet: 'Measured from its base on the Pacific Ocean floor, Mauna Kea is about 10,210 metres tall.',
    score: 0.87,
  },
  {
    url: 'https://example.net/andes/chimborazo',
    title: "Chimborazo, the Summit Farthest from Earth's Centre",
    domain: 'example.net',
    pageAge: null,
    snippet:
      "Because Earth bulges at the equator, Chimborazo's summit is the point farthest from its centre.",
    score: 0.81,
  },
];

/** The searches, in order, and the pages (indexes into webSources) each finds. */
export const webSearches = [
  { query: 'tallest mountain in the world', sources: [0, 1] },
  { query: "Chimborazo farthest point from Earth's centre", sources: [2] },
];

/** The emoji of the first sentence, left out of OpenAI's answer. */
const peakEmoji = ' 🏔';

/** The answer's sentences, joined by one space, and the pages each cites. */
export const answerSentences = [
  {
    text: `Mount Everest (Sagarmāthā)${peakEmoji} is the tallest mountain above sea level: its summit stands at 8,849 m.`,
    sources: [0],
  },
  {
    text: 'Measured from its base on the ocean floor, Mauna Kea in Hawaiʻi is taller, at about 10,210 m.',
    sources: [1],
  },
  {
    text: "Chimborazo in Ecuador, though lower than Everest, has the summit farthest from Earth's centre.",
    sources: [2, 0],
  },
];

/** The answer as Gemini and Groq give it: the sentences, no citation marks. */
export const answerText = answerSentences.map((sentence) => sentence.text).join(' ');

/** Anthropic's answer opens with this uncited text block. */
export const anthropicLead = 'Based on the search results, ';

/** Anthropic's last sentence under search-failed (the second search hit max_uses): uncited. */
export const failedSearchSentence =
  "I could not run a second search (the search limit was reached), so which summit is farthest from Earth's centre is unconfirmed.";

/** The reasoning of the Responses API between its searches, and of Groq's compound models. */
export const searchReasoning = [
  '**Searching the web**\n\nThe question is which mountain is the tallest. I will search for it.',
  "**Checking a second measure**\n\nEverest is highest above sea level, Mauna Kea from base to peak. One more search: the summit farthest from Earth's centre.",
  '**Reading a page**\n\nI will open the Everest page to confirm its height.',
  '**Writing the answer**\n\nThree measures, three pages: I will cite each where it is used.',
];

/** The scenarios that search the web (when the request asks for it). */
const searchScenarios = ['search', 'search-pause', 'search-failed', 'search-disabled'];

/** @param {string} scenario */
export const searchesWeb = (scenario) => searchScenarios.includes(scenario);

/** The address OpenAI links to: the page's, with its utm_source. @param {WebSource} source */
const openaiUrl = (source) => `${source.url}?utm_source=openai`;

/**
 * OpenAI's answer (Responses and the Chat Completions search models): each sentence followed by a
 * space and its first page as an inline markdown link, `([domain](url))`; each citation's
 * start/end index covers exactly that link, parentheses included, as recorded answers do (a 2025
 * gpt-5-nano stream: `text.slice(327, 414)` is `([wallpaper.com](https://…))`). The emoji is left
 * out: whether OpenAI counts code points or UTF-16 units is not known, and without characters
 * outside the BMP the two agree; 'ā' and 'ʻ' before the links still make bytes differ.
 */
export function openaiAnswer() {
  let text = '';
  const citations = [];
  for (const [index, sentence] of answerSentences.entries()) {
    const source = webSources[sentence.sources[0] ?? 0] ?? /** @type {WebSource} */ (webSources[0]);
    const url = openaiUrl(source);
    const link = `([${source.domain}](${url}))`;
    text += `${index > 0 ? ' ' : ''}${sentence.text.replace(peakEmoji, '')} `;
    citations.push({ start: text.length, end: text.length + link.length, title: source.title, url });
    text += link;
  }
  return { text, citations };
}
