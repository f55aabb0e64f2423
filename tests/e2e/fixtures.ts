import { test as base, expect, type BrowserContext, type Locator, type Page } from '@playwright/test';
import type { ProviderId as AnyProviderId } from '../../src/domain/config.ts';
import { providerCatalog } from '../../src/domain/provider-catalog.ts';
import { HeldStream } from './held-stream.ts';
import { mockUrl } from './ports.ts';

export { expect };

/**
 * The built-in providers the mock serves (an OpenAI-compatible endpoint is set up in the panel;
 * the browser's own model is scripted in the page, scripted-language-model.ts).
 */
export type ProviderId = Exclude<AnyProviderId, 'custom' | 'device'>;

/** A provider's name as the app shows it (badge, error toasts, the provider list). */
export function providerLabel(provider: AnyProviderId): string {
  return providerCatalog[provider].label;
}

/** A configuration pointing the app at the mock server, as stored under ai-chat-config. */
export function mockConfig(provider: ProviderId, apiKey: string): Record<string, unknown> {
  const common = { apiKey, temperature: 0.7, maxTokens: 800, baseUrl: mockUrl };
  switch (provider) {
    case 'azure':
      return {
        ...common,
        provider,
        baseUrl: undefined,
        endpoint: mockUrl,
        deploymentName: 'gpt-4o-test',
        apiVersion: '2024-10-21',
        topP: 0.95,
        frequencyPenalty: 0,
        presencePenalty: 0,
      };
    case 'openai':
      return {
        ...common,
        provider,
        model: 'gpt-4o-mini',
        topP: 0.95,
        frequencyPenalty: 0,
        presencePenalty: 0,
      };
    case 'claude':
      return { ...common, provider, model: 'claude-haiku-4-5', maxTokens: 1024 };
    case 'gemini':
      return { ...common, provider, model: 'gemini-2.5-flash', topP: 0.95, topK: 40 };
    case 'groq':
      return { ...common, provider, model: 'llama-3.3-70b-versatile', topP: 0.95 };
  }
}

/** A key the mock understands: scenario, then a unique suffix so parallel tests don't share records. */
export function mockKey(scenario: string): string {
  return `${scenario}.${Math.random().toString(36).slice(2, 10)}`;
}

export interface RecordedRequest {
  provider: string;
  method: string;
  path: string;
  headers: Record<string, string>;
  body: unknown;
}

export async function recordedRequests(key: string): Promise<RecordedRequest[]> {
  const response = await fetch(`${mockUrl}/__mock/requests?key=${encodeURIComponent(key)}`);
  return (await response.json()) as RecordedRequest[];
}

/** Seeds storage before the app's scripts run (first load only, so reloads see the app's own writes). */
export async function seedStorage(page: Page, values: Record<string, string>): Promise<void> {
  await page.addInitScript((entries) => {
    if (sessionStorage.getItem('seeded')) return;
    sessionStorage.setItem('seeded', '1');
    for (const [key, value] of Object.entries(entries)) localStorage.setItem(key, value);
  }, values);
}

/** Imports `file` (an export-shaped object) through the Import tab and waits for the dialog to close. */
export async function importFile(page: Page, file: unknown): Promise<void> {
  await page.getByRole('button', { name: 'Import / Export' }).click();
  await page.getByRole('tab', { name: 'Import' }).click();
  await page.getByPlaceholder('Paste JSON data here...').fill(JSON.stringify(file));
  await page.getByRole('button', { name: 'Import Data' }).click();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  // Every import ends with a toast; the toaster loads with the first one, so waiting here keeps a
  // late toast from landing in the middle of whatever the test checks next.
  await expect(page.locator('[data-sonner-toast]').first()).toBeVisible();
}

/** Puts one conversation (system, 'hi', then `reply`) in place through the Import tab. */
export async function importConversation(page: Page, reply: string): Promise<void> {
  await importReplies(page, [reply], 'Imported');
}

/**
 * One conversation per reply (system, 'hi', then the reply), named `{name}`, `{name} 2`, …, the
 * first one shown, in one import.
 */
export async function importReplies(page: Page, replies: string[], name = 'Reply'): Promise<void> {
  const conversations = replies.map((reply, index) => ({
    id: index === 0 ? 'imported' : `imported-${index + 1}`,
    name: index === 0 ? name : `${name} ${index + 1}`,
    provider: 'openai',
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    messages: [
      { role: 'system', content: 'You are a helpful assistant.' },
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: reply },
    ],
  }));
  await importFile(page, { version: '2.0', conversations, activeConversationId: 'imported' });
}

export class ChatPage {
  constructor(readonly page: Page) {}

  get composer() {
    return this.page.getByRole('textbox', { name: 'Message' });
  }
  get sendButton() {
    return this.page.getByRole('button', { name: 'Send' });
  }
  get stopButton() {
    return this.page.getByRole('button', { name: 'Stop' });
  }
  get rows() {
    return this.page.getByTestId('conversation-row');
  }
  messages(role?: 'user' | 'assistant') {
    const all = this.page.getByTestId('message');
    return role ? all.and(this.page.locator(`[data-role="${role}"]`)) : all;
  }
  toast(text: string | RegExp) {
    return this.page.locator('[data-sonner-toast]').filter({ hasText: text });
  }

  async open(config?: Record<string, unknown>) {
    if (config) await seedStorage(this.page, { 'ai-chat-config': JSON.stringify(config) });
    await this.page.goto('/');
    await expect(this.page.getByRole('heading', { name: 'Conversations' })).toBeVisible();
  }

  async newConversation() {
    await this.page.getByRole('button', { name: 'New', exact: true }).click();
  }

  async send(text: string) {
    await this.composer.fill(text);
    await this.composer.press('Enter');
  }

  /** Sends a message and waits for its reply to end. */
  async ask(text: string) {
    await this.send(text);
    await this.waitForReplyDone();
  }

  async waitForReplyDone() {
    await expect(this.page.getByTestId('streaming-cursor')).toHaveCount(0, { timeout: 60_000 });
    await expect(this.composer).toBeEnabled();
  }
}

/**
 * `autoTitle`: whether conversations are named by their model after the first reply. The app's
 * default is on; the suite runs with it off (each reply would be followed by a title request that
 * renames 'Conversation n'), and the title tests turn it on with `test.use({ autoTitle: true })`.
 */
export const test = base.extend<{ chat: ChatPage; autoTitle: boolean; held: HeldStream }>({
  autoTitle: [false, { option: true }],
  context: async ({ context, autoTitle }, provide) => {
    if (!autoTitle)
      await context.addInitScript(() => {
        if (localStorage.getItem('ai-chat-auto-title') === null)
          localStorage.setItem('ai-chat-auto-title', 'off');
      });
    await provide(context);
  },
  chat: async ({ page }, provide) => {
    await provide(new ChatPage(page));
  },
  /** A provider whose replies the test streams and holds (see held-stream.ts). */
  // eslint-disable-next-line no-empty-pattern
  held: async ({}, provide) => {
    const held = await HeldStream.start();
    await provide(held);
    await held.stop();
  },
});

/**
 * The app configured for the mock with some data worth protecting: a conversation with a reply
 * ('Keep me', 'Echo: Keep me'), and a newer one, empty, renamed 'Second thoughts' (listed first).
 */
export async function openWithData(page: Page): Promise<ChatPage> {
  const chat = new ChatPage(page);
  await chat.open(mockConfig('openai', mockKey('ok')));
  await chat.newConversation();
  await chat.ask('Keep me');
  await expect(chat.messages('assistant')).toContainText('Echo: Keep me');
  await chat.newConversation();
  // The newest on top, and a rename does not move it.
  await renameRow(chat, 0, 'Second thoughts');
  return chat;
}

/**
 * Pastes `text` into the Import tab (open) and expects it refused, with `problem` in the toast's
 * description. Give each case a distinct problem: an earlier toast cannot then stand in for a
 * later one. The dialog stays open, so the user can fix the text and try again.
 */
export async function expectImportRefused(chat: ChatPage, text: string, problem: RegExp): Promise<void> {
  const { page } = chat;
  await page.getByPlaceholder('Paste JSON data here...').fill(text);
  await page.getByRole('button', { name: 'Import Data' }).click();
  await expect(chat.toast('Error importing data: Invalid format').filter({ hasText: problem })).toBeVisible();
  await expect(page.getByRole('dialog', { name: 'Import / Export Data' })).toBeVisible();
}

/** The settings panel (provider, key, model and sampling settings). */
export function settingsPanel(page: Page): Locator {
  return page.getByRole('region', { name: 'AI Provider Configuration' });
}

/** Opens the Import / Export dialog on one of its tabs. */
export async function openDataDialog(page: Page, tab: 'Export' | 'Import'): Promise<void> {
  await page.getByRole('button', { name: 'Import / Export' }).click();
  await expect(page.getByRole('dialog', { name: 'Import / Export Data' })).toBeVisible();
  await page.getByRole('tab', { name: tab }).click();
}

/**
 * The export text with the key included and `exportedAt` blanked: a full picture of the app's data
 * to compare before and after. Leaves the dialog closed.
 */
export async function exportSnapshot(page: Page): Promise<string> {
  await openDataDialog(page, 'Export');
  await page.getByLabel('Include API key').check();
  const area = page.getByTestId('export-text');
  await expect(area).toHaveValue(/"apiKey"/);
  const text = (await area.inputValue()).replace(/"exportedAt": "[^"]*"/, '"exportedAt": ""');
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog')).toHaveCount(0);
  return text;
}

/** Every record of one object store of the app's IndexedDB database ('ai-chat'), as stored. */
export async function readDbStore(
  page: Page,
  store: 'conversations' | 'summaries' = 'conversations',
): Promise<Record<string, unknown>[]> {
  return page.evaluate(
    (name) =>
      new Promise<Record<string, unknown>[]>((resolve, reject) => {
        const open = indexedDB.open('ai-chat');
        open.onerror = () => reject(open.error ?? new Error('open failed'));
        open.onsuccess = () => {
          const db = open.result;
          const request = db.transaction(name, 'readonly').objectStore(name).getAll();
          request.onerror = () => reject(request.error ?? new Error('read failed'));
          request.onsuccess = () => {
            db.close();
            resolve(request.result as Record<string, unknown>[]);
          };
        };
      }),
    store,
  );
}

/** Writes raw records straight into the app's IndexedDB stores, bypassing the app (corruption tests). */
export async function writeDbRecords(
  page: Page,
  records: { store: 'conversations' | 'summaries'; value: unknown }[],
): Promise<void> {
  await page.evaluate(
    (entries) =>
      new Promise<void>((resolve, reject) => {
        const open = indexedDB.open('ai-chat');
        open.onerror = () => reject(open.error ?? new Error('open failed'));
        open.onsuccess = () => {
          const db = open.result;
          const tx = db.transaction(['conversations', 'summaries'], 'readwrite');
          for (const { store, value } of entries) tx.objectStore(store).put(value);
          tx.oncomplete = () => {
            db.close();
            resolve();
          };
          tx.onerror = () => reject(tx.error ?? new Error('write failed'));
        };
      }),
    records,
  );
}

/** A conversation in the export/storage shape, with a system message first. */
export function sampleConversation(
  id: string,
  name: string,
  turns: [string, string][] = [],
  createdAt = '2025-03-01T10:00:00.000Z',
): Record<string, unknown> {
  return {
    id,
    name,
    messages: [
      { role: 'system', content: 'You are a helpful assistant.' },
      ...turns.flatMap(([question, answer]) => [
        { role: 'user', content: question },
        { role: 'assistant', content: answer },
      ]),
    ],
    createdAt,
    updatedAt: createdAt,
    provider: 'openai',
  };
}

/** Renames a conversation through its row's rename button. */
export async function renameRow(chat: ChatPage, index: number, name: string): Promise<void> {
  const row = chat.rows.nth(index);
  await row.hover();
  await row.getByRole('button', { name: 'Rename conversation' }).click();
  await chat.page.getByRole('textbox', { name: 'Conversation name' }).fill(name);
  await chat.page.getByRole('textbox', { name: 'Conversation name' }).press('Enter');
  await expect(chat.rows.nth(index)).toContainText(name);
}

/** Deletes a conversation through its row's delete button and the confirmation. */
export async function deleteRow(chat: ChatPage, index: number): Promise<void> {
  const row = chat.rows.nth(index);
  await row.hover();
  await row.getByRole('button', { name: 'Delete conversation' }).click();
  await chat.page.getByRole('button', { name: 'Delete', exact: true }).click();
}

/**
 * A page of the profile in a window of its own, with the app loaded (not waited for): a second
 * "tab" of the app. Headless Chromium draws only the tab in front of a window, and input and frames
 * reach a tab behind it a second or more late, so each Playwright action there took 2 to 3 s
 * (a test of two tabs spent 8 of its 10 s so); a window of its own is always in front. For the
 * app, two windows of a profile are two tabs: the same storage, BroadcastChannel and IndexedDB.
 */
export async function newTab(context: BrowserContext): Promise<ChatPage> {
  const page = await newWindow(context);
  await page.goto('/');
  return new ChatPage(page);
}

/** A blank page of the profile in a window of its own (see newTab). */
export async function newWindow(context: BrowserContext): Promise<Page> {
  const [near] = context.pages();
  if (!near) return context.newPage();
  const { targetInfo } = await (await context.newCDPSession(near)).send('Target.getTargetInfo');
  const browser = context.browser();
  if (!browser) throw new Error('a window is opened through the browser');
  const session = await browser.newBrowserCDPSession();
  const opened = context.waitForEvent('page');
  await session.send('Target.createTarget', {
    url: 'about:blank',
    browserContextId: targetInfo.browserContextId,
    newWindow: true,
  });
  const page = await opened;
  await session.detach();
  return page;
}

/**
 * Two tabs of the app in one browser profile, both configured for the mock with `key`, or with
 * the configuration given (a held stream's).
 */
export async function twoTabs(
  context: BrowserContext,
  keyOrConfig: string | Record<string, unknown> = mockKey('ok'),
): Promise<[ChatPage, ChatPage]> {
  const config = typeof keyOrConfig === 'string' ? mockConfig('openai', keyOrConfig) : keyOrConfig;
  await context.addInitScript((config) => {
    if (!localStorage.getItem('ai-chat-config')) localStorage.setItem('ai-chat-config', config);
  }, JSON.stringify(config));
  const a = await newTab(context);
  const b = await newTab(context);
  await expect(a.page.getByRole('heading', { name: 'Conversations' })).toBeVisible();
  await expect(b.page.getByRole('heading', { name: 'Conversations' })).toBeVisible();
  return [a, b];
}

/** IndexedDB writes fail as a full disk does, while `window.__storageFull` is true. */
export async function simulateFullStorage(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const put = IDBObjectStore.prototype.put;
    IDBObjectStore.prototype.put = function (this: IDBObjectStore, ...args: Parameters<typeof put>) {
      if ((window as unknown as { __storageFull?: boolean }).__storageFull) {
        throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
      }
      return put.apply(this, args);
    };
  });
}

export async function setStorageFull(page: Page, full: boolean): Promise<void> {
  await page.evaluate((value) => {
    (window as unknown as { __storageFull?: boolean }).__storageFull = value;
  }, full);
}

/**
 * Waits until the element's layout has stopped changing: its scroll height and position the same
 * over ten animation frames in a row (late measurements, highlighting, images all done).
 */
export async function layoutSettled(element: Locator): Promise<void> {
  await element.evaluate(
    (target) =>
      new Promise<void>((resolve) => {
        let last = '';
        let same = 0;
        const check = () => {
          const now = `${target.scrollHeight}:${target.scrollTop}:${target.clientHeight}`;
          same = now === last ? same + 1 : 0;
          last = now;
          if (same >= 10) resolve();
          else requestAnimationFrame(check);
        };
        requestAnimationFrame(check);
      }),
  );
}

/**
 * Brings every finite animation or transition of the page to its end at once (a toast sliding in,
 * a dialog fading, colours changing with the scheme), as Playwright's screenshots do: what is on
 * screen is then what stays, without waiting out the app's durations (up to 700 ms). Endless ones
 * (a spinner, the streaming cursor) are left running.
 */
export async function finishAnimations(page: Page): Promise<void> {
  await page.evaluate(async () => {
    // A style change made in this frame starts its transitions at the next one.
    await new Promise(requestAnimationFrame);
    for (const animation of document.getAnimations())
      if (animation.playState === 'running' && animation.effect?.getComputedTiming().endTime !== Infinity)
        animation.finish();
  });
}

/** Closes every toast on the page (their close buttons) and waits until they are gone. */
export async function dismissToasts(page: Page): Promise<void> {
  const toasts = page.locator('[data-sonner-toast]');
  for (const toast of await toasts.all()) await toast.getByRole('button', { name: 'Close toast' }).click();
  await expect(toasts).toHaveCount(0);
}

/**
 * Waits until the page's main thread has been idle twice: every task already queued (a load's
 * or an error's event, a timer due now, a render) has run. For checks that something did not
 * happen, instead of a sleep.
 */
export async function pageIdle(page: Page): Promise<void> {
  await page.evaluate(
    () => new Promise<void>((resolve) => requestIdleCallback(() => requestIdleCallback(() => resolve()))),
  );
}
