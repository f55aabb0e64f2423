/**
 * Models write math four ways: `$…$`, `$$…$$`, `\(…\)` and `\[…\]`. remark-math reads the first
 * two; this turns the other two into them, outside code. A single `$` is math only by pandoc's
 * rule (a non-space right after the opening one, a non-space right before the closing one, and
 * no digit right after it), so prices stay prices. A formula not closed yet (a reply still
 * streaming) stays text: its opening delimiter is escaped.
 */

/** Backtick runs, escaped dollars, the four delimiters. */
const tokens = /`+|\\[$()[\]]|\$\$?/g;

interface Token {
  text: string;
  index: number;
}

/**
 * The escaped dollars and delimiters outside code spans. A code span opens with a run of backticks
 * and closes at the next run of the same length; a run that never closes is text (CommonMark).
 * Each run's closer is found in one pass from the end, so this stays linear on any text (a regex
 * with a backreference, `(`+)[\s\S]*?\1`, took 1.4 s on 50,000 backticks).
 */
function tokenize(text: string): Token[] {
  const found = Array.from(text.matchAll(tokens), (match) => ({ text: match[0], index: match.index }));
  const closers = new Int32Array(found.length).fill(-1);
  const nextRun = new Map<number, number>();
  for (let at = found.length - 1; at >= 0; at--) {
    const { text: token } = found[at] as Token;
    if (!token.startsWith('`')) continue;
    closers[at] = nextRun.get(token.length) ?? -1;
    nextRun.set(token.length, at);
  }
  const outside: Token[] = [];
  for (let at = 0; at < found.length; at++) {
    const token = found[at] as Token;
    if (!token.text.startsWith('`')) outside.push(token);
    else if ((closers[at] as number) >= 0) at = closers[at] as number;
  }
  return outside;
}

/**
 * For each token, the index of the next token of each closing kind: one pass from the end, so
 * finding closers stays linear however many openers never close (a reply is hostile input).
 */
function nextClosers(found: Token[]): Map<string, Int32Array> {
  const next = new Map<string, Int32Array>();
  for (const closer of ['\\)', '\\]', '$$', '$']) {
    const positions = new Int32Array(found.length + 1).fill(-1);
    for (let at = found.length - 1; at >= 0; at--)
      positions[at] = (found[at] as Token).text === closer ? at : (positions[at + 1] as number);
    next.set(closer, positions);
  }
  return next;
}

/** The index (in `found`) of the token closing the formula opened at `from`, if any. */
function closing(
  found: Token[],
  next: Map<string, Int32Array>,
  from: number,
  closer: string,
  text: string,
): number | undefined {
  const at = next.get(closer)?.[from + 1] ?? -1;
  if (at < 0) return undefined;
  if (closer !== '$') return at;
  const open = found[from] as Token;
  const token = found[at] as Token;
  const inside = text.slice(open.index + 1, token.index);
  const after = text[token.index + 1] ?? '';
  if (inside !== '' && !/^\s/.test(inside) && !/\s$/.test(inside) && !/\d/.test(after)) return at;
  return undefined;
}

/** Opening delimiter → its closer, and what the pair becomes for remark-math. */
const delimiters: Readonly<Record<string, readonly [string, string, string]>> = {
  '\\(': ['\\)', '$', '$'],
  '\\[': ['\\]', '$$', '$$'],
  $$: ['$$', '$$', '$$'],
  $: ['$', '$', '$'],
};

export function normalizeMath(text: string): string {
  const found = tokenize(text);
  const next = nextClosers(found);
  const replacements = new Map<number, string>();
  for (let at = 0; at < found.length; at++) {
    const token = found[at] as Token;
    const rule = delimiters[token.text];
    if (!rule) continue;
    const [closer, open, close] = rule;
    const end = closing(found, next, at, closer, text);
    if (end === undefined) {
      // Not (yet) a formula: shown as written.
      replacements.set(
        at,
        token.text.startsWith('\\') ? `\\${token.text}` : token.text.replace(/\$/g, '\\$'),
      );
      continue;
    }
    replacements.set(at, open);
    replacements.set(end, close);
    at = end;
  }
  if (replacements.size === 0) return text;
  let result = '';
  let last = 0;
  found.forEach((token, at) => {
    const replacement = replacements.get(at);
    if (replacement === undefined) return;
    result += text.slice(last, token.index) + replacement;
    last = token.index + token.text.length;
  });
  return result + text.slice(last);
}

/** Whether a block (as normalized) holds a formula: an unescaped `$` outside code. */
export function hasMath(normalized: string): boolean {
  return tokenize(normalized).some((token) => token.text === '$' || token.text === '$$');
}
