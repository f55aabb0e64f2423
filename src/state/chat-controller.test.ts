import { describe, expect, it, vi } from 'vitest';
import { attachmentParts, messageText, type Message } from '../domain/conversation.ts';
import { activePath, siblingsOf } from '../domain/message-tree.ts';
import { ProviderError } from '../providers/provider-error.ts';
import { attachment } from '../domain/__fixtures__/conversations.ts';
import { storageKeys } from '../storage/keys.ts';
import { storageFailure } from '../storage/result.ts';
import {
  active,
  config,
  shown,
  idle,
  sendAndWait,
  stored,
  tab,
  localStorage,
  setUpTabs,
} from './controller-harness.ts';

setUpTabs();

describe('chat controller', () => {
  it('sends, streams the reply into the tree and saves it', async () => {
    await sendAndWait(tab, '  What is 2+2?  ', '4');
    expect(shown(tab)).toEqual(['user: What is 2+2?', 'assistant: 4']);
    expect(tab.provider.sent[0]).toEqual([
      { role: 'system', content: 'You are a helpful assistant.' },
      { role: 'user', content: 'What is 2+2?' },
    ]);
    const reply = activePath(active(tab)).at(-1);
    expect(reply).toMatchObject({ provider: 'openai', model: 'gpt-4o-mini' });
    expect(reply?.status).toBeUndefined();
    await vi.waitFor(async () => expect(activePath(await stored(tab)).map(messageText)).toContain('4'));
  });

  it('regenerates a reply as a new version and switches between versions', async () => {
    await sendAndWait(tab, 'Name a colour', 'Red');
    const first = activePath(active(tab)).at(-1)?.id as string;
    tab.provider.next('Blue');
    await tab.chat.regenerate(active(tab).id, first);
    expect(shown(tab)).toEqual(['user: Name a colour', 'assistant: Blue']);
    // Asked again from the same question: the first reply is not in the history.
    expect(tab.provider.sent[1]?.map((message) => message.content)).toEqual([
      'You are a helpful assistant.',
      'Name a colour',
    ]);
    const second = activePath(active(tab)).at(-1)?.id as string;
    expect(siblingsOf(active(tab), second)).toMatchObject({ index: 1 });
    expect(siblingsOf(active(tab), second).siblings).toHaveLength(2);

    await tab.chat.showVersion(active(tab).id, second, -1);
    expect(shown(tab)).toEqual(['user: Name a colour', 'assistant: Red']);
    await tab.chat.showVersion(active(tab).id, first, 1);
    expect(shown(tab).at(-1)).toBe('assistant: Blue');
    expect((await stored(tab)).activeLeafId).toBe(second);
  });

  it('reveals a message: opens its conversation on the branch holding it and asks for it to be shown', async () => {
    await sendAndWait(tab, 'Name a colour', 'Red');
    const red = activePath(active(tab)).at(-1)?.id as string;
    tab.provider.next('Blue');
    await tab.chat.regenerate(active(tab).id, red);
    const conversationId = active(tab).id;
    await tab.chat.newConversation();
    expect(tab.chat.store.getState().activeId).not.toBe(conversationId);

    await tab.chat.revealMessage(conversationId, red);
    expect(tab.chat.store.getState().activeId).toBe(conversationId);
    expect(shown(tab)).toEqual(['user: Name a colour', 'assistant: Red']);
    expect(tab.chat.view.getState().revealed).toEqual({ conversationId, messageId: red });
    tab.chat.revealDone();
    expect(tab.chat.view.getState().revealed).toBeNull();
    await vi.waitFor(async () => expect((await stored(tab)).activeLeafId).toBe(red));
  });

  it('edits a question into a new branch and keeps the old one', async () => {
    await sendAndWait(tab, 'Capital of France?', 'Paris');
    await sendAndWait(tab, 'And of Spain?', 'Madrid');
    const question = activePath(active(tab))[1]?.id as string;
    tab.provider.next('Rome');
    expect(await tab.chat.edit(active(tab).id, question, 'Capital of Italy?')).toBe(true);
    await vi.waitFor(() => expect(shown(tab)).toEqual(['user: Capital of Italy?', 'assistant: Rome']));
    await idle(tab);
    expect(tab.provider.sent.at(-1)?.map((message) => message.content)).toEqual([
      'You are a helpful assistant.',
      'Capital of Italy?',
    ]);
    const edited = activePath(active(tab))[1]?.id as string;
    await tab.chat.showVersion(active(tab).id, edited, -1);
    // The old branch is whole: its later turns came back with it.
    expect(shown(tab)).toEqual([
      'user: Capital of France?',
      'assistant: Paris',
      'user: And of Spain?',
      'assistant: Madrid',
    ]);
  });

  it('deletes a message with everything below it, and Undo puts it back', async () => {
    await sendAndWait(tab, 'one', 'uno');
    await sendAndWait(tab, 'two', 'dos');
    const second = activePath(active(tab))[3]?.id as string;
    await tab.chat.deleteMessage(active(tab).id, second);
    expect(shown(tab)).toEqual(['user: one', 'assistant: uno']);
    expect(activePath(await stored(tab)).map(messageText)).not.toContain('two');
    const toast = tab.calls.find((call) => call.message === 'Message deleted');
    expect(toast?.action?.label).toBe('Undo');
    toast?.action?.onClick();
    await vi.waitFor(() =>
      expect(shown(tab)).toEqual(['user: one', 'assistant: uno', 'user: two', 'assistant: dos']),
    );
    await vi.waitFor(async () => expect(activePath(await stored(tab)).map(messageText)).toContain('dos'));
  });

  it('deleting the shown version shows its sibling', async () => {
    await sendAndWait(tab, 'q', 'first');
    const first = activePath(active(tab)).at(-1)?.id as string;
    tab.provider.next('second');
    await tab.chat.regenerate(active(tab).id, first);
    const second = activePath(active(tab)).at(-1)?.id as string;
    await tab.chat.deleteMessage(active(tab).id, second);
    expect(shown(tab)).toEqual(['user: q', 'assistant: first']);
  });

  it('keeps a failed reply marked, and Retry replaces it', async () => {
    const failing = tab.provider.next();
    failing.push('Partial ');
    failing.push(new ProviderError({ provider: 'openai', kind: 'network', message: 'Connection lost' }));
    await tab.chat.send('Tell me a story');
    await idle(tab);
    const broken = activePath(active(tab)).at(-1);
    expect(broken).toMatchObject({ status: 'interrupted', role: 'assistant' });
    expect(tab.calls.find((call) => call.kind === 'error')?.message).toBe('Error calling OpenAI API');

    tab.provider.next('A whole story');
    await tab.chat.retry(active(tab).id);
    expect(shown(tab)).toEqual(['user: Tell me a story', 'assistant: A whole story']);
    // Replaced, not a second version.
    const reply = activePath(active(tab)).at(-1)?.id as string;
    expect(siblingsOf(active(tab), reply).siblings).toHaveLength(1);
  });

  it('keeps the question without a reply when nothing arrived', async () => {
    tab.provider
      .next()
      .push(new ProviderError({ provider: 'openai', kind: 'server', status: 500, message: 'boom' }));
    await tab.chat.send('Hello?');
    await idle(tab);
    expect(shown(tab)).toEqual(['user: Hello?']);
    // The provider's reason is kept with the question, not only in the toast.
    const question = activePath(active(tab)).at(-1)?.id;
    expect(tab.chat.store.getState().failedTurn).toMatchObject({
      conversationId: active(tab).id,
      questionId: question,
      reason: '500 · boom',
      modelGone: false,
    });
    // ... and stored with it, so a reload still says why.
    expect(activePath(await stored(tab)).at(-1)).toMatchObject({ role: 'user', error: '500 · boom' });
    tab.provider.next('Hi');
    await tab.chat.retry(active(tab).id);
    expect(shown(tab)).toEqual(['user: Hello?', 'assistant: Hi']);
    expect(tab.chat.store.getState().failedTurn).toBeNull();
    expect(activePath(await stored(tab)).at(-2)?.error).toBeUndefined();
  });

  it('a model gone upstream: switching to another pins it to the conversation and asks again', async () => {
    tab.provider.next().push(
      new ProviderError({
        provider: 'openai',
        kind: 'not-found',
        status: 404,
        message: 'The model `gpt-4` does not exist',
        modelGone: true,
      }),
    );
    await tab.chat.send('Hello?');
    await idle(tab);
    const id = active(tab).id;
    expect(tab.chat.store.getState().failedTurn).toMatchObject({
      modelGone: true,
      pin: { model: 'gpt-4o-mini' },
    });
    tab.provider.next('Hi from 5');
    await tab.chat.switchModelAndRetry(id, { provider: 'openai', model: 'gpt-5.1' });
    expect(shown(tab)).toEqual(['user: Hello?', 'assistant: Hi from 5']);
    expect(tab.provider.settings.at(-1)).toMatchObject({ model: 'gpt-5.1' });
    expect(active(tab).pin).toEqual({ provider: 'openai', model: 'gpt-5.1' });
    expect(activePath(active(tab)).at(-1)).toMatchObject({ model: 'gpt-5.1' });
    expect(tab.chat.store.getState().failedTurn).toBeNull();
  });

  it('Stop keeps the partial reply; nothing changes the tree while a reply streams', async () => {
    await sendAndWait(tab, 'first', 'reply');
    const firstReply = activePath(active(tab)).at(-1)?.id as string;
    const open = tab.provider.next();
    open.push('Half');
    await tab.chat.send('second');
    await vi.waitFor(() => expect(shown(tab).at(-1)).toBe('assistant: Half'));
    const before = active(tab);
    await tab.chat.deleteMessage(before.id, firstReply);
    await tab.chat.regenerate(before.id, firstReply);
    await tab.chat.clearConversation(before.id);
    expect(await tab.chat.send('third')).toBe(false);
    expect(active(tab).messages).toHaveLength(before.messages.length);
    tab.chat.stop();
    await idle(tab);
    expect(activePath(active(tab)).at(-1)).toMatchObject({ status: 'stopped' });
    expect(shown(tab).at(-1)).toBe('assistant: Half');
  });

  it('branches into a new conversation holding the path up to a message', async () => {
    await sendAndWait(tab, 'a', 'b');
    await sendAndWait(tab, 'c', 'd');
    const original = active(tab);
    const at = activePath(original)[2]?.id as string;
    await tab.chat.branchFrom(original.id, at);
    expect(active(tab).id).not.toBe(original.id);
    expect(active(tab).name).toBe(`${original.name} (branch)`);
    expect(shown(tab)).toEqual(['user: a', 'assistant: b']);
    expect(tab.chat.store.getState().list.map((row) => row.name)).toEqual([
      original.name,
      `${original.name} (branch)`,
    ]);
    expect(await tab.db.get(active(tab).id)).toBeDefined();
  });

  it('sends the conversation system prompt, and none when it is empty', async () => {
    await tab.chat.setSystemPrompt(active(tab).id, 'Answer in French.');
    await sendAndWait(tab, 'Hello', 'Bonjour');
    expect(tab.provider.sent[0]?.[0]).toEqual({ role: 'system', content: 'Answer in French.' });
    await tab.chat.setSystemPrompt(active(tab).id, '');
    await sendAndWait(tab, 'Again', 'Encore');
    expect(tab.provider.sent[1]?.map((message) => message.role)).toEqual(['user', 'assistant', 'user']);
  });
});

describe('Clear', () => {
  it('restarts from the default system message, and Undo brings back the messages and the prompt', async () => {
    await tab.chat.setSystemPrompt(active(tab).id, 'Answer in French.');
    await sendAndWait(tab, 'Hello', 'Bonjour');
    await tab.chat.clearConversation(active(tab).id);
    expect(shown(tab)).toEqual([]);
    expect(activePath(active(tab)).map(messageText)).toEqual(['You are a helpful assistant.']);
    await vi.waitFor(async () => expect((await stored(tab)).messages).toHaveLength(1));
    const toast = tab.calls.find((call) => call.message === 'Conversation cleared');
    expect(toast?.action?.label).toBe('Undo');

    toast?.action?.onClick();
    await vi.waitFor(() => expect(shown(tab)).toEqual(['user: Hello', 'assistant: Bonjour']));
    expect(activePath(active(tab)).map(messageText)[0]).toBe('Answer in French.');
    await vi.waitFor(async () =>
      expect(activePath(await stored(tab)).map(messageText)).toEqual([
        'Answer in French.',
        'Hello',
        'Bonjour',
      ]),
    );
  });

  it('Undo stores the files of the cleared messages again', async () => {
    const photo = { part: attachment('clear-photo'), blob: new Blob(['png']) };
    tab.provider.next('A photo');
    expect(await tab.chat.send('Look', [photo])).toBe(true);
    await idle(tab);
    await vi.waitFor(async () => expect(await tab.db.readAttachment('clear-photo')).toBeDefined());
    await tab.chat.clearConversation(active(tab).id);
    await vi.waitFor(async () => expect(await tab.db.readAttachment('clear-photo')).toBeUndefined());

    tab.calls.find((call) => call.message === 'Conversation cleared')?.action?.onClick();
    await vi.waitFor(async () => expect(await tab.db.readAttachment('clear-photo')).toBeDefined());
    expect(attachmentParts(activePath(active(tab))[1] as Message).map((part) => part.id)).toEqual([
      'clear-photo',
    ]);
  });
});

describe('saving while other things happen', () => {
  it('a conversation deleted while its save is in flight does not come back', async () => {
    const id = active(tab).id;
    void tab.chat.renameConversation(id, 'Renamed');
    await tab.chat.deleteConversation(id);
    await vi.waitFor(async () => expect(await tab.db.get(id)).toBeUndefined());
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(tab.chat.store.getState().list).toEqual([]);
    expect(tab.chat.store.getState().loaded[id]).toBeUndefined();
  });

  it('a page closed while a save or a delete is still in flight issues them again at once', async () => {
    tab.chat.watchBrowser();
    await sendAndWait(tab, 'keep me', 'kept');
    const pinned = active(tab).id;
    await tab.chat.newConversation();
    const deleted = active(tab).id;
    await vi.waitFor(async () => expect(await tab.db.get(deleted)).toBeDefined());
    // The browser ends a page's transactions as it goes: these writes never finish.
    const never = new Promise<never>(() => undefined);
    vi.spyOn(tab.db, 'update').mockReturnValue(never);
    vi.spyOn(tab.db, 'delete').mockReturnValueOnce(never);
    void tab.chat.placeConversation(pinned, 'pinned');
    void tab.chat.deleteConversation(deleted);
    await vi.waitFor(() => expect(tab.db.update).toHaveBeenCalled());
    tab.page.fire('close');
    await vi.waitFor(async () => expect((await tab.db.get(pinned))?.place).toBe('pinned'));
    await vi.waitFor(async () => expect(await tab.db.get(deleted)).toBeUndefined());
  });

  it('re-issued at close, a save in flight writes what it merged: nothing another tab wrote or deleted is undone', async () => {
    tab.chat.watchBrowser();
    await sendAndWait(tab, 'mine', 'kept');
    const merged = active(tab).id;
    const storedCopy = await tab.db.get(merged);
    await tab.chat.newConversation();
    const goneElsewhere = active(tab).id;
    await vi.waitFor(async () => expect(await tab.db.get(goneElsewhere)).toBeDefined());
    // Another tab added a reply to one, and deleted the other, before these transactions ran.
    const elsewhere = storedCopy && {
      ...storedCopy,
      messages: [...storedCopy.messages, { ...(storedCopy.messages.at(-1) as Message), id: 'other-tab' }],
    };
    const put = vi.spyOn(tab.db, 'put');
    vi.spyOn(tab.db, 'update').mockImplementation((id, change) => {
      change(id === merged ? elsewhere : undefined);
      return new Promise(() => undefined);
    });
    void tab.chat.placeConversation(merged, 'pinned');
    void tab.chat.renameConversation(goneElsewhere, 'Renamed here');
    await vi.waitFor(() => expect(tab.db.update).toHaveBeenCalledTimes(2));
    tab.page.fire('close');
    expect(put).toHaveBeenCalledTimes(1);
    const written = put.mock.calls[0]?.[0];
    expect(written?.id).toBe(merged);
    expect(written?.place).toBe('pinned');
    expect(written?.messages.map((message) => message.id)).toContain('other-tab');
  });

  it('a page closed while a rename is still being saved keeps the rename: that save is ended, and holds up no write', async () => {
    tab.chat.watchBrowser();
    const id = active(tab).id;
    await vi.waitFor(async () => expect(await tab.db.get(id)).toBeDefined());
    // As the browser does it: a write waits for the transactions issued before it, and one still
    // waiting on its read as the page goes ends uncommitted, and the writes held behind it with it.
    let held = 0;
    const waiting: (() => void)[] = [];
    vi.spyOn(tab.db, 'update').mockImplementation((_id, _change, options) => {
      held += 1;
      return new Promise((resolve) =>
        options?.signal?.addEventListener('abort', () => {
          held -= 1;
          if (held === 0) for (const write of waiting.splice(0)) write();
          const aborted = new DOMException('The transaction was aborted.', 'AbortError');
          resolve({ result: storageFailure(aborted), value: undefined, changed: false });
        }),
      );
    });
    const put = tab.db.put.bind(tab.db);
    vi.spyOn(tab.db, 'put').mockImplementation((conversation) =>
      held === 0
        ? put(conversation)
        : new Promise((resolve) => waiting.push(() => resolve(put(conversation)))),
    );
    void tab.chat.renameConversation(id, 'Second thoughts');
    await vi.waitFor(() => expect(tab.db.update).toHaveBeenCalled());
    tab.page.fire('close');
    await vi.waitFor(async () => expect((await tab.db.get(id))?.name).toBe('Second thoughts'));
    expect(tab.calls.filter((call) => call.kind === 'warning')).toEqual([]);
  });

  it('closed while two saves of a conversation are in flight, the copy the first read is written with the later change', async () => {
    tab.chat.watchBrowser();
    const id = active(tab).id;
    await vi.waitFor(async () => expect(await tab.db.get(id)).toBeDefined());
    const storedCopy = await tab.db.get(id);
    const never = new Promise<never>(() => undefined);
    const put = vi.spyOn(tab.db, 'put');
    // The first save (a pin) has read and merged; the second (a rename) has not read yet.
    vi.spyOn(tab.db, 'update')
      .mockImplementationOnce((_id, change) => {
        change(storedCopy);
        return never;
      })
      .mockReturnValueOnce(never);
    void tab.chat.placeConversation(id, 'pinned');
    void tab.chat.renameConversation(id, 'Second thoughts');
    await vi.waitFor(() => expect(tab.db.update).toHaveBeenCalledTimes(2));
    tab.page.fire('close');
    expect(put).toHaveBeenCalledTimes(1);
    expect(put.mock.calls[0]?.[0]).toMatchObject({ id, place: 'pinned', name: 'Second thoughts' });
  });

  it('a reply is not stored before its first text: a reload then shows the question alone', async () => {
    const open = tab.provider.next();
    await tab.chat.send('Thinking hard?');
    await vi.waitFor(async () =>
      expect(activePath(await stored(tab)).map(messageText)).toContain('Thinking hard?'),
    );
    expect(activePath(await stored(tab)).map((message) => message.role)).toEqual(['system', 'user']);
    open.push('Yes');
    await vi.waitFor(() => expect(shown(tab).at(-1)).toBe('assistant: Yes'));
    open.end();
    await idle(tab);
    await vi.waitFor(async () => expect(activePath(await stored(tab)).map(messageText)).toContain('Yes'));
  });

  it('deleting the conversation a reply streams into stops the reply', async () => {
    tab.provider.next().push('Going');
    await tab.chat.send('question');
    await vi.waitFor(() => expect(shown(tab).at(-1)).toBe('assistant: Going'));
    await tab.chat.deleteConversation(active(tab).id);
    await idle(tab);
    expect(tab.chat.store.getState().list).toEqual([]);
  });

  it('Undo of a delete while a reply streams keeps the streaming branch shown', async () => {
    await sendAndWait(tab, 'one', 'uno');
    const reply = activePath(active(tab)).at(-1)?.id as string;
    await tab.chat.deleteMessage(active(tab).id, reply);
    const open = tab.provider.next();
    open.push('dos');
    void tab.chat.retry(active(tab).id);
    await vi.waitFor(() => expect(shown(tab).at(-1)).toBe('assistant: dos'));
    tab.calls.find((call) => call.message === 'Message deleted')?.action?.onClick();
    await vi.waitFor(() =>
      expect(siblingsOf(active(tab), activePath(active(tab)).at(-1)?.id as string).siblings).toHaveLength(2),
    );
    expect(shown(tab).at(-1)).toBe('assistant: dos');
    open.end();
    await idle(tab);
  });
});

describe('the page', () => {
  it("takes another tab's saved settings when the page hears of them, and keeps its own conversation open", async () => {
    tab.chat.watchBrowser();
    const open = tab.chat.store.getState().activeId;
    localStorage.setItem('ai-chat-config', JSON.stringify({ ...config, model: 'gpt-4.1', temperature: 0.2 }));
    localStorage.setItem(storageKeys.theme, 'dark');
    localStorage.setItem(storageKeys.activeConversation, 'another');
    tab.page.fire('settingsChanged');
    expect(tab.chat.store.getState()).toMatchObject({
      config: { model: 'gpt-4.1', temperature: 0.2, apiKey: 'sk-test' },
      theme: 'dark',
      activeId: open,
    });
  });
});
