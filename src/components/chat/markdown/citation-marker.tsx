import { useContext, useId } from 'react';
import { sourceCaption } from '../../../domain/web-search.ts';
import { CitationContext } from '../citation-context.ts';

/**
 * A citation in the answer: '[N]', a link to the Nth source (opened apart, with no referrer), whose
 * focus or hover shows the source and the text it supports where the provider gave it.
 */
export function CitationMarker({ number }: { number: number }) {
  const web = useContext(CitationContext);
  const tipId = useId();
  const source = web?.sources[number - 1];
  if (!source) return <sup>[{number}]</sup>;
  const { name, host } = sourceCaption(source);
  const cited = web.citations.find(
    (citation) => citation.source === number - 1 && citation.citedText,
  )?.citedText;
  return (
    <span className="group/cite relative">
      <sup>
        <a
          href={source.url}
          target="_blank"
          rel="noopener noreferrer nofollow"
          aria-label={`Source ${number}: ${name}`}
          aria-describedby={tipId}
          data-testid="citation-marker"
          className="px-0.5 text-indigo-700 no-underline hover:underline dark:text-indigo-300"
        >
          [{number}]
        </a>
      </sup>
      <span
        id={tipId}
        role="tooltip"
        className="pointer-events-none absolute top-full left-0 z-20 mt-1 hidden w-72 max-w-[80vw] rounded-md border border-gray-200 bg-white p-2 text-xs leading-snug text-gray-800 shadow-lg group-focus-within/cite:block group-hover/cite:block dark:border-gray-700 dark:bg-gray-900 dark:text-gray-200"
      >
        <span className="block font-medium">{name}</span>
        {host && <span className="block text-faint-foreground">{host}</span>}
        {cited && <span className="mt-1 block line-clamp-4">“{cited}”</span>}
      </span>
    </span>
  );
}
