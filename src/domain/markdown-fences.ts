/** The longest run of backticks in `text`. */
export function longestTicks(text: string): number {
  let longest = 0;
  for (const run of text.matchAll(/`+/g)) longest = Math.max(longest, run[0].length);
  return longest;
}

/**
 * `text` as a fenced code block: the fence is longer than any run of backticks in it, so no line
 * of it can close the block (CommonMark), whatever a tool or a model wrote.
 */
export function fenced(text: string, language = ''): string {
  const fence = '`'.repeat(Math.max(3, longestTicks(text) + 1));
  return `${fence}${language}\n${text}\n${fence}`;
}
