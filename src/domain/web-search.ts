/**
 * The providers' own web search: what a reply searched, the pages its answer draws on, and where
 * the answer cites them. Kept with the reply (Message.web) and shown under it; never sent to a
 * provider as anything but the answer's text.
 */

/** A page a reply's answer draws on, as the provider named it. Nothing is fetched from it. */
export interface WebSource {
  /** An http(s) address (Gemini's are short-lived redirects to the page). */
  url: string;
  /** The page's title as the provider gave it (Gemini gives the bare domain). */
  title?: string;
}

/** A search the provider ran while answering. */
export interface WebSearchRun {
  /** What it searched for ('' when the provider did not say). */
  query: string;
  /** Why it failed, in the provider's words (Anthropic's `error_code`). */
  failed?: string;
  /** Still running, while the reply streams; never stored. */
  searching?: true;
}

/**
 * Where the answer cites a source: the marker goes after the cited span, at `at` (UTF-16 offset
 * in the reply's answer text, the concatenation of its text parts as messageText joins them).
 */
export interface Citation {
  at: number;
  /** Index into WebResearch.sources. */
  source: number;
  /** The text the source supports, where the provider gave it (shown on the marker's hover). */
  citedText?: string;
}

export interface WebResearch {
  searches: WebSearchRun[];
  /** Each page once, in the order first cited or found: markers are numbered by it, from 1. */
  sources: WebSource[];
  citations: Citation[];
  /**
   * Gemini's search suggestions (`searchEntryPoint.renderedContent`): HTML Google requires to be
   * shown as given, rendered only in a sandboxed frame, inert.
   */
  suggestions?: string;
}

/** Bounds on what a reply keeps of its research (what a provider or an imported file sends is hostile). */
export const webLimits = {
  searches: 100,
  sources: 500,
  citations: 2000,
  url: 2048,
  title: 500,
  query: 1000,
  citedText: 2000,
  failed: 200,
  /** Gemini's suggestions are a few kilobytes of HTML and CSS. */
  suggestions: 100_000,
} as const;

/** A source as kept: an http(s) address within bounds, its title trimmed; null when it cannot be kept. */
export function keptSource(source: { url?: unknown; title?: unknown }): WebSource | null {
  if (typeof source.url !== 'string' || source.url.length > webLimits.url) return null;
  let url: URL;
  try {
    url = new URL(source.url);
  } catch {
    return null;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
  // Checked as kept: normalising can make an address much longer (escaped non-ASCII).
  if (url.href.length > webLimits.url) return null;
  const title = typeof source.title === 'string' ? source.title.trim().slice(0, webLimits.title) : '';
  return { url: url.href, ...(title && { title }) };
}

/**
 * The research with a source added once (by address; a title found later fills one missing) and
 * the source's index, or the research unchanged and no index when it cannot be kept.
 */
export function addSource(
  research: WebResearch,
  source: WebSource,
): { research: WebResearch; index: number | undefined } {
  const kept = keptSource(source);
  if (!kept) return { research, index: undefined };
  const index = research.sources.findIndex((known) => known.url === kept.url);
  if (index !== -1) {
    const known = research.sources[index];
    if (known?.title || !kept.title) return { research, index };
    const sources = research.sources.with(index, kept);
    return { research: { ...research, sources }, index };
  }
  if (research.sources.length >= webLimits.sources) return { research, index: undefined };
  return { research: { ...research, sources: [...research.sources, kept] }, index: research.sources.length };
}

/**
 * How a source is named: its title (or else its host or address), and its host beside it when
 * that says more (not when the title is itself a domain: Gemini names its pages by their domain
 * and links them through Google's redirect host, which says nothing).
 */
export function sourceCaption(source: WebSource): { name: string; host?: string } {
  const host = sourceHost(source);
  const name = source.title || host || source.url;
  const titleIsDomain = /^[\w.-]+\.[a-z]{2,}$/i.test(name);
  return host && source.title && source.title !== host && !titleIsDomain ? { name, host } : { name };
}

/** A page's host, as the Sources list names it ('' when the address has none). */
export function sourceHost(source: WebSource): string {
  try {
    return new URL(source.url).host.replace(/^www\./, '');
  } catch {
    return '';
  }
}

/**
 * Stored or imported research, read back within bounds: what does not read is dropped, one entry
 * at a time; citations keep only sources that exist and offsets inside the answer text.
 */
export function readWebResearch(value: unknown, answerLength: number): WebResearch | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const record = value as Record<string, unknown>;
  const list = (field: string, limit: number): unknown[] =>
    Array.isArray(record[field]) ? (record[field] as unknown[]).slice(0, limit) : [];
  const searches: WebSearchRun[] = list('searches', webLimits.searches).flatMap((entry) => {
    if (typeof entry !== 'object' || entry === null) return [];
    const { query, failed } = entry as Record<string, unknown>;
    if (typeof query !== 'string') return [];
    return [
      {
        query: query.slice(0, webLimits.query),
        ...(typeof failed === 'string' && failed !== '' && { failed: failed.slice(0, webLimits.failed) }),
      },
    ];
  });
  // Each source kept alone; the citations follow their source to its new place, or go with it.
  const sources: WebSource[] = [];
  const placeOf = new Map<number, number>();
  list('sources', webLimits.sources).forEach((entry, index) => {
    const kept = typeof entry === 'object' && entry !== null ? keptSource(entry) : null;
    if (kept) placeOf.set(index, sources.push(kept) - 1);
  });
  const citations: Citation[] = list('citations', webLimits.citations).flatMap((entry) => {
    if (typeof entry !== 'object' || entry === null) return [];
    const { at, source, citedText } = entry as Record<string, unknown>;
    if (!Number.isSafeInteger(at) || !Number.isSafeInteger(source)) return [];
    if ((at as number) < 0 || (at as number) > answerLength) return [];
    const place = placeOf.get(source as number);
    if (place === undefined) return [];
    return [
      {
        at: at as number,
        source: place,
        ...(typeof citedText === 'string' &&
          citedText !== '' && { citedText: citedText.slice(0, webLimits.citedText) }),
      },
    ];
  });
  const suggestions =
    typeof record.suggestions === 'string' && record.suggestions.length <= webLimits.suggestions
      ? record.suggestions
      : undefined;
  if (searches.length === 0 && sources.length === 0 && suggestions === undefined) return undefined;
  return { searches, sources, citations, ...(suggestions !== undefined && { suggestions }) };
}
