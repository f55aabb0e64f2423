/**
 * How well what was typed matches an entry of a short list (a command, a conversation's name):
 * every typed word must be found, at the start of one of the title's words (best), elsewhere in
 * the title, in the entry's other words, or as the title's letters in order (a light fuzzy match:
 * "nwcv" finds "New conversation"). 0: no match; more is better.
 */
export function matchScore(query: string, title: string, keywords = ''): number {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return 1;
  const name = title.toLowerCase();
  const more = keywords.toLowerCase();
  let score = name.startsWith(words[0] ?? '') ? 1 : 0;
  for (const word of words) {
    const inName = found(word, name);
    const inMore = found(word, more);
    if (inName > 0) score += 2 + inName;
    else if (inMore > 0) score += inMore;
    else if (inOrder(word, name)) score += 0.5;
    else return 0;
  }
  return score;
}

/** 2: at the start of a word; 1: inside one; 0: not there. */
function found(word: string, text: string): number {
  const at = text.indexOf(word);
  if (at < 0) return 0;
  if (at === 0 || /[\s\-_:/.(]/.test(text[at - 1] ?? '')) return 2;
  // A later occurrence may start a word: "conv" in "reconvene conversation".
  return new RegExp(`(^|[\\s\\-_:/.(])${word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`).test(text) ? 2 : 1;
}

function inOrder(letters: string, text: string): boolean {
  let from = 0;
  for (const letter of letters) {
    const at = text.indexOf(letter, from);
    if (at < 0) return false;
    from = at + 1;
  }
  return true;
}

/** Lower case without spaces and separators: 'Sonnet 4.5' and 'claude-sonnet-4-5' meet as 'sonnet45'. */
function compact(text: string): string {
  return text.toLowerCase().replace(/[\s\-_.:/]+/g, '');
}

/**
 * Whether every typed word is in an identifier (a model id), separators and case ignored:
 * 'sonnet 4.5' finds 'claude-sonnet-4-5', 'gpt 4o' finds 'gpt-4o-mini'.
 */
export function matchesIdentifier(query: string, identifier: string): boolean {
  const id = compact(identifier);
  return query.split(/\s+/).every((word) => id.includes(compact(word)));
}
