import { describe, expect, it, vi } from 'vitest';
import { messageText, type Conversation } from '../domain/conversation.ts';
import { activePath, siblingsOf } from '../domain/message-tree.ts';
import { storageKeys } from '../storage/keys.ts';
import { orderConversations } from '../domain/conversation-order.ts';
import {
  openTab,
  active,
  shown,
  idle,
  sendAndWait,
  stored,
  tab,
  databaseName,
  localStorage,
  setUpTabs,
  type Tab,
} from './controller-harness.ts';

setUpTabs();

describe('two tabs on one database', () => {
  async function secondTab(): Promise<Tab> {
    const other = await openTab(databaseName, 'b');
    other.chat.selectConversation(active(tab).id);
    await vi.waitFor(() => expect(shown(other)).toEqual(shown(tab)));
    return other;
  }

  it('a branch made in one tab shows in the other', async () => {
    await sendAndWait(tab, 'q', 'r1');
    const other = await secondTab();
    const first = activePath(active(tab)).at(-1)?.id as string;
    tab.provider.next('r2');
    await tab.chat.regenerate(active(tab).id, first);
    await vi.waitFor(() =>
      expect(siblingsOf(active(other), first).siblings.map(messageText)).toEqual(['r1', 'r2']),
    );
  });

  it('a regenerate in one tab while the other deletes another branch loses nothing that was not deleted', async () => {
    await sendAndWait(tab, 'q', 'r1');
    const r1 = activePath(active(tab)).at(-1)?.id as string;
    tab.provider.next('r2');
    await tab.chat.regenerate(active(tab).id, r1);
    const other = await secondTab();
    await vi.waitFor(() => expect(siblingsOf(active(other), r1).siblings).toHaveLength(2));

    const streaming = tab.provider.next();
    streaming.push('r3 part');
    void tab.chat.regenerate(active(tab).id, r1);
    await vi.waitFor(() => expect(shown(tab).at(-1)).toBe('assistant: r3 part'));
    await other.chat.deleteMessage(active(other).id, r1);
    streaming.push(' and the rest');
    streaming.end();
    await idle(tab);

    const versions = (t: Conversation) =>
      siblingsOf(t, activePath(t).at(-1)?.id as string).siblings.map(messageText);
    await vi.waitFor(async () => {
      expect(versions(active(tab))).toEqual(['r2', 'r3 part and the rest']);
      expect(versions(active(other))).toEqual(['r2', 'r3 part and the rest']);
      expect(versions(await stored(tab))).toEqual(['r2', 'r3 part and the rest']);
    });
  });

  it('a rename in one tab while the other streams keeps both', async () => {
    const other = await secondTab();
    const streaming = tab.provider.next();
    streaming.push('Long ');
    void tab.chat.send('question');
    await vi.waitFor(() => expect(shown(tab).at(-1)).toBe('assistant: Long '));
    await other.chat.renameConversation(active(other).id, 'Renamed elsewhere');
    streaming.push('answer');
    streaming.end();
    await idle(tab);
    await vi.waitFor(async () => {
      expect(active(tab).name).toBe('Renamed elsewhere');
      expect((await stored(tab)).name).toBe('Renamed elsewhere');
      expect(shown(other)).toEqual(['user: question', 'assistant: Long answer']);
    });
  });

  it('deleting a conversation in one tab stops a reply streaming into it in the other', async () => {
    const other = await secondTab();
    const streaming = tab.provider.next();
    streaming.push('Going');
    void tab.chat.send('question');
    await vi.waitFor(() => expect(shown(tab).at(-1)).toBe('assistant: Going'));
    const id = active(tab).id;
    await other.chat.deleteConversation(id);
    await idle(tab);
    expect(tab.chat.store.getState().list).toEqual([]);
    expect(await tab.db.get(id)).toBeUndefined();
  });
});

describe('the list order: most recently active first', () => {
  const listed = (t: Tab) => orderConversations(t.chat.store.getState().list).map((row) => row.name);

  /** Conversation 1 to 3, created in that order; then a message in 2 and a rename of 3. */
  async function threeConversations(): Promise<[string, string, string]> {
    await tab.chat.newConversation();
    await tab.chat.newConversation();
    const [one, two, three] = tab.chat.store.getState().list.map((row) => row.id) as [string, string, string];
    tab.chat.selectConversation(two);
    await sendAndWait(tab, 'q', 'r');
    await tab.chat.renameConversation(three, 'Conversation 3 renamed');
    await vi.waitFor(async () => expect((await tab.db.get(three))?.name).toBe('Conversation 3 renamed'));
    return [one, two, three];
  }

  it('writing moves a conversation up; a rename does not', async () => {
    await threeConversations();
    expect(listed(tab)).toEqual(['Conversation 2', 'Conversation 3 renamed', 'Conversation 1']);
  });

  it('at start, with the saved active id gone, the first in that order is active', async () => {
    const [, two] = await threeConversations();
    localStorage.setItem(storageKeys.activeConversation, 'gone');
    const later = await openTab(databaseName, 'later');
    expect(later.chat.store.getState().activeId).toBe(two);
    expect(listed(later)).toEqual(listed(tab));
  });

  it('deleting the active conversation makes the first in that order active', async () => {
    const [one, two, three] = await threeConversations();
    tab.chat.selectConversation(one);
    await tab.chat.deleteConversation(one);
    expect(tab.chat.store.getState().activeId).toBe(two);
    await tab.chat.deleteConversation(two);
    expect(tab.chat.store.getState().activeId).toBe(three);
  });

  it("the other tab's list follows a message sent in this one", async () => {
    const [one] = await threeConversations();
    const other = await openTab(databaseName, 'b');
    tab.chat.selectConversation(one);
    await sendAndWait(tab, 'again', 'yes');
    await vi.waitFor(() =>
      expect(listed(other)).toEqual(['Conversation 1', 'Conversation 2', 'Conversation 3 renamed']),
    );
  });
});
