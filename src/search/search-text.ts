import { messageText, type Conversation, type Message } from '../domain/conversation.ts';

/**
 * What the index and the snippets agree a word is: a run of letters, digits and combining marks.
 * Everything else (spaces, punctuation, markdown's symbols) separates words.
 */
const wordPattern = /[\p{L}\p{N}\p{M}]+/gu;

export function tokenize(text: string): string[] {
  return text.match(wordPattern) ?? [];
}

export const normalizeTerm = (term: string): string => term.toLowerCase();

/** A piece of a snippet or name; `mark`: a matched word. */
export interface Segment {
  text: string;
  mark?: true;
}

/** The messages that are searched: what the user and the models wrote, not the system prompt. */
export function searchedMessages(conversation: Conversation) {
  return conversation.messages.filter((message) => message.role !== 'system');
}

/** Of one message, the characters of its tools' results that are searched: results can be whole pages. */
export const searchedResultLength = 50_000;

/**
 * The text searched in a message: its answer (messageText), and the names of the tools it used and
 * the text of what they returned (up to searchedResultLength), in order; never reasoning or a
 * call's arguments; and the titles of the pages it cited. A message without tools or sources is
 * searched by its text alone.
 */
export function searchedText(message: Message): string {
  const answer = answerText(message);
  // The titles of the pages a reply cited: a search for the page finds the answer that used it.
  const titles = (message.web?.sources ?? []).flatMap((source) => (source.title ? [source.title] : []));
  return titles.length > 0 ? `${answer}\n\n${titles.join('\n')}` : answer;
}

function answerText(message: Message): string {
  if (!message.parts.some((part) => part.type === 'tool-call' || part.type === 'tool-result'))
    return messageText(message);
  let text = '';
  let apart = false;
  let room = searchedResultLength;
  const add = (piece: string) => {
    if (piece === '') return;
    text += apart && text !== '' ? `\n\n${piece}` : piece;
    apart = false;
  };
  for (const part of message.parts) {
    if (part.type === 'text') {
      add(part.text);
      continue;
    }
    apart = true;
    if (part.type === 'tool-call') add(part.name);
    if (part.type === 'tool-result')
      for (const item of part.content)
        if (item.type === 'text' && room > 0) {
          const piece = item.text.slice(0, room);
          room -= piece.length;
          add(piece);
          apart = true;
        }
    apart = true;
  }
  return text;
}

/** The document the index holds for a conversation: its name and every branch's texts, no reasoning. */
export function searchDocument(conversation: Conversation): { id: string; name: string; text: string } {
  const text = searchedMessages(conversation).map(searchedText).join('\n');
  return { id: conversation.id, name: conversation.name, text };
}

interface Hit {
  start: number;
  end: number;
  term: string;
}

/**
 * Finds the matched words in texts: one regular expression for all of them, whole words, any
 * case. Scanning with it is several times faster than splitting every text into words.
 */
export function termMatcher(terms: ReadonlySet<string>): RegExp {
  // Longest first, so a word is matched whole rather than by a shorter term it starts with.
  const words = [...terms]
    .sort((a, b) => b.length - a.length)
    .map((term) => term.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  if (words.length === 0) return /(?!)/gu;
  return new RegExp(`(?<![\\p{L}\\p{N}\\p{M}])(?:${words.join('|')})(?![\\p{L}\\p{N}\\p{M}])`, 'giu');
}

function hitsIn(text: string, matcher: RegExp): Hit[] {
  const hits: Hit[] = [];
  for (const word of text.matchAll(matcher))
    hits.push({ start: word.index, end: word.index + word[0].length, term: normalizeTerm(word[0]) });
  return hits;
}

const collapse = (text: string) => text.replace(/\s+/g, ' ');

/** `text` cut into plain and marked pieces, whitespace collapsed. */
function segments(text: string, hits: readonly Hit[], from: number, to: number): Segment[] {
  const out: Segment[] = [];
  let at = from;
  for (const hit of hits) {
    if (hit.start < from || hit.end > to) continue;
    if (hit.start > at) out.push({ text: collapse(text.slice(at, hit.start)) });
    out.push({ text: text.slice(hit.start, hit.end), mark: true });
    at = hit.end;
  }
  if (to > at) out.push({ text: collapse(text.slice(at, to)) });
  return out;
}

/** A name with its matched words marked. */
export function markTerms(text: string, matcher: RegExp): Segment[] {
  return segments(text, hitsIn(text, matcher), 0, text.length);
}

/** Characters of context before the first marked word, and the snippet's length. */
const lead = 40;
const snippetLength = 160;

/**
 * A stretch of `text` around its matches: the window that holds the most different matched
 * words, starting a little before the first of them at a word's start.
 */
function snippet(text: string, hits: readonly Hit[]): Segment[] {
  const considered = hits.slice(0, 200);
  let first = considered[0]?.start ?? 0;
  let bestCount = 0;
  considered.forEach((hit, i) => {
    const terms = new Set<string>();
    for (const later of considered.slice(i)) {
      if (later.end > hit.start + snippetLength - lead) break;
      terms.add(later.term);
    }
    if (terms.size > bestCount) {
      bestCount = terms.size;
      first = hit.start;
    }
  });
  let from = Math.max(0, first - lead);
  if (from > 0) {
    const space = text.slice(from, first).search(/\s/);
    from = space === -1 ? first : from + space + 1;
  }
  let to = Math.min(text.length, from + snippetLength);
  if (to < text.length) {
    const space = text.slice(first, to).lastIndexOf(' ');
    if (space > 0) to = first + space;
  }
  const out = segments(text, hits, from, to);
  if (from > 0) out.unshift({ text: '…' });
  if (to < text.length) out.push({ text: '…' });
  return out;
}

export interface MessageMatch {
  messageId: string;
  createdAt: string;
  snippet: Segment[];
}

/**
 * The message that best holds the matched words (most different ones, then most often; the
 * earlier on a tie), any branch, with a snippet; undefined when only the name matched.
 */
export function bestMessage(conversation: Conversation, matcher: RegExp): MessageMatch | undefined {
  let best: { text: string; hits: Hit[]; id: string; createdAt: string; score: number } | undefined;
  for (const message of searchedMessages(conversation)) {
    const text = searchedText(message);
    const hits = hitsIn(text, matcher);
    if (hits.length === 0) continue;
    const score = new Set(hits.map((hit) => hit.term)).size * 1e6 + hits.length;
    if (!best || score > best.score)
      best = { text, hits, id: message.id, createdAt: message.createdAt, score };
  }
  if (!best) return undefined;
  return { messageId: best.id, createdAt: best.createdAt, snippet: snippet(best.text, best.hits) };
}
