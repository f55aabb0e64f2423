import type { WebSource } from '../domain/web-search.ts';
import type { StreamPart } from './types.ts';

/**
 * What the clients share for the providers' own web search: sources as the app keeps them, and
 * the offsets each API gives for a cited span turned into UTF-16 offsets (docs/providers.md#web-search).
 */

/**
 * A page as a source: its address and, when the provider named it, its title. OpenAI tags the
 * addresses it cites with `utm_source=openai`; that tag is dropped, so a page cited and the same
 * page listed among the sources are one source. Undefined for a missing address.
 */
export function webSource(url: string | undefined, title?: string): WebSource | undefined {
  if (!url) return undefined;
  const source = { url: withoutOpenAiTag(url) };
  const name = title?.trim();
  return name ? { ...source, title: name } : source;
}

function withoutOpenAiTag(url: string): string {
  if (!url.includes('utm_source=openai')) return url;
  try {
    const parsed = new URL(url);
    if (parsed.searchParams.get('utm_source') !== 'openai') return url;
    parsed.searchParams.delete('utm_source');
    return parsed.href;
  } catch {
    return url;
  }
}

/** A `web-source` part for a page, or nothing when it has no address. */
export function* sourcePart(url: string | undefined, title?: string): Generator<StreamPart> {
  const source = webSource(url, title);
  if (source) yield { type: 'web-source', source };
}

/**
 * The UTF-16 offset in `text` after its first `count` characters (code points): OpenAI's annotation
 * indices count characters, as its Python services do. Past the end: the text's length.
 */
export function codePointsToUtf16(text: string, count: number): number {
  let offset = 0;
  for (let seen = 0; seen < count && offset < text.length; seen++) {
    const code = text.codePointAt(offset) ?? 0;
    offset += code > 0xffff ? 2 : 1;
  }
  return offset;
}

/** How many bytes a code point takes in UTF-8. */
function utf8Length(code: number): number {
  return code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
}

/**
 * The UTF-16 offset in `text` at UTF-8 byte `bytes` (Gemini's grounding offsets count bytes). An
 * offset inside a character counts that whole character; past the end: the text's length.
 */
export function utf8BytesToUtf16(text: string, bytes: number): number {
  let offset = 0;
  let seen = 0;
  while (seen < bytes && offset < text.length) {
    const code = text.codePointAt(offset) ?? 0;
    seen += utf8Length(code);
    offset += code > 0xffff ? 2 : 1;
  }
  return offset;
}
