import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { defaultConfig, type Config } from '../domain/config.ts';
import { attachmentParts, messageText, type Conversation, type Message } from '../domain/conversation.ts';
import { activePath, siblingsOf } from '../domain/message-tree.ts';
import { ProviderError } from '../providers/provider-error.ts';
import type { ChatMessage, ChatProvider, ChatRequest, StreamPart } from '../providers/types.ts';
import { deleteDB, openDB } from 'idb';
import { base64OfBytes } from '../lib/base64.ts';
import { encryptText, randomBytes } from '../lib/passphrase-crypto.ts';
import { openConversationDb, type ConversationStore } from '../storage/conversation-db.ts';
import { storageKeys } from '../storage/keys.ts';
import { createSessionLocks } from '../storage/test-locks.ts';
import { createLocalSettings } from '../storage/local-settings.ts';
import { createMemoryStorage } from '../storage/test-storage.ts';
import type { PageEvents } from './chat-context.ts';
import { createTabSync, type TabSync } from '../storage/tab-sync.ts';
import { createChatController, type ChatController } from './chat-controller.ts';
import { modelListKey, targetConfig } from './chat-store.ts';
import { continuePrompt } from './reply-runner.ts';
import type { PreparedFile } from './attachment-files.ts';
import { attachment } from '../domain/__fixtures__/conversations.ts';
import type { Notifier } from './notify.ts';
import { backUp } from '../storage/backup-snapshot.ts';
import type { BackupRunner } from './backup-runner.ts';
import type { BackupWorkerRequest } from './backup.worker.ts';
import { inThreadImportWorker } from './test-import-worker.ts';
import { orderConversations } from '../domain/conversation-order.ts';

/** A reply the test hands out piece by piece, or fails. */
class ScriptedReply {
  readonly pieces: (string | Error | StreamPart)[] = [];
  /** The finish part the reply ends with. */
  finish: StreamPart = { type: 'finish', reason: 'stop' };
  private wake: (() => void) | null = null;
  private ended = false;
  push(piece: string | Error | StreamPart) {
    this.pieces.push(piece);
    this.wake?.();
  }
  end() {
    this.ended = true;
    this.wake?.();
  }
  async *stream(signal?: AbortSignal): AsyncGenerator<StreamPart> {
    for (;;) {
      if (signal?.aborted)
        throw new ProviderError({ provider: 'openai', kind: 'aborted', message: 'aborted' });
      const piece = this.pieces.shift();
      if (piece instanceof Error) throw piece;
      if (typeof piece === 'string') {
        yield { type: 'text-delta', text: piece };
        continue;
      }
      if (piece !== undefined) {
        yield piece;
        continue;
      }
      if (this.ended) break;
      await new Promise<void>((resolve) => {
        this.wake = resolve;
        signal?.addEventListener('abort', () => resolve(), { once: true });
      });
      this.wake = null;
    }
    yield this.finish;
  }
}

/** A provider whose every call takes the next scripted reply and records what was sent. */
function fakeProvider() {
  const replies: ScriptedReply[] = [];
  const sent: ChatMessage[][] = [];
  /** Each request's own settings (the pinned model, ...). */
  const settings: (ChatRequest['settings'] | undefined)[] = [];
  const efforts: ChatRequest['effort'][] = [];
  const streamed: ChatRequest['stream'][] = [];
  /** The connections services were built for. */
  const built: Config[] = [];
  const provider: ChatProvider = {
    id: 'openai',
    chat({ messages, signal, settings: requestSettings, effort, stream }) {
      sent.push(messages);
      efforts.push(effort);
      streamed.push(stream);
      settings.push(requestSettings);
      const reply = replies.shift() ?? new ScriptedReply();
      return reply.stream(signal);
    },
    listModels: () => Promise.resolve([]),
  };
  /** The next call's reply: finished at once with `text`, or left open for the test to drive. */
  function next(text?: string): ScriptedReply {
    const reply = new ScriptedReply();
    if (text !== undefined) {
      reply.push(text);
      reply.end();
    }
    replies.push(reply);
    return reply;
  }
  return { provider, sent, settings, efforts, streamed, built, next };
}

function recordingNotifier() {
  const calls: {
    kind: string;
    message: string;
    action?: { label: string; onClick(): void };
    untilDismissed?: boolean;
  }[] = [];
  const notify: Notifier = {
    success: (message, { action, untilDismissed } = {}) =>
      void calls.push({ kind: 'success', message, action, untilDismissed }),
    error: (message, _description, action) => void calls.push({ kind: 'error', message, action }),
    warning: (message, _description, action) => void calls.push({ kind: 'warning', message, action }),
    update: (message, action) => void calls.push({ kind: 'update', message, action }),
  };
  return { notify, calls };
}

/** The page's events, fired by the test. */
function fakePage() {
  const listeners = {
    settingsChanged: [] as (() => void)[],
    close: [] as (() => void)[],
    hidden: [] as (() => void)[],
  };
  const page: PageEvents = {
    onSettingsChanged: (listener) => void listeners.settingsChanged.push(listener),
    onClose: (listener) => void listeners.close.push(listener),
    onHidden: (listener) => void listeners.hidden.push(listener),
  };
  return {
    page,
    fire: (event: keyof typeof listeners) => listeners[event].forEach((listener) => listener()),
  };
}

const config: Config = { ...defaultConfig, apiKey: 'sk-test', model: 'gpt-4o-mini' };
let runId = 0;
const opened: { db: ConversationStore; sync: TabSync }[] = [];

interface Tab {
  chat: ChatController;
  provider: ReturnType<typeof fakeProvider>;
  calls: ReturnType<typeof recordingNotifier>['calls'];
  db: ConversationStore;
}

async function openTab(name: string, tabId: string, runBackup?: BackupRunner): Promise<Tab> {
  const provider = fakeProvider();
  const { notify, calls } = recordingNotifier();
  const db = await openConversationDb({ name });
  const tabSync = createTabSync({ tabId, channelName: name });
  opened.push({ db, sync: tabSync });
  let clock = Date.parse('2026-05-01T10:00:00.000Z');
  let ids = 0;
  const chat = createChatController({
    createProvider: (connection) => {
      provider.built.push(connection);
      return provider.provider;
    },
    openConversationStore: () => Promise.resolve(db),
    settings: createLocalSettings(localStorage),
    page: fakePage().page,
    tabSync,
    notify,
    // Each reading one millisecond later, so versions order by time as they would.
    now: () => new Date((clock += 1)),
    newId: () => `${tabId}-${(ids += 1)}`,
    ...(runBackup && { runBackup }),
    startImportWorker: inThreadImportWorker,
  });
  await chat.boot();
  return { chat, provider, calls, db };
}

function active(tab: Tab): Conversation {
  const { activeId, loaded } = tab.chat.store.getState();
  const conversation = activeId ? loaded[activeId] : undefined;
  if (!conversation) throw new Error('no active conversation');
  return conversation;
}

function shown(tab: Tab): string[] {
  return activePath(active(tab))
    .filter((message) => message.role !== 'system')
    .map((message) => `${message.role}: ${messageText(message)}`);
}

async function idle(tab: Tab) {
  await vi.waitFor(() => expect(tab.chat.store.getState().streaming).toBeNull());
}

async function sendAndWait(tab: Tab, text: string, reply: string) {
  tab.provider.next(reply);
  expect(await tab.chat.send(text)).toBe(true);
  await vi.waitFor(() => expect(shown(tab).at(-1)).toBe(`assistant: ${reply}`));
  await idle(tab);
}

/** The stored copy, as a fresh reader sees it. */
async function stored(tab: Tab): Promise<Conversation> {
  const conversation = await tab.db.get(active(tab).id);
  if (!conversation) throw new Error('not stored');
  return conversation;
}

let tab: Tab;
let databaseName: string;
/** The tabs' shared localStorage (one browser profile), a fresh one for each test. */
let localStorage: ReturnType<typeof createMemoryStorage>;

beforeEach(async () => {
  localStorage = createMemoryStorage();
  localStorage.setItem('ai-chat-config', JSON.stringify(config));
  // Named by their model only in the tests of that (below): the others script every call.
  localStorage.setItem('ai-chat-auto-title', 'off');
  runId += 1;
  databaseName = `controller-${runId}-${Date.now()}`;
  tab = await openTab(databaseName, 'a');
  await tab.chat.newConversation();
});

afterEach(() => {
  for (const { db, sync } of opened.splice(0)) {
    sync.close();
    db.close();
  }
  vi.unstubAllGlobals();
});

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

describe('every provider at once', () => {
  const claude: Config = {
    provider: 'claude',
    apiKey: 'sk-ant-test',
    model: 'claude-sonnet-4-5',
    temperature: 0.5,
    maxTokens: 2048,
  };

  it("remembers each saved provider, and a release-1 configuration counts as its provider's from the start", async () => {
    expect(tab.chat.store.getState().connections).toEqual({ openai: config });
    tab.chat.saveConfiguration(claude);
    tab.chat.saveConfiguration(config);
    expect(tab.chat.store.getState().connections).toEqual({ openai: config, claude });
    expect(JSON.parse(localStorage.getItem('ai-chat-connections') ?? '{}')).toEqual({
      openai: config,
      claude,
    });
  });

  it("a pinned conversation asks the pinned provider's connection with the pinned model; unpinned it follows the saved one", async () => {
    tab.chat.saveConfiguration(claude);
    tab.chat.saveConfiguration(config);
    const id = active(tab).id;
    await tab.chat.pinModel(id, { provider: 'claude', model: 'claude-opus-4-8' });
    expect(targetConfig(tab.chat.store.getState(), id)).toEqual({ ...claude, model: 'claude-opus-4-8' });

    await sendAndWait(tab, 'Hello Claude', 'Hi');
    expect(tab.provider.settings.at(-1)).toMatchObject({
      model: 'claude-opus-4-8',
      temperature: 0.5,
      maxTokens: 2048,
    });
    // The service was built for Claude's connection, which holds no model: another model reuses it.
    const claudeServices = tab.provider.built.filter((connection) => connection.provider === 'claude');
    expect(claudeServices).toHaveLength(1);
    expect(claudeServices[0]).not.toHaveProperty('model');
    expect(activePath(active(tab)).at(-1)).toMatchObject({ provider: 'claude', model: 'claude-opus-4-8' });
    expect((await stored(tab)).pin).toEqual({ provider: 'claude', model: 'claude-opus-4-8' });

    await tab.chat.pinModel(id, { provider: 'claude', model: 'claude-haiku-4-5' });
    await sendAndWait(tab, 'Again', 'Sure');
    expect(tab.provider.settings.at(-1)).toMatchObject({ model: 'claude-haiku-4-5' });
    expect(tab.provider.built.filter((connection) => connection.provider === 'claude')).toHaveLength(1);

    await tab.chat.pinModel(id, null);
    await sendAndWait(tab, 'And you?', 'OpenAI here');
    expect(tab.provider.settings.at(-1)).toMatchObject({ model: 'gpt-4o-mini' });
    expect(activePath(active(tab)).at(-1)).toMatchObject({ provider: 'openai', model: 'gpt-4o-mini' });
  });

  it('a pin to a provider never configured asks to configure that provider', async () => {
    await tab.chat.pinModel(active(tab).id, { provider: 'gemini', model: 'gemini-2.5-pro' });
    expect(await tab.chat.send('Hello?')).toBe(false);
    expect(tab.calls.at(-1)).toMatchObject({
      kind: 'error',
      message: 'Please configure Gemini settings first',
    });
  });

  it('an import without a key: the key of the same address, never one for another host; Undo restores the connections', async () => {
    tab.chat.saveConfiguration(claude);
    tab.chat.saveConfiguration(config);
    const before = tab.chat.store.getState().connections;
    const importOf = (imported: Record<string, unknown>) =>
      new Blob([JSON.stringify({ version: '2.0', config: imported })]);
    const replaced = { replaced: true };

    // The same connection as the current one keeps the current key (docs/decisions.md#key-left-out-of-exports).
    const withoutKey = (value: Config) =>
      Object.fromEntries(Object.entries(value).filter(([key]) => key !== 'apiKey'));
    const openaiWithoutKey = withoutKey(config);
    expect(await tab.chat.importFile(importOf({ ...openaiWithoutKey, model: 'gpt-4.1' }))).toEqual(replaced);
    expect(tab.chat.store.getState().config).toMatchObject({
      provider: 'openai',
      apiKey: 'sk-test',
      model: 'gpt-4.1',
    });

    // Claude's remembered key for Claude.
    const claudeWithoutKey = withoutKey(claude);
    expect(await tab.chat.importFile(importOf(claudeWithoutKey))).toEqual(replaced);
    expect(tab.chat.store.getState().config.apiKey).toBe('sk-ant-test');

    // A file naming another host gets no key at all.
    expect(
      await tab.chat.importFile(importOf({ ...openaiWithoutKey, baseUrl: 'https://collector.example' })),
    ).toEqual(replaced);
    expect(tab.chat.store.getState().config).toMatchObject({
      baseUrl: 'https://collector.example',
      apiKey: '',
    });
    expect(tab.chat.store.getState().connections.openai?.apiKey).toBe('');

    const imported = tab.calls.filter((call) => call.message === 'Data imported successfully').at(-1);
    expect(imported?.untilDismissed).toBe(false);
    imported?.action?.onClick();
    await vi.waitFor(() => expect(tab.chat.store.getState().connections.openai?.apiKey).toBe('sk-test'));
    expect(Object.keys(tab.chat.store.getState().connections).sort()).toEqual(Object.keys(before).sort());
  });

  it("the toast's Retry after Regenerate with… asks the same model again", async () => {
    tab.chat.saveConfiguration(claude);
    tab.chat.saveConfiguration(config);
    await sendAndWait(tab, 'Compare', 'From OpenAI');
    const reply = activePath(active(tab)).at(-1);
    if (!reply) throw new Error('no reply');
    tab.provider.next().push(new ProviderError({ provider: 'claude', kind: 'server', message: 'boom' }));
    await tab.chat.regenerate(active(tab).id, reply.id, { provider: 'claude', model: 'claude-haiku-4-5' });
    await idle(tab);
    const retry = tab.calls.filter((call) => call.message === 'Error calling Claude API').at(-1)?.action;
    expect(retry).toBeDefined();
    tab.provider.next('From Claude');
    retry?.onClick();
    await vi.waitFor(() => expect(shown(tab).at(-1)).toBe('assistant: From Claude'));
    await idle(tab);
    expect(activePath(active(tab)).at(-1)).toMatchObject({ provider: 'claude', model: 'claude-haiku-4-5' });
    expect(tab.provider.settings.at(-1)).toMatchObject({ model: 'claude-haiku-4-5' });
  });

  it('Regenerate with another model asks it for this reply only', async () => {
    tab.chat.saveConfiguration(claude);
    tab.chat.saveConfiguration(config);
    await sendAndWait(tab, 'Compare', 'From OpenAI');
    const reply = activePath(active(tab)).at(-1);
    if (!reply) throw new Error('no reply');
    tab.provider.next('From Claude');
    await tab.chat.regenerate(active(tab).id, reply.id, { provider: 'claude', model: 'claude-haiku-4-5' });
    await idle(tab);
    const latest = activePath(active(tab)).at(-1);
    expect(latest).toMatchObject({ provider: 'claude', model: 'claude-haiku-4-5' });
    expect(siblingsOf(active(tab), latest?.id ?? '').siblings).toHaveLength(2);
    expect(active(tab).pin).toBeUndefined();
  });
});

describe('reasoning and the figures of a reply', () => {
  const thinkingReply = () => {
    const reply = tab.provider.next();
    reply.push({ type: 'reasoning-delta', text: 'Adding ' });
    reply.push({ type: 'reasoning-delta', text: 'two and two.' });
    reply.push({ type: 'reasoning-end', signature: 'sig-1' });
    reply.push({ type: 'reasoning-redacted', data: 'hidden-1' });
    reply.push('4');
    reply.finish = {
      type: 'finish',
      reason: 'length',
      usage: { inputTokens: 120, outputTokens: 30, reasoningTokens: 20, totalTokens: 150 },
    };
    reply.end();
  };

  it('keeps the reasoning apart from the answer, with its signature, figures and how it ended', async () => {
    thinkingReply();
    expect(await tab.chat.send('2+2?')).toBe(true);
    await idle(tab);
    const reply = activePath(active(tab)).at(-1);
    expect(reply?.parts).toEqual([
      { type: 'reasoning', text: 'Adding two and two.', signature: 'sig-1' },
      { type: 'reasoning', text: '', signature: 'hidden-1', redacted: true },
      { type: 'text', text: '4' },
    ]);
    expect(messageText(reply as Message)).toBe('4');
    expect(reply?.stats).toMatchObject({
      usage: { inputTokens: 120, outputTokens: 30, reasoningTokens: 20, totalTokens: 150 },
      finishReason: 'length',
    });
    // The fake clock moves one millisecond per reading: thinking took the readings between.
    expect(reply?.stats?.firstTokenMs).toBeGreaterThan(0);
    expect(reply?.stats?.thinkingMs).toBeGreaterThan(0);
    expect(reply?.stats?.totalMs).toBeGreaterThan(reply?.stats?.firstTokenMs ?? 0);
    // Stored as it was shown, and read back the same.
    await vi.waitFor(async () => expect(activePath(await stored(tab)).at(-1)).toEqual(reply));
  });

  it('sends reasoning back only to the model that wrote it', async () => {
    thinkingReply();
    await tab.chat.send('2+2?');
    await idle(tab);
    await sendAndWait(tab, 'Sure?', 'Yes');
    expect(tab.provider.sent[1]?.[2]).toEqual({
      role: 'assistant',
      content: '4',
      reasoning: [
        { type: 'reasoning', text: 'Adding two and two.', signature: 'sig-1' },
        { type: 'reasoning', text: '', signature: 'hidden-1', redacted: true },
      ],
    });
    await tab.chat.pinModel(active(tab).id, { provider: 'openai', model: 'gpt-4.1' });
    await sendAndWait(tab, 'Another model?', 'Still 4');
    expect(tab.provider.sent[2]?.[2]).toEqual({ role: 'assistant', content: '4' });
  });

  it("asks with the conversation's reasoning effort, and without one after going back to the default", async () => {
    const id = active(tab).id;
    await tab.chat.setReasoningEffort(id, 'high');
    await sendAndWait(tab, 'Think hard', 'Done');
    expect((await stored(tab)).effort).toBe('high');
    await tab.chat.setReasoningEffort(id, null);
    await sendAndWait(tab, 'Now quickly', 'Done again');
    expect(tab.provider.efforts).toEqual(['high', undefined]);
  });

  it('Continue extends a reply cut off at the token limit, with no turn of its own', async () => {
    thinkingReply();
    await tab.chat.send('Write a lot');
    await idle(tab);
    const cut = activePath(active(tab)).at(-1);
    tab.provider.next(' and the rest.');
    await tab.chat.continueReply(active(tab).id, cut?.id ?? '');
    await idle(tab);
    expect(shown(tab)).toEqual(['user: Write a lot', 'assistant: 4 and the rest.']);
    const reply = activePath(active(tab)).at(-1);
    expect(reply?.id).toBe(cut?.id);
    // Its thinking stays; its figures are now those of the part that ended it.
    expect(reply?.parts[0]).toEqual({ type: 'reasoning', text: 'Adding two and two.', signature: 'sig-1' });
    expect(reply?.stats?.finishReason).toBeUndefined();
    // The model was asked with the reply so far, then to go on.
    expect(tab.provider.sent[1]?.slice(-2).map(({ role, content }) => `${role}: ${content}`)).toEqual([
      'assistant: 4',
      `user: ${continuePrompt}`,
    ]);
    await vi.waitFor(async () =>
      expect(activePath(await stored(tab)).map(messageText)).toEqual([
        'You are a helpful assistant.',
        'Write a lot',
        '4 and the rest.',
      ]),
    );
  });

  it('a Continue that fails before any text keeps the reply as it was', async () => {
    thinkingReply();
    await tab.chat.send('Write a lot');
    await idle(tab);
    const cut = activePath(active(tab)).at(-1);
    tab.provider
      .next()
      .push(new ProviderError({ provider: 'openai', kind: 'network', message: 'Connection lost' }));
    await tab.chat.continueReply(active(tab).id, cut?.id ?? '');
    await idle(tab);
    expect(activePath(active(tab)).at(-1)).toEqual(cut);
  });

  it('keeps a reply that ended normally with nothing in it, with its figures (filtered, or all hidden reasoning)', async () => {
    const reply = tab.provider.next();
    reply.finish = { type: 'finish', reason: 'length', usage: { outputTokens: 800, reasoningTokens: 800 } };
    reply.end();
    await tab.chat.send('Think forever');
    await idle(tab);
    expect(activePath(active(tab)).at(-1)).toMatchObject({
      role: 'assistant',
      parts: [{ type: 'text', text: '' }],
      stats: { usage: { outputTokens: 800, reasoningTokens: 800 }, finishReason: 'length' },
    });
  });

  it('keeps reasoning that arrived before a Stop, with no answer yet', async () => {
    const reply = tab.provider.next();
    reply.push({ type: 'reasoning-delta', text: 'Still thinking' });
    await tab.chat.send('Hard question');
    await vi.waitFor(() =>
      expect(activePath(active(tab)).at(-1)?.parts[0]).toEqual({ type: 'reasoning', text: 'Still thinking' }),
    );
    tab.chat.stop();
    await idle(tab);
    expect(activePath(active(tab)).at(-1)).toMatchObject({
      status: 'stopped',
      parts: [
        { type: 'reasoning', text: 'Still thinking' },
        { type: 'text', text: '' },
      ],
    });
  });
});

describe('files', () => {
  const png = (id: string, size = 3): PreparedFile => ({
    part: attachment(id, { size }),
    blob: new Blob([new Uint8Array(size).fill(7)], { type: 'image/png' }),
  });
  const notes: PreparedFile = {
    part: attachment('notes', { kind: 'text', name: 'notes.md', mimeType: 'text/markdown', size: 5 }),
    blob: new Blob(['# Hi!'], { type: 'text/markdown' }),
  };
  delete notes.part.width;
  delete notes.part.height;

  it('sends files with the message, stores their bytes with it, and sends them again next turn', async () => {
    tab.provider.next('A dot.');
    expect(await tab.chat.send('What is this?', [png('dot'), notes])).toBe(true);
    await idle(tab);
    const image = { kind: 'image', name: 'dot.png', mimeType: 'image/png', data: 'BwcH' };
    expect(tab.provider.sent[0]?.[1]).toEqual({
      role: 'user',
      content: '<file name="notes.md">\n# Hi!\n</file>\n\nWhat is this?',
      files: [image],
    });
    const question = activePath(await stored(tab))[1] as Message;
    expect(question.parts.map((part) => part.type)).toEqual(['attachment', 'attachment', 'text']);
    expect(await (await tab.db.readAttachment('dot'))?.text()).toBe('\u0007\u0007\u0007');

    await sendAndWait(tab, 'And now?', 'Still a dot.');
    expect(tab.provider.sent[1]?.[1]?.files).toEqual([image]);
  });

  it('a model that does not see images: the message is refused with why, and nothing is sent', async () => {
    localStorage.setItem('ai-chat-config', JSON.stringify({ ...config, model: 'gpt-3.5-turbo' }));
    tab = await openTab(databaseName, 'b');
    await tab.chat.newConversation();
    expect(await tab.chat.send('Look', [png('dot')])).toBe(false);
    expect(tab.calls.at(-1)?.message).toBe(
      'gpt-3.5-turbo does not see images. Remove dot.png, or choose a model that does.',
    );
    expect(tab.provider.sent).toEqual([]);
    expect(shown(tab)).toEqual([]);
  });

  it('more file bytes than the provider takes per request: refused with the limit, nothing sent', async () => {
    expect(await tab.chat.send('Look', [png('huge', 40 * 1024 * 1024)])).toBe(false);
    expect(tab.calls.at(-1)?.message).toBe(
      'Too large to send: the files in this conversation come to 53.3 MB, and OpenAI takes at most 50 MB per request.',
    );
    expect(tab.provider.sent).toEqual([]);
  });

  it("a branch into a new conversation gets its own copy of the files: deleting one keeps the other's", async () => {
    tab.provider.next('A dot.');
    await tab.chat.send('What is this?', [png('dot')]);
    await idle(tab);
    const original = active(tab);
    await tab.chat.branchFrom(original.id, (activePath(original)[2] as Message).id);
    const branch = active(tab);
    expect(branch.id).not.toBe(original.id);
    const [copy] = attachmentParts(activePath(branch)[1] as Message);
    expect(copy?.id).toBeDefined();
    expect(copy?.id).not.toBe('dot');
    await vi.waitFor(async () => expect(await tab.db.readAttachment(copy?.id as string)).toBeDefined());
    await tab.chat.deleteConversation(original.id);
    await vi.waitFor(async () => expect(await tab.db.readAttachment('dot')).toBeUndefined());
    expect(await (await tab.db.readAttachment(copy?.id as string))?.text()).toBe('\u0007\u0007\u0007');
  });

  it('deleting the message deletes its stored files', async () => {
    tab.provider.next('A dot.');
    await tab.chat.send('What is this?', [png('dot')]);
    await idle(tab);
    await vi.waitFor(async () => expect(await tab.db.readAttachment('dot')).toBeDefined());
    const question = activePath(active(tab))[1] as Message;
    tab.chat.deleteMessage(active(tab).id, question.id);
    await vi.waitFor(async () => expect(await tab.db.readAttachment('dot')).toBeUndefined());
  });
});

describe('auto-title', () => {
  const name = () => active(tab).name;
  /** Scripts the reply and then the title call's answer (calls take them in order), and sends. */
  async function sendWithTitle(question: string, reply: string) {
    tab.provider.next(reply);
    const title = tab.provider.next();
    expect(await tab.chat.send(question)).toBe(true);
    await vi.waitFor(() => expect(tab.provider.sent.length).toBeGreaterThanOrEqual(2));
    return title;
  }

  beforeEach(() => tab.chat.setAutoTitle(true));

  it('asks the model once, not streamed, after the first reply, and names the conversation', async () => {
    const title = await sendWithTitle('What is a zebra crossing?', 'A striped crossing.');
    title.push('**Title:** "Zebra crossings."');
    title.end();
    await vi.waitFor(() => expect(name()).toBe('Zebra crossings'));
    expect(tab.provider.streamed).toEqual([undefined, false]);
    expect(tab.provider.sent[1]?.[1]?.content).toBe(
      'User: What is a zebra crossing?\n\nAssistant: A striped crossing.',
    );
    expect(tab.provider.settings[1]?.maxTokens).toBe(40);
    await vi.waitFor(async () => expect((await stored(tab)).name).toBe('Zebra crossings'));
    expect(localStorage.getItem('ai-chat-auto-title')).toBe('on');

    await sendAndWait(tab, 'And a pelican crossing?', 'One with lights.');
    expect(tab.provider.sent).toHaveLength(3);
  });

  it('leaves a conversation the user renamed, before or while the title was asked', async () => {
    await tab.chat.renameConversation(active(tab).id, 'My name');
    await sendAndWait(tab, 'Question', 'Answer');
    expect(tab.provider.sent).toHaveLength(1);

    await tab.chat.newConversation();
    const title = await sendWithTitle('Question', 'Answer');
    await tab.chat.renameConversation(active(tab).id, 'Chosen meanwhile');
    title.push('Model title');
    title.end();
    // A whole reply later, the title's answer (read before it) has long been handled.
    await sendAndWait(tab, 'Next', 'Reply');
    expect(name()).toBe('Chosen meanwhile');
  });

  it('keeps the name, without a toast, when the title call fails; never asks when turned off', async () => {
    const gaveUp = vi.spyOn(console, 'info').mockImplementation(() => undefined);
    const title = await sendWithTitle('Question', 'Answer');
    title.push(new ProviderError({ provider: 'openai', kind: 'server', status: 500, message: 'boom' }));
    await vi.waitFor(() => expect(gaveUp).toHaveBeenCalledOnce());
    expect(name()).toBe('Conversation 1');
    expect(tab.calls).toEqual([]);

    tab.chat.setAutoTitle(false);
    await tab.chat.newConversation();
    await sendAndWait(tab, 'Question', 'Answer');
    expect(tab.provider.sent).toHaveLength(3);
    expect(name()).toBe('Conversation 2');
  });
});

describe('backups', () => {
  it('takes the day’s backup once a reply is saved, never with the key, and restores it with Undo', async () => {
    const name = `${databaseName}-backups`;
    const requests: BackupWorkerRequest[] = [];
    const backups = await openTab(name, 'b', async (request) => {
      requests.push(request);
      // The worker's own work, on this thread.
      return backUp({ ...request, now: new Date(request.now) }, { databaseName: name });
    });
    await backups.chat.newConversation();
    await sendAndWait(backups, 'Keep this', 'Kept');
    await vi.waitFor(async () => expect((await backups.chat.listBackups()).backups).toHaveLength(1), {
      timeout: 8000,
    });
    expect(requests.map(({ reason, config }) => [reason, config.apiKey])).toEqual([['daily', '']]);
    const kept = active(backups).id;

    await backups.chat.deleteConversation(kept);
    await backups.chat.newConversation();
    await sendAndWait(backups, 'Other', 'Reply');
    const [info] = (await backups.chat.listBackups()).backups;
    expect(await backups.chat.restoreBackup(info?.id ?? '')).toBe(true);
    expect(backups.chat.store.getState().list.map((row) => row.id)).toEqual([kept]);
    expect(shown(backups)).toEqual(['user: Keep this', 'assistant: Kept']);
    // The key is the one this browser holds.
    expect(backups.chat.store.getState().config.apiKey).toBe('sk-test');
    const restored = backups.calls.find((call) => call.message === 'Backup restored');
    // Its Undo waits until dismissed; an import's fades as other toasts do.
    expect(restored?.untilDismissed).toBe(true);
    restored?.action?.onClick();
    await vi.waitFor(() => expect(backups.calls.map((call) => call.message)).toContain('Restore undone'));
    expect(backups.chat.store.getState().list).toHaveLength(1);
    expect(backups.chat.store.getState().list[0]?.id).not.toBe(kept);
  }, 15_000);
});

describe('keys protected with a passphrase', () => {
  const stored = (key: string) =>
    JSON.parse(localStorage.getItem(key) ?? 'null') as Record<string, unknown> | null;
  const keySessions = storageKeys.keySessionDatabase;

  /** Every tab's key kept for its reloads, as IndexedDB holds them. */
  async function keptKeys(): Promise<unknown[]> {
    const db = await openDB(keySessions.name, keySessions.version, {
      upgrade: (created) => void created.createObjectStore(keySessions.store),
    });
    try {
      return await db.getAll(keySessions.store);
    } finally {
      db.close();
    }
  }

  async function expectUnreadable(key: unknown) {
    expect(key).toBeInstanceOf(CryptoKey);
    await expect(crypto.subtle.exportKey('raw', key as CryptoKey)).rejects.toThrow();
  }

  /** A new tab: its own sessionStorage, returned. */
  function newTab() {
    const session = createMemoryStorage();
    vi.stubGlobal('sessionStorage', session);
    return session;
  }

  /** A new browser session: a new tab, and Web Locks no earlier tab holds. */
  function newSession() {
    vi.stubGlobal('navigator', { locks: createSessionLocks() });
    return newTab();
  }

  beforeEach(async () => {
    newSession();
    await deleteDB(keySessions.name);
  });

  it('stores the keys only encrypted, asks a new session once, and refuses a wrong passphrase', async () => {
    expect(await tab.chat.protectKeys('passphrase')).toBe(true);
    expect(stored('ai-chat-config')).toEqual({ ...config, apiKey: '' });
    expect(JSON.stringify(stored('ai-chat-connections'))).not.toContain('sk-test');
    expect(stored('ai-chat-key-vault')).toMatchObject({ format: 1, iterations: 600_000 });
    expect(localStorage.getItem('ai-chat-key-vault')).not.toContain('sk-test');
    // This session goes on with its key.
    await sendAndWait(tab, 'Still', 'works');

    // A new browser session: no session key, no other tab; what the last one kept is cleared.
    const session = newSession();
    const later = await openTab(`${databaseName}-later`, 'later');
    await vi.waitFor(() => expect(later.chat.view.getState().overlay).toBe('unlock-keys'));
    expect(later.chat.store.getState()).toMatchObject({ keyLock: 'locked', config: { apiKey: '' } });
    await vi.waitFor(async () => expect(await keptKeys()).toEqual([]));
    later.chat.setOverlay(null);
    await later.chat.newConversation();
    // A message asks for the passphrase; 'Not now' keeps it unsent.
    const refused = later.chat.send('Locked');
    expect(later.chat.view.getState().overlay).toBe('unlock-keys');
    later.chat.setOverlay(null);
    expect(await refused).toBe(false);
    expect(later.provider.sent).toHaveLength(0);

    // Once unlocked, the message that asked is sent.
    later.provider.next('Sent once unlocked');
    const waiting = later.chat.send('Asked while locked');
    expect(await later.chat.unlockKeys('wrong')).toBe(false);
    expect(later.chat.store.getState().keyLock).toBe('locked');
    expect(await later.chat.unlockKeys('passphrase')).toBe(true);
    expect(later.chat.store.getState()).toMatchObject({ keyLock: 'unlocked', config: { apiKey: 'sk-test' } });
    expect(await waiting).toBe(true);
    await vi.waitFor(() =>
      expect(shown(later)).toEqual(['user: Asked while locked', 'assistant: Sent once unlocked']),
    );
    await idle(later);
    // The key kept for a reload cannot be read out, and sessionStorage holds only a random token.
    const [kept, ...others] = await keptKeys();
    expect(others).toEqual([]);
    await expectUnreadable(kept);
    expect([...session.values.keys()]).toEqual(['ai-chat-key-token']);
    expect(session.values.get('ai-chat-key-token')).toMatch(/^[0-9a-f-]{36}$/);

    // A reload of that tab (same session, no tab to hand the key over) unlocks by itself.
    const reloaded = await openTab(`${databaseName}-reloaded`, 'reloaded');
    expect(reloaded.chat.store.getState()).toMatchObject({
      keyLock: 'unlocked',
      config: { apiKey: 'sk-test' },
    });
  }, 20_000);

  it('hands the key to a new tab without asking, as a key that cannot be read out', async () => {
    await tab.chat.protectKeys('passphrase');
    newTab();
    const second = await openTab(databaseName, 'second');
    await vi.waitFor(() =>
      expect(second.chat.store.getState()).toMatchObject({
        keyLock: 'unlocked',
        config: { apiKey: 'sk-test' },
      }),
    );
    // Past the wait before the passphrase is asked.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(second.chat.view.getState().overlay).toBeNull();
    // Each tab keeps its copy for its reloads: the one handed over cannot be read out either.
    const kept = await keptKeys();
    expect(kept).toHaveLength(2);
    for (const key of kept) await expectUnreadable(key);
  }, 20_000);

  it('opens the vault with an earlier release’s session key once, kept as a key that cannot be read out', async () => {
    const raw = randomBytes(32);
    const key = await crypto.subtle.importKey('raw', raw, 'AES-GCM', false, ['encrypt']);
    const { iv, data } = await encryptText(key, JSON.stringify({ openai: 'sk-earlier' }));
    localStorage.setItem('ai-chat-config', JSON.stringify({ ...config, apiKey: '' }));
    localStorage.setItem(
      'ai-chat-key-vault',
      JSON.stringify({
        format: 1,
        iterations: 600_000,
        salt: base64OfBytes(randomBytes(16)),
        iv: base64OfBytes(iv),
        data: base64OfBytes(data),
      }),
    );
    const session = newTab();
    session.setItem('ai-chat-key-session', base64OfBytes(raw));
    const upgraded = await openTab(`${databaseName}-upgraded`, 'upgraded');
    expect(upgraded.chat.store.getState()).toMatchObject({
      keyLock: 'unlocked',
      config: { apiKey: 'sk-earlier' },
    });
    expect([...session.values.keys()]).toEqual(['ai-chat-key-token']);
    const [kept] = await keptKeys();
    await expectUnreadable(kept);

    const reloaded = await openTab(`${databaseName}-reloaded`, 'reloaded');
    expect(reloaded.chat.store.getState()).toMatchObject({
      keyLock: 'unlocked',
      config: { apiKey: 'sk-earlier' },
    });
  }, 20_000);

  it('keeps a key saved while unlocked in the vault, and stores keys plainly again when turned off', async () => {
    await tab.chat.protectKeys('passphrase');
    tab.chat.saveConfiguration({ ...config, apiKey: 'sk-new' });
    await vi.waitFor(async () => {
      newSession();
      const other = await openTab(`${databaseName}-${Math.random()}`, `other-${Math.random()}`);
      expect(await other.chat.unlockKeys('passphrase')).toBe(true);
      expect(other.chat.store.getState().config.apiKey).toBe('sk-new');
    });
    expect(stored('ai-chat-config')).toMatchObject({ apiKey: '' });
    expect(await keptKeys()).not.toEqual([]);

    expect(await tab.chat.unprotectKeys()).toBe(true);
    expect(stored('ai-chat-config')).toMatchObject({ apiKey: 'sk-new' });
    expect(localStorage.getItem('ai-chat-key-vault')).toBeNull();
    // No tab's copy of the key is kept any more.
    await vi.waitFor(async () => expect(await keptKeys()).toEqual([]));
  }, 20_000);

  it('Forgot passphrase clears every key and every kept copy, and nothing else; Undo brings the vault back', async () => {
    await sendAndWait(tab, 'Keep', 'me');
    await tab.chat.protectKeys('passphrase');
    newTab();
    const later = await openTab(databaseName, 'later');
    await vi.waitFor(() => expect(later.chat.store.getState().keyLock).toBe('unlocked'));
    expect(await keptKeys()).toHaveLength(2);
    await later.chat.forgetKeys();
    expect(later.chat.store.getState()).toMatchObject({ keyLock: 'off', config: { ...config, apiKey: '' } });
    expect(localStorage.getItem('ai-chat-key-vault')).toBeNull();
    expect(stored('ai-chat-config')).toEqual({ ...config, apiKey: '' });
    expect(later.chat.store.getState().list).toHaveLength(1);
    await vi.waitFor(async () => expect(await keptKeys()).toEqual([]));

    const cleared = later.calls.find((call) => call.message === 'API keys cleared');
    cleared?.action?.onClick();
    expect(later.chat.store.getState().keyLock).toBe('locked');
    expect(later.chat.view.getState().overlay).toBe('unlock-keys');
    expect(await later.chat.unlockKeys('passphrase')).toBe(true);
    expect(later.chat.store.getState().config.apiKey).toBe('sk-test');
  }, 20_000);
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

describe('a key of another provider', () => {
  const claudeWithOpenAiKey: Config = {
    provider: 'claude',
    apiKey: 'sk-proj-openai-key',
    model: 'claude-sonnet-4-5',
    temperature: 0.7,
    maxTokens: 1024,
  };

  it('is neither tested nor saved with the other provider until the user confirms it', async () => {
    const builtBefore = tab.provider.built.length;
    expect(tab.chat.keyWarning(claudeWithOpenAiKey)).toBe('This looks like an OpenAI key');
    const check = await tab.chat.checkConnection(claudeWithOpenAiKey);
    expect(check).toEqual({
      ok: false,
      message:
        'This looks like an OpenAI key: it was not sent to Claude. Replace it, or choose Use it anyway.',
    });
    expect(tab.chat.saveConfiguration(claudeWithOpenAiKey)).toMatch(/^This looks like an OpenAI key/);
    expect(tab.chat.store.getState().config.provider).toBe('openai');
    expect(tab.provider.built).toHaveLength(builtBefore);

    tab.chat.confirmKey(claudeWithOpenAiKey);
    expect(tab.chat.keyWarning(claudeWithOpenAiKey)).toBeNull();
    // Confirmed for this key and provider only.
    expect(tab.chat.keyWarning({ ...claudeWithOpenAiKey, provider: 'groq' })).toBe(
      'This looks like an OpenAI key',
    );
    expect((await tab.chat.checkConnection(claudeWithOpenAiKey)).ok).toBe(true);
    expect(tab.chat.saveConfiguration(claudeWithOpenAiKey)).toBeNull();
    expect(tab.chat.store.getState().config).toEqual(claudeWithOpenAiKey);
  });

  it("passes a key of the provider's own shape, and a connection's saved key", async () => {
    expect(tab.chat.keyWarning({ ...claudeWithOpenAiKey, apiKey: 'sk-ant-key' })).toBeNull();
    expect(tab.chat.keyWarning({ ...config, apiKey: 'plain-key' })).toBeNull();
  });
});

describe('an OpenAI-compatible endpoint', () => {
  it('is tested with its base URL alone, its models listed, and not saved without a model', async () => {
    tab.provider.provider.listModels = () =>
      Promise.resolve([
        { id: 'llama3.2:latest', capabilities: {} },
        { id: 'qwen3:8b', capabilities: {} },
      ]);
    const endpoint = { ...tab.chat.newEndpointDraft(config), baseUrl: 'http://localhost:11434/v1' };
    expect(await tab.chat.checkConnection(endpoint)).toMatchObject({
      ok: true,
      message: 'Connected: 2 models available.',
    });
    expect(tab.chat.store.getState().modelLists[modelListKey(endpoint)]?.map(({ id }) => id)).toEqual([
      'llama3.2:latest',
      'qwen3:8b',
    ]);
    expect(tab.chat.saveConfiguration(endpoint)).toMatch(/^Not saved: choose a model\./);
    expect(tab.chat.store.getState().config).toEqual(config);
    expect(tab.chat.saveConfiguration({ ...endpoint, model: 'qwen3:8b' })).toBeNull();
    expect(tab.chat.store.getState().config).toMatchObject({ provider: 'custom', model: 'qwen3:8b' });
  });
});
