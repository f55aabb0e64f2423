import { openConversationDb } from '../storage/conversation-db.ts';
import { openSnapshotStore } from '../storage/search-snapshots.ts';
import { createTabSync } from '../storage/tab-sync.ts';
import { createSearchEngine, type IndexStatus, type SearchAnswer } from './search-engine.ts';

/**
 * The search index's worker: it reads the conversation database itself, so building the index
 * never costs the page's thread, and it hears every save on the tabs' channel (its own tab's
 * too: a BroadcastChannel delivers to every other channel object of the name, workers included).
 */

export interface SearchRequest {
  id: number;
  query: string;
  /** Only these conversations (one project's); absent: all. */
  within?: readonly string[];
}

export type SearchReply =
  | { type: 'answer'; id: number; answer: SearchAnswer }
  | { type: 'status'; status: IndexStatus }
  /** The database could not be opened or read: there is nothing to search. */
  | { type: 'unavailable' };

const post = (reply: SearchReply) => self.postMessage(reply);

function unavailable(error: unknown): null {
  console.warn('Search is unavailable', error);
  post({ type: 'unavailable' });
  return null;
}

const engine = (async () => {
  const [source, snapshots] = await Promise.all([openConversationDb(), openSnapshotStore()]);
  // The in-memory fallback is empty here (it is not the page's memory): indexing it would only
  // wipe the saved index.
  if (!source.persistent) return unavailable('the conversation database could not be opened');
  const search = createSearchEngine({
    source,
    snapshots,
    onStatus: (status) => post({ type: 'status', status }),
  });
  createTabSync().subscribe((message) => {
    if (!['config-saved', 'active-changed', 'projects-changed'].includes(message.type)) search.changed();
  });
  search.start().catch(unavailable);
  return search;
})().catch(unavailable);

/** Only the latest query is answered: one typed over is dropped. */
let latest = 0;

self.addEventListener('message', (event: MessageEvent<SearchRequest>) => {
  const { id, query, within } = event.data;
  latest = id;
  void engine
    .then((search) => search?.search(query, () => latest !== id, within))
    .then((answer) => {
      if (answer) post({ type: 'answer', id, answer });
    }, unavailable);
});
