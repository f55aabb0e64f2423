/**
 * Models write math four ways: `$…$`, `$$…$$`, `\(…\)` and `\[…\]`. remark-math reads the first
 * two; this turns the other two into them, outside code. A single `$` is math only by pandoc's
 * rule (a non-space right after the opening one, a non-space right before the closing one, and
 * no digit right after it), so prices stay prices. A formula not closed yet (a reply still
 * streaming) stays text: its opening delimiter is escaped.
 */

/** Code spans, escaped dollars, the four delimiters. */
const tokens = /(`+)[\s\S]*?\1|\\\$|\\\(|\\\)|\\\[|\\\]|\$\$|\$/g;

interface Token {
  text: string;
  index: number;
}

function tokenize(text: string): Token[] {
  return Array.from(text.matchAll(tokens), (match) => ({ text: match[0], index: match.index }));
}

/** The index (in `found`) of the token closing the formula opened at `from`, if any. */
function closing(found: Token[], from: number, closer: string, text: string): number | undefined {
  for (let at = from + 1; at < found.length; at++) {
    const token = found[at] as Token;
    if (token.text !== closer) continue;
    if (closer !== '$') return at;
    const open = found[from] as Token;
    const inside = text.slice(open.index + 1, token.index);
    const after = text[token.index + 1] ?? '';
    if (inside !== '' && !/^\s/.test(inside) && !/\s$/.test(inside) && !/\d/.test(after)) return at;
    return undefined;
  }
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
  const replacements = new Map<number, string>();
  for (let at = 0; at < found.length; at++) {
    const token = found[at] as Token;
    const rule = delimiters[token.text];
    if (!rule) continue;
    const [closer, open, close] = rule;
    const end = closing(found, at, closer, text);
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
