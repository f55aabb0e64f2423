import { useEffect, useState, useSyncExternalStore } from 'react';
import { whenIdle } from '../lib/when-idle.ts';
import {
  searchConversations,
  searchStatus,
  startSearchIndex,
  subscribeSearchStatus,
  type SearchAnswer,
} from '../search/search-client.ts';
import { useChatState } from './use-chat-state.ts';

export type { SearchAnswer, SearchResult, SearchStatus, Segment } from '../search/search-client.ts';

/**
 * Starts the search index once the app has shown its first screen and is idle, so it is ready by
 * the time anyone types. Not when conversations live in memory only: the worker reads storage.
 */
export function useSearchIndex(): void {
  const ready = useChatState((state) => state.ready);
  const persistent = useChatState((state) => state.persistent);
  useEffect(() => {
    if (ready && persistent) return whenIdle(startSearchIndex);
  }, [ready, persistent]);
}

export function useSearchStatus() {
  return useSyncExternalStore(subscribeSearchStatus, searchStatus);
}

/**
 * The latest answer: to `query`, asked again as the index changes (while it is built, after a
 * save) so the results follow. Until the answer to a new query arrives, the previous one stays
 * (the list does not empty and refill at each key); an older query's never replaces a newer one's.
 */
/** `within`: only these conversations (one project's); absent: all. */
export function useSearchAnswer(query: string, within?: readonly string[]): SearchAnswer | null {
  const status = useSearchStatus();
  const [answer, setAnswer] = useState<SearchAnswer | null>(null);
  useEffect(() => {
    let current = true;
    void searchConversations(query, within).then((next) => {
      if (current && next) setAnswer(next);
    });
    return () => {
      current = false;
    };
  }, [query, status, within]);
  return answer;
}
