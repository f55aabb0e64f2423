/**
 * The first `limit` characters of a text from somewhere hostile (a tool, a server), never half of
 * a character of two UTF-16 units, and whether more follow: what is shown of it stays bounded.
 */
export function boundedText(text: string, limit: number): { shown: string; cut: boolean } {
  if (text.length <= limit) return { shown: text, cut: false };
  const before = text.charCodeAt(limit - 1);
  const end = before >= 0xd800 && before <= 0xdbff ? limit - 1 : limit;
  return { shown: text.slice(0, end), cut: true };
}
