import MiniSearch, { type Options, type SearchOptions } from 'minisearch';
import type { Conversation, ConversationPlace } from '../domain/conversation.ts';
import { summaryTextKey, type ConversationSummary } from '../domain/conversation-summary.ts';
import type { IndexSnapshot, SnapshotStore } from '../storage/search-snapshots.ts';
import {
  bestMessage,
  markTerms,
  normalizeTerm,
  searchDocument,
  termMatcher,
  tokenize,
  type Segment,
} from './search-text.ts';

/**
 * Full-text search over every conversation, run in a worker (search.worker.ts). One MiniSearch
 * document per conversation: its name and all its branches' texts. I measured both libraries the
 * issue names on the bench's history (1000 conversations, 55 MB) in Node: per conversation,
 * MiniSearch answered at p95 7.8 ms with true typo tolerance and BM25 ranking, its saved form
 * 5.5 MB (193 ms to load); FlexSearch was faster (0.5 ms) but its "fuzzy" is phonetic
 * (it found 'benchmrk' and not 'strucure') and ranks by word position. One document per message
 * made MiniSearch's p95 41 ms. The message that matched is found after the query, in the few
 * conversations shown (search-text.ts bestMessage).
 */

/** Where the conversations are read from: the conversation database. */
export interface SearchSource {
  /** False for the in-memory fallback: nothing to index (see the worker). */
  readonly persistent: boolean;
  listSummaries(): Promise<{ items: ConversationSummary[] }>;
  get(id: string): Promise<Conversation | undefined>;
}

export interface SearchResult {
  conversationId: string;
  name: Segment[];
  place?: ConversationPlace;
  /** The message holding the match; absent when only the name matched. */
  messageId?: string;
  /** When the message was written (or the conversation last changed). */
  at: string;
  snippet: Segment[];
}

export interface SearchAnswer {
  query: string;
  results: SearchResult[];
  /** Conversations matching, of which the best `results` are shown. */
  total: number;
}

export interface IndexStatus {
  state: 'starting' | 'indexing' | 'ready';
  /** While indexing: conversations read so far, of `total` to read. */
  done: number;
  total: number;
}

/**
 * Bump when the indexed text or the options change: older snapshots are rebuilt. (Still 1 when
 * tools' names and results joined the text: no conversation held one before, so no snapshot of
 * format 1 indexed one differently.)
 */
const snapshotFormat = 1;

const indexOptions: Options = {
  fields: ['name', 'text'],
  tokenize,
  processTerm: normalizeTerm,
};

const searchOptions: SearchOptions = {
  combineWith: 'AND',
  boost: { name: 2 },
  // A word being typed matches the words it starts; a longer one also with a typo or two.
  prefix: (term) => term.length >= 2,
  fuzzy: (term) => (term.length > 3 ? 0.2 : false),
  maxFuzzy: 2,
};

export interface SearchEngineOptions {
  source: SearchSource;
  snapshots: SnapshotStore;
  onStatus?: (status: IndexStatus) => void;
  /** How long after the last change the index is saved. */
  saveDelayMs?: number;
  /** How long after news of a save the index reads it: a streamed reply is saved every second. */
  changeDelayMs?: number;
  /** Results with a snippet per answer. */
  limit?: number;
}

export function createSearchEngine({
  source,
  snapshots,
  onStatus = () => undefined,
  saveDelayMs = 5000,
  changeDelayMs = 1000,
  limit = 20,
}: SearchEngineOptions) {
  let index = new MiniSearch(indexOptions);
  /** The text key of each conversation as indexed. */
  let keys = new Map<string, string>();
  /** Conversations read for snippets, with the text key they were read at; newest last. */
  const recent = new Map<string, { key: string | undefined; conversation: Conversation }>();
  /** Where each conversation sits (archived, ...): it changes without its text. */
  let places = new Map<string, ConversationPlace | undefined>();
  const recentLimit = 40;
  let status: IndexStatus = { state: 'starting', done: 0, total: 0 };
  let saveTimer: ReturnType<typeof setTimeout> | undefined;
  let changeTimer: ReturnType<typeof setTimeout> | undefined;
  let reconciling: Promise<void> | undefined;
  let again = false;

  function report(next: IndexStatus): void {
    status = next;
    onStatus(next);
  }

  function scheduleSave(): void {
    clearTimeout(saveTimer);
    saveTimer = setTimeout(() => void save(), saveDelayMs);
  }

  async function save(): Promise<void> {
    // A discarded document's words stay in the index until it is vacuumed: not on disk.
    if (index.dirtCount > 0) await index.vacuum();
    const snapshot: IndexSnapshot = {
      format: snapshotFormat,
      index: JSON.stringify(index),
      keys: Object.fromEntries(keys),
    };
    await snapshots.save(snapshot);
  }

  async function load(): Promise<void> {
    const snapshot = await snapshots.load();
    if (snapshot?.format !== snapshotFormat) return;
    try {
      index = MiniSearch.loadJSON(snapshot.index, indexOptions);
      keys = new Map(Object.entries(snapshot.keys));
    } catch {
      index = new MiniSearch(indexOptions);
      keys = new Map();
    }
  }

  function remove(id: string): void {
    if (index.has(id)) index.discard(id);
    keys.delete(id);
    recent.delete(id);
  }

  /** Brings the index in line with the stored conversations: reads only those whose text changed. */
  async function syncWithStorage(): Promise<void> {
    const { items } = await source.listSummaries();
    const listed = new Set(items.map((summary) => summary.id));
    places = new Map(items.map((summary) => [summary.id, summary.place]));
    let changed = false;
    for (const id of [...keys.keys()]) {
      if (!listed.has(id)) {
        remove(id);
        changed = true;
      }
    }
    const stale = items.filter((summary) => keys.get(summary.id) !== summaryTextKey(summary));
    // A few changed conversations (the usual news of a save) are read without a word of progress.
    const large = stale.length >= 20;
    for (const [done, summary] of stale.entries()) {
      if (large && done % 10 === 0) report({ state: 'indexing', done, total: stale.length });
      // A long first build is saved as it goes: a tab closed meanwhile does not start over.
      if (large && done > 0 && done % 250 === 0) await save();
      const conversation = await source.get(summary.id);
      remove(summary.id);
      if (conversation) index.add(searchDocument(conversation));
      keys.set(summary.id, summaryTextKey(summary));
      changed = true;
    }
    if (changed) scheduleSave();
    report({ state: 'ready', done: stale.length, total: stale.length });
  }

  /** One sync at a time; a change meanwhile makes one more. */
  function reconcile(): Promise<void> {
    if (reconciling) {
      again = true;
      return reconciling;
    }
    reconciling = (async () => {
      try {
        do {
          again = false;
          await syncWithStorage();
        } while (again);
      } finally {
        reconciling = undefined;
      }
    })();
    return reconciling;
  }

  /** A conversation as indexed now: a copy read before its text changed is not used. */
  async function readForSnippet(id: string): Promise<Conversation | undefined> {
    const key = keys.get(id);
    const cached = recent.get(id);
    recent.delete(id);
    if (cached?.key === key && cached) {
      recent.set(id, cached);
      return cached.conversation;
    }
    const conversation = await source.get(id);
    // Re-indexed while it was read: this copy may be older than the index; read it next time.
    if (conversation && keys.get(id) === key) {
      recent.set(id, { key, conversation });
      const oldest = recent.keys().next().value;
      if (recent.size > recentLimit && oldest !== undefined) recent.delete(oldest);
    }
    return conversation;
  }

  /** The best conversations for `query`; null when `superseded` says a newer query came first. */
  async function search(
    query: string,
    superseded: () => boolean = () => false,
    within?: readonly string[],
  ): Promise<SearchAnswer | null> {
    const trimmed = query.trim();
    if (trimmed === '') return { query, results: [], total: 0 };
    const only = within && new Set(within);
    const hits = index.search(trimmed, {
      ...searchOptions,
      ...(only && { filter: (hit: { id: unknown }) => only.has(hit.id as string) }),
    });
    const results: SearchResult[] = [];
    const top = hits.slice(0, limit);
    // Read together: the database answers them side by side.
    const conversations = await Promise.all(top.map((hit) => readForSnippet(hit.id as string)));
    if (superseded()) return null;
    top.forEach((hit, i) => {
      const conversation = conversations[i];
      if (!conversation) return;
      const matcher = termMatcher(new Set(hit.terms));
      const match = bestMessage(conversation, matcher);
      const result: SearchResult = {
        conversationId: conversation.id,
        name: markTerms(conversation.name, matcher),
        at: match?.createdAt ?? conversation.updatedAt,
        snippet: match?.snippet ?? [],
      };
      if (match) result.messageId = match.messageId;
      const place = places.has(conversation.id) ? places.get(conversation.id) : conversation.place;
      if (place) result.place = place;
      results.push(result);
    });
    return { query, results, total: hits.length };
  }

  return {
    /** Loads the saved index, then reads what changed since it was saved. */
    async start(): Promise<void> {
      await load();
      await reconcile();
    },
    /** A conversation was saved or deleted, here or in another tab: read what changed, soon. */
    changed(): void {
      clearTimeout(changeTimer);
      changeTimer = setTimeout(() => void reconcile(), changeDelayMs);
    },
    /** Reads what changed now (tests; an import replaced everything). */
    reconcile,
    search,
    status: () => status,
    /** Saves now (a test, or a worker about to close). */
    flush(): Promise<void> {
      clearTimeout(saveTimer);
      return save();
    },
  };
}

export type SearchEngine = ReturnType<typeof createSearchEngine>;
