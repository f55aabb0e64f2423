import type { ConversationPlace } from './conversation.ts';

/** What the list order reads of a conversation, its stored summary or its sidebar row. */
export interface Orderable {
  id: string;
  createdAt: string;
  updatedAt: string;
  /** See Conversation.activeAt; absent in data written before it existed. */
  activeAt?: string;
  place?: ConversationPlace;
}

/** When it was last written in: a message sent or a reply finished (not a rename). */
export function activityOf(item: Pick<Orderable, 'activeAt' | 'updatedAt'>): string {
  return item.activeAt ?? item.updatedAt;
}

const placeRank = (item: Orderable): number =>
  item.place === 'pinned' ? 0 : item.place === 'archived' ? 2 : 1;

/**
 * The list order, the product's rule for the sidebar: pinned first, archived last, each most
 * recently active first; ties newest created first, then by id, so every tab agrees.
 */
export function compareConversations(a: Orderable, b: Orderable): number {
  const rank = placeRank(a) - placeRank(b);
  if (rank !== 0) return rank;
  const active = Date.parse(activityOf(b)) - Date.parse(activityOf(a));
  if (active !== 0) return active;
  const created = Date.parse(b.createdAt) - Date.parse(a.createdAt);
  if (created !== 0) return created;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

export function orderConversations<T extends Orderable>(items: readonly T[]): T[] {
  return [...items].sort(compareConversations);
}

/** A run of the list under one heading: 'Pinned', 'Today', 'Yesterday', 'Previous 7 days', 'October 2026'. */
export interface ConversationGroup<T> {
  label: string;
  items: T[];
}

const monthLabel = new Intl.DateTimeFormat('en', { month: 'long', year: 'numeric' });

/** The date heading of a moment, by the local calendar as of `now`; a moment ahead of the clock is today. */
export function dateGroupOf(at: Date, now: Date): string {
  const startOf = (daysBack: number) => new Date(now.getFullYear(), now.getMonth(), now.getDate() - daysBack);
  if (at >= startOf(0)) return 'Today';
  if (at >= startOf(1)) return 'Yesterday';
  if (at >= startOf(7)) return 'Previous 7 days';
  return monthLabel.format(at);
}

/**
 * The sidebar's groups of the conversations that are not archived (they are listed apart), in list
 * order: the pinned ones under 'Pinned', the others under the date they were last active.
 */
export function groupConversations<T extends Orderable>(
  items: readonly T[],
  now: Date,
): ConversationGroup<T>[] {
  const groups: ConversationGroup<T>[] = [];
  for (const item of orderConversations(items)) {
    if (item.place === 'archived') continue;
    const label = item.place === 'pinned' ? 'Pinned' : dateGroupOf(new Date(activityOf(item)), now);
    const last = groups.at(-1);
    if (last?.label === label) last.items.push(item);
    else groups.push({ label, items: [item] });
  }
  return groups;
}

/** A project's place in the sidebar: its id, and its conversations that are not archived, in list order. */
export interface ProjectSection<T> {
  id: string;
  items: T[];
}

/**
 * The sidebar's sections: each project (in the given order) with its conversations, then the
 * groups of the conversations in no project. A conversation whose project is unknown here (not
 * yet synced, or deleted in another tab) is listed with those in none, so it is never hidden.
 */
export function sidebarSections<T extends Orderable & { projectId?: string }>(
  items: readonly T[],
  projectIds: readonly string[],
  now: Date,
): { projects: ProjectSection<T>[]; groups: ConversationGroup<T>[] } {
  const sections = new Map<string, ProjectSection<T>>(projectIds.map((id) => [id, { id, items: [] }]));
  const rest: T[] = [];
  for (const item of orderConversations(items)) {
    const section = item.projectId === undefined ? undefined : sections.get(item.projectId);
    if (!section) rest.push(item);
    else if (item.place !== 'archived') section.items.push(item);
  }
  return { projects: [...sections.values()], groups: groupConversations(rest, now) };
}
