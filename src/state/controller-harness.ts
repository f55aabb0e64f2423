/** The chat controller's test harness: tabs made with fakes, shared by the controller's test files. */
import 'fake-indexeddb/auto';
import { afterEach, beforeEach, expect, vi } from 'vitest';
import { defaultConfig, type Config } from '../domain/config.ts';
import { messageText, type Conversation } from '../domain/conversation.ts';
import { activePath } from '../domain/message-tree.ts';
import { ProviderError } from '../providers/provider-error.ts';
import type { ChatMessage, ChatProvider, ChatRequest, StreamPart } from '../providers/types.ts';
import { openConversationDb, type ConversationStore } from '../storage/conversation-db.ts';
import { createLocalSettings } from '../storage/local-settings.ts';
import { createMemoryStorage } from '../storage/test-storage.ts';
import type { PageEvents } from './chat-context.ts';
import { createTabSync, type TabSync } from '../storage/tab-sync.ts';
import { createChatController, type ChatController } from './chat-controller.ts';
import type { Notifier } from './notify.ts';
import type { BackupRunner } from './backup-runner.ts';
import { inThreadImportWorker } from './test-import-worker.ts';
import type { ToolSource } from '../tools/tool-source.ts';

/** A reply the test hands out piece by piece, or fails. */
export class ScriptedReply {
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
export function fakeProvider() {
  const replies: ScriptedReply[] = [];
  const sent: ChatMessage[][] = [];
  /** Each request's own settings (the pinned model, ...). */
  const settings: (ChatRequest['settings'] | undefined)[] = [];
  const efforts: ChatRequest['effort'][] = [];
  const streamed: ChatRequest['stream'][] = [];
  /** The tools each request offered. */
  const tools: ChatRequest['tools'][] = [];
  /** The connections services were built for. */
  const built: Config[] = [];
  /** Each request whole (its cache key, its provider tools, ...). */
  const requests: ChatRequest[] = [];
  const provider: ChatProvider = {
    id: 'openai',
    chat(request) {
      const { messages, signal, settings: requestSettings, effort, stream, tools: offered } = request;
      requests.push(request);
      sent.push(messages);
      tools.push(offered);
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
  return { provider, sent, settings, efforts, streamed, tools, built, requests, next };
}

export function recordingNotifier() {
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
export function fakePage() {
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

export const config: Config = { ...defaultConfig, apiKey: 'sk-test', model: 'gpt-4o-mini' };
let runId = 0;
const opened: { db: ConversationStore; sync: TabSync }[] = [];

export interface Tab {
  chat: ChatController;
  provider: ReturnType<typeof fakeProvider>;
  calls: ReturnType<typeof recordingNotifier>['calls'];
  db: ConversationStore;
  /** Fires the page's events (close, hidden, settings changed in another tab). */
  page: ReturnType<typeof fakePage>;
}

export async function openTab(
  name: string,
  tabId: string,
  { runBackup, toolSources }: { runBackup?: BackupRunner; toolSources?: readonly ToolSource[] } = {},
): Promise<Tab> {
  const provider = fakeProvider();
  const page = fakePage();
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
    page: page.page,
    tabSync,
    notify,
    // Each reading one millisecond later, so versions order by time as they would.
    now: () => new Date((clock += 1)),
    newId: () => `${tabId}-${(ids += 1)}`,
    ...(runBackup && { runBackup }),
    ...(toolSources && { toolSources }),
    startImportWorker: inThreadImportWorker,
  });
  await chat.boot();
  return { chat, provider, calls, db, page };
}

export function active(tab: Tab): Conversation {
  const { activeId, loaded } = tab.chat.store.getState();
  const conversation = activeId ? loaded[activeId] : undefined;
  if (!conversation) throw new Error('no active conversation');
  return conversation;
}

export function shown(tab: Tab): string[] {
  return activePath(active(tab))
    .filter((message) => message.role !== 'system')
    .map((message) => `${message.role}: ${messageText(message)}`);
}

export async function idle(tab: Tab) {
  await vi.waitFor(() => expect(tab.chat.store.getState().streaming).toBeNull());
}

export async function sendAndWait(tab: Tab, text: string, reply: string) {
  tab.provider.next(reply);
  expect(await tab.chat.send(text)).toBe(true);
  await vi.waitFor(() => expect(shown(tab).at(-1)).toBe(`assistant: ${reply}`));
  await idle(tab);
}

/** The stored copy, as a fresh reader sees it. */
export async function stored(tab: Tab): Promise<Conversation> {
  const conversation = await tab.db.get(active(tab).id);
  if (!conversation) throw new Error('not stored');
  return conversation;
}

export let tab: Tab;
export let databaseName: string;
/** The tabs' shared localStorage (one browser profile), a fresh one for each test. */
export let localStorage: ReturnType<typeof createMemoryStorage>;

/**
 * Each test starts with one tab (`tab`) of a fresh database and browser profile, configured for
 * OpenAI with a fake provider, and one new conversation. Call at the top of a test file.
 */
export function setUpTabs(): void {
  beforeEach(async () => {
    localStorage = createMemoryStorage();
    localStorage.setItem('ai-chat-config', JSON.stringify(config));
    // Named by their model only in the tests of that (controller-files.test.ts): the others script every call.
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
}
