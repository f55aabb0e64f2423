// @ts-check

/**
 * Splits text into the pieces the mock streams: each piece is leading whitespace plus up to 8
 * characters (code points, so a character is never split). Joined, the pieces are the text again.
 * @param {string} text
 * @returns {string[]}
 */
export function tokenize(text) {
  return text.match(/\s*\S{1,8}|\s+/gu) ?? [];
}
