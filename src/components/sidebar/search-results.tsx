import { Archive } from 'lucide-react';
import { useMemo, useState, type KeyboardEvent } from 'react';
import { orderProjects } from '../../domain/projects.ts';
import { useChatState } from '../../hooks/use-chat-state.ts';
import { useNow } from '../../hooks/use-now.ts';
import {
  useSearchAnswer,
  useSearchStatus,
  type SearchAnswer,
  type SearchStatus,
  type Segment,
} from '../../hooks/use-search.ts';
import { timeAgo } from '../../lib/relative-time.ts';
import { chat } from '../../state/chat.ts';

/** Text with its matched words marked; never HTML, whatever a message holds. */
function Marked({ segments }: { segments: readonly Segment[] }) {
  return segments.map((segment, index) =>
    segment.mark ? (
      <mark key={index} className="rounded-sm bg-amber-200 px-0.5 text-inherit dark:bg-amber-700/60">
        {segment.text}
      </mark>
    ) : (
      segment.text
    ),
  );
}

function describe(answer: SearchAnswer | null, status: SearchStatus, persistent: boolean): string {
  if (!persistent) return "Search needs the browser's storage, which is not available here.";
  if (status.state === 'unavailable') return 'Search could not start. Reload the page to try again.';
  const progress =
    status.state === 'starting' || status.state === 'off'
      ? ' Loading the index…'
      : status.state === 'indexing'
        ? ` Indexing: ${status.done} of ${status.total} conversations read…`
        : '';
  if (!answer) return `Searching…${progress}`;
  const { results, total } = answer;
  const found =
    results.length === 0
      ? 'No conversations match.'
      : total > results.length
        ? `The ${results.length} best of ${total} conversations.`
        : `${total} ${total === 1 ? 'conversation' : 'conversations'}.`;
  return found + progress;
}

/** Up and down arrows move between results. */
function moveFocus(event: KeyboardEvent<HTMLUListElement>): void {
  if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp') return;
  const buttons = [...event.currentTarget.querySelectorAll('button')];
  const at = buttons.indexOf(document.activeElement as HTMLButtonElement);
  const next = buttons[at + (event.key === 'ArrowDown' ? 1 : -1)];
  if (next) {
    event.preventDefault();
    next.focus();
  }
}

/** The sidebar's search results (loaded on the first search): conversation, snippet, when. */
export default function SearchResults({ query, onChoose }: { query: string; onChoose: () => void }) {
  const list = useChatState((state) => state.list);
  const projects = useChatState((state) => state.projects);
  /** 'Search in': one project's conversations, or ('') all. */
  const [scope, setScope] = useState('');
  const projectId = projects.some((project) => project.id === scope) ? scope : null;
  const within = useMemo(
    () =>
      projectId === null ? undefined : list.filter((row) => row.projectId === projectId).map((row) => row.id),
    [list, projectId],
  );
  const answer = useSearchAnswer(query, within);
  const status = useSearchStatus();
  const persistent = useChatState((state) => state.persistent);
  const now = useNow();
  return (
    <div className="flex min-h-0 flex-1 flex-col">
      {projects.length > 0 && (
        <label className="flex items-center gap-2 px-3 pb-2 text-xs text-muted-foreground">
          Search in
          <select
            value={projectId ?? ''}
            onChange={(event) => setScope(event.target.value)}
            className="h-7 min-w-0 flex-1 rounded border border-gray-300 bg-white px-1 text-xs text-gray-900 focus-visible:ring-2 focus-visible:ring-indigo-500 focus-visible:outline-none dark:border-gray-700 dark:bg-gray-950 dark:text-gray-100"
          >
            <option value="">All conversations</option>
            {orderProjects(projects).map((project) => (
              <option key={project.id} value={project.id}>
                {project.name}
              </option>
            ))}
          </select>
        </label>
      )}
      <p role="status" data-index-state={status.state} className="px-3 pb-1 text-xs text-muted-foreground">
        {describe(answer, status, persistent)}
      </p>
      <ul
        aria-label="Search results"
        data-query={answer?.query}
        onKeyDown={moveFocus}
        className="min-h-0 flex-1 overflow-y-auto px-2 pb-2"
      >
        {answer?.results.map((result) => (
          <li key={result.conversationId}>
            <button
              type="button"
              onClick={() => {
                if (result.messageId) void chat.revealMessage(result.conversationId, result.messageId);
                else chat.selectConversation(result.conversationId);
                onChoose();
              }}
              className="flex w-full flex-col gap-0.5 rounded-md px-3 py-2 text-left outline-none hover:bg-gray-100 focus-visible:ring-2 focus-visible:ring-indigo-500 dark:hover:bg-gray-800/70"
            >
              <span className="flex w-full items-center gap-1 text-sm font-medium">
                <span className="truncate">
                  <Marked segments={result.name} />
                </span>
                {result.place === 'archived' && (
                  <span className="ml-auto inline-flex shrink-0 items-center gap-0.5 text-xs font-normal text-muted-foreground">
                    <Archive className="size-3" aria-hidden /> Archived
                  </span>
                )}
              </span>
              {result.snippet.length > 0 && (
                <span className="line-clamp-3 text-xs break-words text-gray-700 dark:text-gray-300">
                  <Marked segments={result.snippet} />
                </span>
              )}
              <span className="text-xs text-muted-foreground">{timeAgo(result.at, now)}</span>
            </button>
          </li>
        ))}
      </ul>
    </div>
  );
}
