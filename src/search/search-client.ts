import type { IndexStatus, SearchAnswer } from './search-engine.ts';
import type { SearchReply, SearchRequest } from './search.worker.ts';

export type { SearchAnswer, SearchResult } from './search-engine.ts';
export type { Segment } from './search-text.ts';

/**
 * The page's side of the search worker: started once the app is idle after its first paint, so
 * the index is ready (or loading its saved copy) by the time anyone types.
 */
export type SearchStatus = IndexStatus | { state: 'off' } | { state: 'unavailable' };

let worker: Worker | undefined;
let status: SearchStatus = { state: 'off' };
const statusListeners = new Set<() => void>();
let lastId = 0;
/** The query waiting for its answer; an older one is answered null when a newer one is asked. */
let waiting: { id: number; resolve: (answer: SearchAnswer | null) => void } | undefined;

function setStatus(next: SearchStatus): void {
  status = next;
  for (const listener of statusListeners) listener();
}

export function startSearchIndex(): void {
  if (worker) return;
  worker = new Worker(new URL('./search.worker.ts', import.meta.url), { type: 'module' });
  setStatus({ state: 'starting', done: 0, total: 0 });
  worker.addEventListener('message', (event: MessageEvent<SearchReply>) => {
    const reply = event.data;
    if (reply.type === 'status') setStatus(reply.status);
    else if (reply.type === 'unavailable') stop();
    else if (waiting?.id === reply.id) {
      waiting.resolve(reply.answer);
      waiting = undefined;
    }
  });
  // It could not load (offline before it was ever cached) or broke: say so; a reload retries.
  worker.addEventListener('error', (event) => {
    event.preventDefault();
    stop();
  });
}

function stop(): void {
  worker?.terminate();
  setStatus({ state: 'unavailable' });
  waiting?.resolve(null);
  waiting = undefined;
}

/** The answer to `query`, or null when a newer query replaced it (or search is unavailable). */
export function searchConversations(query: string, within?: readonly string[]): Promise<SearchAnswer | null> {
  if (!worker || status.state === 'unavailable') return Promise.resolve(null);
  waiting?.resolve(null);
  const id = ++lastId;
  const answer = new Promise<SearchAnswer | null>((resolve) => (waiting = { id, resolve }));
  worker.postMessage({ id, query, ...(within && { within }) } satisfies SearchRequest);
  return answer;
}

export const searchStatus = (): SearchStatus => status;

export function subscribeSearchStatus(listener: () => void): () => void {
  statusListeners.add(listener);
  return () => statusListeners.delete(listener);
}
