import { Globe } from 'lucide-react';
import { useId, useMemo } from 'react';
import { sourceCaption, type WebResearch } from '../../domain/web-search.ts';
import { boundedText } from '../../lib/bounded-text.ts';

export interface WebResearchProps {
  web: WebResearch;
}

/**
 * What a reply found on the web, under its answer: each search ('Searching the web: {query}'
 * while it runs), the sources numbered as the answer's markers are (title and host, each a link;
 * nothing is fetched from them), and Gemini's search suggestions, as Google requires them shown.
 */
export function WebResearchView({ web }: WebResearchProps) {
  const sourcesId = useId();
  return (
    <div data-testid="web-research" className="mt-2 flex flex-col gap-2 text-xs">
      {web.searches.length > 0 && (
        <ul className="flex flex-col gap-0.5 text-muted-foreground">
          {web.searches.map((search, index) => (
            <li
              key={index}
              className="flex items-center gap-1.5"
              {...(search.searching && { role: 'status' })}
            >
              <Globe aria-hidden className="size-3.5 shrink-0" />
              <span className="min-w-0 truncate">
                {search.failed
                  ? `Search failed: ${boundedText(search.query, 200).shown} (${search.failed})`
                  : `${search.searching ? 'Searching the web' : 'Searched the web'}${search.query ? `: ${boundedText(search.query, 200).shown}` : ''}`}
              </span>
            </li>
          ))}
        </ul>
      )}
      {web.sources.length > 0 && (
        <section aria-labelledby={sourcesId}>
          <h4 id={sourcesId} className="mb-1 font-semibold text-gray-700 dark:text-gray-300">
            Sources
          </h4>
          <ol className="flex flex-col gap-0.5">
            {web.sources.map((source, index) => {
              const { name, host } = sourceCaption(source);
              return (
                <li key={source.url} className="flex min-w-0 gap-1.5">
                  <span className="shrink-0 text-faint-foreground tabular-nums">[{index + 1}]</span>
                  <a
                    href={source.url}
                    target="_blank"
                    rel="noopener noreferrer nofollow"
                    className="min-w-0 truncate text-indigo-700 hover:underline dark:text-indigo-300"
                  >
                    {boundedText(name, 200).shown}
                  </a>
                  {host && <span className="shrink-0 text-faint-foreground">{host}</span>}
                </li>
              );
            })}
          </ol>
        </section>
      )}
      {web.suggestions && <SearchSuggestions html={web.suggestions} />}
    </div>
  );
}

/**
 * Gemini's search suggestions, as given, in a frame that runs no script and loads nothing (its own
 * policy allows only the inline styles Google sends); a chip opens Google's results in a new tab.
 */
function SearchSuggestions({ html }: { html: string }) {
  const srcDoc = useMemo(() => suggestionsDocument(html), [html]);
  return (
    <iframe
      title="Google Search suggestions"
      srcDoc={srcDoc}
      sandbox="allow-popups allow-popups-to-escape-sandbox"
      referrerPolicy="no-referrer"
      className="h-24 w-full rounded border-0 sm:h-16"
    />
  );
}

/** The suggestions as a document of their own: links open in a new tab, nothing else is let in. */
function suggestionsDocument(html: string): string {
  const parsed = new DOMParser().parseFromString(html, 'text/html');
  for (const element of parsed.querySelectorAll('script, meta, base, link, iframe, object, embed, form'))
    element.remove();
  for (const link of parsed.querySelectorAll('a')) {
    link.setAttribute('target', '_blank');
    link.setAttribute('rel', 'noopener noreferrer');
  }
  const policy = "default-src 'none'; style-src 'unsafe-inline'; img-src data:";
  return `<!doctype html><html><head><meta http-equiv="Content-Security-Policy" content="${policy}">${parsed.head.innerHTML}</head><body style="margin:0">${parsed.body.innerHTML}</body></html>`;
}
