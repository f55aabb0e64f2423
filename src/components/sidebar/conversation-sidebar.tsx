import { ArrowDownUp, ChevronDown, ChevronRight, FolderPlus, Plus, Search } from 'lucide-react';
import { useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { useChatState, useFocusRequest } from '../../hooks/use-chat-state.ts';
import { rowTops, useVirtualRows } from '../../hooks/use-virtual-rows.ts';
import { useNow } from '../../hooks/use-now.ts';
import { orderConversations, sidebarSections } from '../../domain/conversation-order.ts';
import { orderProjects, type Project } from '../../domain/projects.ts';
import { chat, type ConversationListItem } from '../../state/chat.ts';
import { Button } from '../ui/button.tsx';
import { lazyPart } from '../ui/lazy-part.tsx';
import { ConversationRow, conversationRowHeight } from './conversation-row.tsx';
import { ProjectRow, projectRowHeight } from './project-row.tsx';

const SearchResults = lazyPart(() => import('./search-results.tsx'));
// Where sync stands: loaded once sync runs.
const SyncStatusLine = lazyPart(() => import('./sync-status.tsx'));

/**
 * A line of the virtualized list: a project (its conversations under it unless folded), a
 * group's heading, or a conversation.
 */
type Line =
  { project: Project; count: number } | { heading: string } | { item: ConversationListItem; nested?: true };

const lineHeight = (line: Line) =>
  'item' in line ? conversationRowHeight : 'project' in line ? projectRowHeight : headingHeight;

/** A heading line's fixed height (px), beside conversationRowHeight. */
const headingHeight = 32;

export function ConversationSidebar() {
  const syncing = useChatState((state) => state.syncStatus !== null);
  const all = useChatState((state) => state.list);
  const projects = useChatState((state) => state.projects);
  const now = useNow();
  // Projects first, each with its conversations; then, in none, the pinned on top and the others
  // under their dates; archived ones apart, under 'Archived'.
  const { lines, tops, archived } = useMemo(() => {
    const ordered = orderProjects(projects);
    const sections = sidebarSections(
      all,
      ordered.map((project) => project.id),
      new Date(now),
    );
    const lines: Line[] = [
      ...ordered.flatMap((project, index): Line[] => {
        const { items } = sections.projects[index] ?? { items: [] };
        return [
          { project, count: items.length },
          ...(project.folded ? [] : items.map((item) => ({ item, nested: true as const }))),
        ];
      }),
      ...sections.groups.flatMap(({ label, items }) => [
        { heading: label },
        ...items.map((item) => ({ item })),
      ]),
    ];
    return {
      lines,
      tops: rowTops(lines.map(lineHeight)),
      archived: orderConversations(all.filter((item) => item.place === 'archived')),
    };
  }, [all, projects, now]);
  const [showArchived, setShowArchived] = useState(false);
  const [query, setQuery] = useState('');
  const searching = query.trim() !== '';
  const searchField = useRef<HTMLInputElement>(null);
  const results = useRef<HTMLDivElement>(null);
  useFocusRequest('search', searchField);
  const onSearchKey = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowDown') {
      const first = results.current?.querySelector('button');
      if (first) {
        event.preventDefault();
        first.focus();
      }
    } else if (event.key === 'Escape' && query !== '') {
      event.preventDefault();
      setQuery('');
    }
  };
  const activeId = useChatState((state) => state.activeId);
  const scroller = useRef<HTMLDivElement>(null);
  const { start, end, paddingTop, paddingBottom } = useVirtualRows(scroller, tops);

  // Bring the active row into view when it changes (one chosen from search may be far down).
  const activeIndex = lines.findIndex((line) => 'item' in line && line.item.id === activeId);
  const activeTop = tops[activeIndex];
  useEffect(() => {
    const element = scroller.current;
    if (!element || activeTop === undefined) return;
    // Its group's heading shows too when it is the group's first row.
    const top = activeTop - headingHeight;
    if (top < element.scrollTop) element.scrollTop = Math.max(0, top);
    else if (activeTop + conversationRowHeight > element.scrollTop + element.clientHeight)
      element.scrollTop = activeTop + conversationRowHeight - element.clientHeight;
  }, [activeId, activeTop]);

  return (
    <nav aria-label="Conversations" className="flex h-full w-64 flex-col bg-sidebar">
      <div className="flex items-center justify-between p-3">
        <h2 className="text-base font-semibold">Conversations</h2>
        <div className="flex gap-1">
          <Button
            size="sm"
            variant="outline"
            aria-label="Create project"
            title="Create project"
            onClick={() =>
              void chat.createProject().then((id) => {
                if (id) chat.showProjectSettings(id);
              })
            }
          >
            <FolderPlus />
          </Button>
          <Button size="sm" onClick={() => void chat.newConversation()}>
            <Plus /> New
          </Button>
        </div>
      </div>
      <div className="relative px-3 pb-2">
        <Search
          className="pointer-events-none absolute top-1/2 left-5.5 size-4 -translate-y-[calc(50%+4px)] text-gray-500"
          aria-hidden
        />
        <input
          ref={searchField}
          type="search"
          value={query}
          aria-label="Search conversations"
          placeholder="Search conversations"
          onChange={(event) => setQuery(event.target.value)}
          onKeyDown={onSearchKey}
          className="h-9 w-full rounded-md border border-gray-300 bg-white pr-2 pl-8 text-sm outline-none placeholder:text-gray-500 focus-visible:ring-2 focus-visible:ring-indigo-500 dark:border-gray-700 dark:bg-gray-950"
        />
      </div>
      {searching && (
        <div ref={results} className="flex min-h-0 flex-1 flex-col">
          <SearchResults query={query} onChoose={() => chat.setSheet(null)} />
        </div>
      )}
      <div ref={scroller} hidden={searching} className="min-h-0 flex-1 overflow-y-auto px-2">
        {lines.length === 0 ? (
          <p className="px-2 py-6 text-center text-sm text-faint-foreground">No conversations yet</p>
        ) : (
          <ul className="flex flex-col" style={{ paddingTop, paddingBottom }}>
            {lines.slice(start, end).map((line) =>
              'item' in line ? (
                <ConversationRow
                  key={line.item.id}
                  item={line.item}
                  active={line.item.id === activeId}
                  now={now}
                  nested={line.nested}
                />
              ) : 'project' in line ? (
                <ProjectRow key={`project:${line.project.id}`} project={line.project} count={line.count} />
              ) : (
                <li key={`heading:${line.heading}`} className="flex h-8 items-end px-3 pb-1">
                  <h3 className="text-xs font-medium text-muted-foreground">{line.heading}</h3>
                </li>
              ),
            )}
          </ul>
        )}
      </div>
      {archived.length > 0 && !searching && (
        <div className="border-t border-gray-200 px-2 pt-1 dark:border-gray-800">
          <button
            type="button"
            aria-expanded={showArchived}
            onClick={() => setShowArchived(!showArchived)}
            className="flex w-full items-center gap-1 rounded px-2 py-1.5 text-left text-xs font-medium text-muted-foreground hover:bg-gray-100 focus-visible:ring-2 focus-visible:ring-indigo-500 focus-visible:outline-none dark:hover:bg-gray-800"
          >
            {showArchived ? <ChevronDown className="size-3.5" /> : <ChevronRight className="size-3.5" />}
            Archived ({archived.length})
          </button>
          {showArchived && (
            <ul aria-label="Archived" className="flex max-h-56 flex-col overflow-y-auto">
              {archived.map((item) => (
                <ConversationRow key={item.id} item={item} active={item.id === activeId} now={now} />
              ))}
            </ul>
          )}
        </div>
      )}
      <div className="border-t border-gray-200 p-3 dark:border-gray-800">
        {syncing && <SyncStatusLine />}
        <Button variant="outline" className="w-full" onClick={() => chat.setImportExportOpen(true)}>
          <ArrowDownUp /> Import / Export
        </Button>
      </div>
    </nav>
  );
}
