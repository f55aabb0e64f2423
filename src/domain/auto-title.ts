import { messageText, type Conversation } from './conversation.ts';
import { activePath } from './message-tree.ts';

/**
 * Naming a conversation after its first reply: what the model is asked, and what of its answer
 * becomes the name.
 */

const instruction =
  'You name conversations. Reply with a title of two to six words for the conversation below, in its language. Reply with the title only: no quotes, no final punctuation.';

/** How much of the question and the reply the model is shown: enough to tell the subject. */
const excerptLength = 1500;
/** The longest name kept; a longer answer is cut at a word. */
const maxTitleLength = 60;

/** The first exchange, when the conversation has just had its first reply and was never renamed. */
export function firstExchange(conversation: Conversation): { question: string; answer: string } | null {
  if (conversation.renamedAt) return null;
  const path = activePath(conversation).filter((message) => message.role !== 'system');
  const [question, answer] = path;
  if (path.length !== 2 || question?.role !== 'user' || answer?.role !== 'assistant') return null;
  if (answer.status !== undefined) return null;
  const answerText = messageText(answer).trim();
  if (!answerText) return null;
  return { question: messageText(question).trim(), answer: answerText };
}

/** The messages of the title request. */
export function titlePrompt({ question, answer }: { question: string; answer: string }) {
  const cut = (text: string) => (text.length > excerptLength ? `${text.slice(0, excerptLength)}…` : text);
  return [
    { role: 'system' as const, content: instruction },
    { role: 'user' as const, content: `User: ${cut(question)}\n\nAssistant: ${cut(answer)}` },
  ];
}

/**
 * A name from the model's answer: its first line without markdown, quotes, a 'Title:' label or a
 * final stop, at most 60 characters; null when nothing is left.
 */
export function cleanTitle(raw: string): string | null {
  const answer = withoutThinking(raw);
  const line = answer.split('\n').find((candidate) => candidate.trim() !== '') ?? '';
  // A trailing run is tried only from its first character (the lookbehinds): tried from each of
  // its characters, a long run followed by other text took quadratic time.
  let title = line
    .replace(/^\s*#+\s*/, '')
    .replace(/[*_`]/g, '')
    .replace(/^\s*(title|titre|título|titel)\s*:\s*/i, '')
    .replace(/^["'“”‘’«»\s]+|(?<!["'“”‘’«»\s])["'“”‘’«»\s]+$/g, '')
    .replace(/(?<![.!?:;,。])[.!?:;,。]+$/u, '')
    .replace(/\s+/g, ' ')
    .trim();
  if (title.length > maxTitleLength) {
    const cut = title.slice(0, maxTitleLength);
    const space = title[maxTitleLength] === ' ' ? maxTitleLength : cut.lastIndexOf(' ');
    title = space > 20 ? cut.slice(0, space) : cut;
  }
  return title === '' ? null : title;
}

/**
 * The text without its `<think>…</think>` sections. A scan: the regex `<think>[\s\S]*?<\/think>`
 * looked for a closing tag to the end of the text from every opening one, quadratic in them.
 */
function withoutThinking(text: string): string {
  let kept = '';
  let from = 0;
  for (;;) {
    const open = text.indexOf('<think>', from);
    const close = open < 0 ? -1 : text.indexOf('</think>', open + '<think>'.length);
    if (close < 0) return kept + text.slice(from);
    kept += text.slice(from, open);
    from = close + '</think>'.length;
  }
}
