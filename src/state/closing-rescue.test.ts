import { describe, expect, it, vi } from 'vitest';
import { attachment } from '../domain/__fixtures__/conversations.ts';
import { attachmentParts, messageText, type Message } from '../domain/conversation.ts';
import { activePath, findMessage } from '../domain/message-tree.ts';
import { storageKeys } from '../storage/keys.ts';
import { rescueLimits } from './closing-rescue.ts';
import {
  active,
  databaseName,
  idle,
  localStorage,
  openTab,
  setUpTabs,
  shown,
  stored,
  tab,
  type Tab,
} from './controller-harness.ts';

setUpTabs();

const key = storageKeys.closingRescue;
const never = () => new Promise<never>(() => undefined);

/**
 * A reply streaming in `t` with `first` stored (saved as the page was hidden) and `first + more`
 * shown; from then on none of the tab's IndexedDB writes lands, as when the browser ends a closing
 * page's transactions before they commit.
 */
async function streamThenLoseWrites(t: Tab, first: string, more: string): Promise<string> {
  t.chat.watchBrowser();
  const reply = t.provider.next();
  reply.push(first);
  void t.chat.send('Tell me a story');
  await vi.waitFor(() => expect(shown(t).at(-1)).toBe(`assistant: ${first}`));
  t.page.fire('hidden');
  await vi.waitFor(async () => expect(activePath(await stored(t)).map(messageText)).toContain(first));
  vi.spyOn(t.db, 'put').mockImplementation(never);
  vi.spyOn(t.db, 'update').mockImplementation(never);
  reply.push(more);
  await vi.waitFor(() => expect(shown(t).at(-1)).toBe(`assistant: ${first}${more}`));
  return activePath(active(t)).at(-1)?.id as string;
}

/** Another tab of the same profile, started now, with `id` open. */
async function tabWith(id: string, name: string): Promise<Tab> {
  const other = await openTab(databaseName, name);
  other.chat.selectConversation(id);
  await vi.waitFor(() => expect(other.chat.store.getState().loaded[id]).toBeDefined());
  return other;
}

async function storedReply(t: Tab, conversationId: string, replyId: string): Promise<Message | undefined> {
  const conversation = await t.db.get(conversationId);
  return conversation && findMessage(conversation, replyId);
}

function rescuedEntries(): { conversationId: string; message: Message }[] {
  return (JSON.parse(localStorage.getItem(key) ?? 'null') as { replies: [] }).replies;
}

function writeRescue(replies: unknown[]): void {
  localStorage.setItem(key, JSON.stringify({ format: 1, replies }));
}

describe('the closing rescue', () => {
  it('a reply streaming as the tab closes is folded in at the next start, though no write of the closing page landed', async () => {
    const id = active(tab).id;
    const replyId = await streamThenLoseWrites(tab, 'Once upon', ' a time');
    const open = await tabWith(id, 'c');
    tab.page.fire('close');
    expect(messageText((await storedReply(tab, id, replyId)) as Message)).toBe('Once upon');
    expect(rescuedEntries()).toMatchObject([
      { conversationId: id, message: { id: replyId, status: 'interrupted' } },
    ]);

    const next = await openTab(databaseName, 'b');
    const reply = await storedReply(next, id, replyId);
    expect(reply).toMatchObject({ role: 'assistant', status: 'interrupted' });
    expect(messageText(reply as Message)).toBe('Once upon a time');
    expect(localStorage.getItem(key)).toBeNull();
    next.chat.selectConversation(id);
    await vi.waitFor(() => expect(shown(next).at(-1)).toBe('assistant: Once upon a time'));
    // Written through the usual save: a tab still open hears of it.
    await vi.waitFor(() => expect(shown(open).at(-1)).toBe('assistant: Once upon a time'));
  });

  it('a conversation deleted since the tab closed is not brought back', async () => {
    const id = active(tab).id;
    await streamThenLoseWrites(tab, 'Once upon', ' a time');
    const open = await tabWith(id, 'c');
    tab.page.fire('close');
    await open.chat.deleteConversation(id);
    await vi.waitFor(async () => expect(await open.db.get(id)).toBeUndefined());

    const next = await openTab(databaseName, 'b');
    expect(await next.db.get(id)).toBeUndefined();
    expect(next.chat.store.getState().list.map((row) => row.id)).not.toContain(id);
    expect(localStorage.getItem(key)).toBeNull();
  });

  it('a reply deleted in another tab since the tab closed stays deleted', async () => {
    const id = active(tab).id;
    const replyId = await streamThenLoseWrites(tab, 'Once upon', ' a time');
    const open = await tabWith(id, 'c');
    tab.page.fire('close');
    await open.chat.deleteMessage(id, replyId);
    await vi.waitFor(async () => expect(await storedReply(open, id, replyId)).toBeUndefined());

    const next = await openTab(databaseName, 'b');
    expect(await storedReply(next, id, replyId)).toBeUndefined();
    expect(activePath((await next.db.get(id)) ?? active(tab)).map(messageText)).toContain('Tell me a story');
    expect(localStorage.getItem(key)).toBeNull();
  });

  it('a reply another tab continued since stays as that tab left it, even when the rescued copy is longer', async () => {
    const id = active(tab).id;
    const replyId = await streamThenLoseWrites(tab, 'Once upon', ' a time');
    const open = await tabWith(id, 'c');
    tab.page.fire('close');
    open.provider.next('!');
    await open.chat.continueReply(id, replyId);
    await idle(open);
    await vi.waitFor(async () =>
      expect(messageText((await storedReply(open, id, replyId)) as Message)).toBe('Once upon!'),
    );

    const next = await openTab(databaseName, 'b');
    const reply = await storedReply(next, id, replyId);
    expect(messageText(reply as Message)).toBe('Once upon!');
    expect(reply?.status).toBeUndefined();
    expect(localStorage.getItem(key)).toBeNull();
  });

  it('never a shorter copy: a rescue behind what storage holds changes nothing', async () => {
    const id = active(tab).id;
    const replyId = await streamThenLoseWrites(tab, 'Once upon', ' a time');
    tab.page.fire('close');
    const [entry] = rescuedEntries();
    writeRescue([{ ...entry, message: { ...entry?.message, parts: [{ type: 'text', text: 'Once' }] } }]);

    const next = await openTab(databaseName, 'b');
    expect(messageText((await storedReply(next, id, replyId)) as Message)).toBe('Once upon');
    expect(localStorage.getItem(key)).toBeNull();
  });

  it('malformed entries are ignored, and the good one beside them is folded in', async () => {
    const id = active(tab).id;
    const replyId = await streamThenLoseWrites(tab, 'Once upon', ' a time');
    tab.page.fire('close');
    const [entry] = rescuedEntries();
    const message = entry?.message as Message;
    const hostile = { ...message, parts: [{ type: 'text', text: 'Once upon a time, hostile' }] };
    writeRescue([
      null,
      'text',
      { conversationId: id },
      { conversationId: id, message: { ...hostile, parts: 'not a list' } },
      { conversationId: id, message: { ...hostile, id: 'x'.repeat(rescueLimits.idChars + 1) } },
      { conversationId: id, message: { ...hostile, parentId: null } },
      { conversationId: id, message: { ...hostile, role: 'user' } },
      { conversationId: id, message: { ...hostile, createdAt: 42, parts: [{ type: 'text' }, null] } },
      { conversationId: 'x'.repeat(rescueLimits.idChars + 1), message: hostile },
      entry,
    ]);

    const next = await openTab(databaseName, 'b');
    expect(await next.db.read(id)).toMatchObject({ status: 'ok' });
    expect(messageText((await storedReply(next, id, replyId)) as Message)).toBe('Once upon a time');
    expect(next.calls.filter((call) => call.kind !== 'success')).toEqual([]);
    expect(localStorage.getItem(key)).toBeNull();
  });

  it('a rescue that is not JSON, or is oversized, is ignored and removed', async () => {
    const id = active(tab).id;
    const replyId = await streamThenLoseWrites(tab, 'Once upon', ' a time');
    tab.page.fire('close');
    const [entry] = rescuedEntries();
    const padded = { ...entry, padding: 'x'.repeat(rescueLimits.chars) };
    for (const raw of ['{"format":1,"replies":[', JSON.stringify({ format: 1, replies: [padded] })]) {
      localStorage.setItem(key, raw);
      const next = await openTab(databaseName, `b-${raw.length}`);
      expect(messageText((await storedReply(next, id, replyId)) as Message)).toBe('Once upon');
      expect(localStorage.getItem(key)).toBeNull();
    }
  });

  it('a reply too large for the rescue is left to the IndexedDB writes; a full localStorage throws nothing', async () => {
    await streamThenLoseWrites(tab, 'Once upon', 'x'.repeat(rescueLimits.chars));
    tab.page.fire('close');
    expect(localStorage.getItem(key)).toBeNull();
    expect(tab.db.put).toHaveBeenCalled();

    localStorage.failWith = new DOMException('The quota has been exceeded.', 'QuotaExceededError');
    expect(() => tab.page.fire('close')).not.toThrow();
    expect(tab.db.put).toHaveBeenCalledTimes(2);
  });

  it('two tabs closing mid-reply each keep their reply', async () => {
    const first = active(tab).id;
    await streamThenLoseWrites(tab, 'Once upon', ' a time');
    const other = await openTab(databaseName, 'c');
    await other.chat.newConversation();
    const second = active(other).id;
    await streamThenLoseWrites(other, 'Far', ' away');
    tab.page.fire('close');
    other.page.fire('close');
    expect(rescuedEntries().map((entry) => entry.conversationId)).toEqual([first, second]);

    const next = await openTab(databaseName, 'b');
    for (const [id, text] of [
      [first, 'Once upon a time'],
      [second, 'Far away'],
    ] as const)
      expect(activePath((await next.db.get(id)) ?? active(tab)).map(messageText)).toContain(text);
    expect(localStorage.getItem(key)).toBeNull();
  });

  it('a file whose bytes never landed is left out of the rescued reply', async () => {
    const id = active(tab).id;
    const replyId = await streamThenLoseWrites(tab, 'Once upon', ' a time');
    tab.page.fire('close');
    const [entry] = rescuedEntries();
    const message = entry?.message as Message;
    writeRescue([{ ...entry, message: { ...message, parts: [...message.parts, attachment('lost')] } }]);

    const next = await openTab(databaseName, 'b');
    const reply = (await storedReply(next, id, replyId)) as Message;
    expect(messageText(reply)).toBe('Once upon a time');
    expect(attachmentParts(reply)).toEqual([]);
  });
});
