import { describe, expect, it, vi } from 'vitest';
import type { Prompt } from '../domain/prompts.ts';
import { systemPromptOf } from '../domain/conversation-rules.ts';
import {
  active,
  databaseName,
  localStorage,
  openTab,
  sendAndWait,
  setUpTabs,
  tab,
  type Tab,
} from './controller-harness.ts';

const downloads = vi.hoisted(() => [] as { name: string; text: string; type: string }[]);
vi.mock('../lib/download.ts', () => ({
  downloadText: (name: string, text: string, type: string) => void downloads.push({ name, text, type }),
  downloadBlob: () => undefined,
}));

setUpTabs();

const prompts = (of: Tab = tab) => of.chat.store.getState().prompts;
const stored = () => JSON.parse(localStorage.getItem('ai-chat-prompts') ?? 'null') as Prompt[] | null;
const toasts = (kind: string) => tab.calls.filter((call) => call.kind === kind).map((call) => call.message);

async function newPrompt(title: string, body: string): Promise<string> {
  const id = await tab.chat.createPrompt(title, body);
  if (!id) throw new Error('not created');
  return id;
}

describe('prompts', () => {
  it('are created, changed and kept in localStorage over a restart', async () => {
    const id = await newPrompt(' Review\n code ', 'Review this {{language}} code:\n{{code}}');
    expect(await tab.chat.changePrompt(id, { body: 'Review {{code}}' })).toBe(true);
    expect(prompts()).toEqual([
      expect.objectContaining({ id, title: 'Review code', body: 'Review {{code}}' }),
    ]);
    expect(stored()).toEqual(prompts());

    const again = await openTab(databaseName, 'b');
    await vi.waitFor(() => expect(prompts(again)).toEqual(prompts()));
  });

  it('refuse a prompt without a title or text, and say why', async () => {
    expect(await tab.chat.createPrompt('  ', 'text')).toBeNull();
    expect(await tab.chat.createPrompt('Title', '')).toBeNull();
    const id = await newPrompt('Title', 'text');
    expect(await tab.chat.changePrompt(id, { title: '' })).toBe(false);
    expect(toasts('error')).toEqual([
      'A prompt needs a title.',
      'A prompt needs some text.',
      'A prompt needs a title.',
    ]);
    expect(prompts().map((prompt) => prompt.title)).toEqual(['Title']);
  });

  it('are deleted with Undo', async () => {
    const id = await newPrompt('Keep', 'kept');
    await newPrompt('Other', 'other');
    await tab.chat.deletePrompt(id);
    expect(prompts().map((prompt) => prompt.title)).toEqual(['Other']);
    expect(stored()?.map((prompt) => prompt.title)).toEqual(['Other']);
    const toast = tab.calls.find((call) => call.message === 'Prompt deleted');
    expect(toast?.action?.label).toBe('Undo');
    toast?.action?.onClick();
    expect(
      prompts()
        .map((prompt) => prompt.title)
        .sort(),
    ).toEqual(['Keep', 'Other']);
    expect(stored()?.find((prompt) => prompt.id === id)?.body).toBe('kept');

    // The last one gone, nothing is kept under the key.
    await tab.chat.deletePrompt(id);
    await tab.chat.deletePrompt(prompts()[0]?.id ?? '');
    expect(localStorage.getItem('ai-chat-prompts')).toBeNull();
  });

  it('travel through prompts.json: added, a newer copy replacing, an older one not', async () => {
    const id = await newPrompt('Translate', 'Translate into {{language}}: {{text}}');
    await tab.chat.exportPrompts();
    const [file] = downloads.splice(0);
    expect(file?.name).toBe('prompts.json');
    expect(file?.type).toBe('application/json');
    const exported = JSON.parse(file?.text ?? '') as { kind: string; version: number; prompts: Prompt[] };
    expect(exported).toMatchObject({ kind: 'prompts', version: 1, prompts: prompts() });

    // The same file again changes nothing.
    expect(await tab.chat.importPrompts(file?.text ?? '')).toBe(0);
    expect(toasts('success').at(-1)).toBe('No prompts imported');

    const [original] = exported.prompts;
    if (!original) throw new Error('nothing exported');
    const newer = { ...original, title: 'Translate well', updatedAt: '2030-01-01T00:00:00.000Z' };
    const older = { ...original, id: 'elsewhere', title: 'Older', updatedAt: '2020-01-01T00:00:00.000Z' };
    const added = { ...original, id: 'new-one', title: 'Added' };
    expect(
      await tab.chat.importPrompts(JSON.stringify({ ...exported, prompts: [newer, added, older] })),
    ).toBe(3);
    expect(toasts('success').at(-1)).toBe('3 prompts imported');
    expect(prompts().find((prompt) => prompt.id === id)?.title).toBe('Translate well');
    const stale = { ...original, title: 'Stale', updatedAt: '2025-01-01T00:00:00.000Z' };
    expect(await tab.chat.importPrompts(JSON.stringify([stale]))).toBe(0);
    expect(
      prompts()
        .map((prompt) => prompt.title)
        .sort(),
    ).toEqual(['Added', 'Older', 'Translate well']);
    expect(stored()).toEqual(prompts());
  });

  it('refuse a file that is not a prompts export, with a sentence that says why', async () => {
    await newPrompt('Kept', 'kept');
    expect(await tab.chat.importPrompts('not json')).toBe(0);
    expect(await tab.chat.importPrompts('{"version":"2.0","conversations":[]}')).toBe(0);
    expect(await tab.chat.importPrompts('{"prompts":[{"title":"no id"}]}')).toBe(0);
    expect(toasts('error')).toEqual([
      'No prompts were imported: the file is not JSON.',
      'No prompts were imported: the file holds no list of prompts.',
      "No prompts were imported: none of the file's prompts could be read (each needs an id, a title, a text and its dates).",
    ]);
    expect(prompts().map((prompt) => prompt.title)).toEqual(['Kept']);
  });

  it('reach the other tabs, and a change made meanwhile in another tab is kept', async () => {
    const other = await openTab(databaseName, 'b');
    other.chat.watchBrowser();
    await newPrompt('First', 'one');
    other.page.fire('settingsChanged');
    await vi.waitFor(() => expect(prompts(other).map((prompt) => prompt.title)).toEqual(['First']));

    // Written from the other tab without this one having heard: both are kept.
    expect(await other.chat.createPrompt('Second', 'two')).not.toBeNull();
    await newPrompt('Third', 'three');
    expect(stored()?.map((prompt) => prompt.title)).toEqual(['First', 'Second', 'Third']);

    // All deleted there: none here once heard.
    for (const { id } of prompts()) await tab.chat.deletePrompt(id);
    other.page.fire('settingsChanged');
    await vi.waitFor(() => expect(prompts(other)).toEqual([]));
  });

  it('are read checked at the start: what is not a prompt is left out', async () => {
    localStorage.setItem(
      'ai-chat-prompts',
      JSON.stringify([
        {
          id: 'ok',
          title: 'Fine',
          body: 'x',
          createdAt: '2026-01-01T00:00:00.000Z',
          updatedAt: '2026-01-01T00:00:00.000Z',
          extra: 1,
        },
        { id: 'bad', title: 'No dates', body: 'x' },
      ]),
    );
    const again = await openTab(databaseName, 'b');
    await vi.waitFor(() => expect(prompts(again)).toHaveLength(1));
    expect(prompts(again)[0]).toEqual({
      id: 'ok',
      title: 'Fine',
      body: 'x',
      createdAt: '2026-01-01T00:00:00.000Z',
      updatedAt: '2026-01-01T00:00:00.000Z',
    });
    localStorage.setItem('ai-chat-prompts', '{ not json');
    const third = await openTab(databaseName, 'c');
    expect(prompts(third)).toEqual([]);
  });

  it('ask the message box to insert one, through the view', () => {
    tab.chat.insertPrompt('p1');
    expect(tab.chat.view.getState().promptToInsert).toBe('p1');
    tab.chat.insertPrompt(null);
    expect(tab.chat.view.getState().promptToInsert).toBeNull();
  });
});

describe('personas', () => {
  const pin = { provider: 'claude' as const, model: 'claude-sonnet-4-6' };

  it('set up a conversation: its system prompt and model, sent with the next message', async () => {
    const model = { provider: 'openai' as const, model: 'gpt-5' };
    const id = await tab.chat.createPrompt('Reviewer', 'You review code.', { model });
    if (!id) throw new Error('not created');
    // Kept apart from the prompts: a tab of an earlier release reads and rewrites only those.
    expect(await newPrompt('Plain', 'text')).toBeTruthy();
    expect(stored()?.map((prompt) => prompt.title)).toEqual(['Plain']);
    const personas = JSON.parse(localStorage.getItem('ai-chat-personas') ?? 'null') as Prompt[] | null;
    expect(personas?.map((persona) => [persona.title, persona.persona])).toEqual([['Reviewer', true]]);
    const again = await openTab(databaseName, 'b');
    await vi.waitFor(() => expect(prompts(again)).toHaveLength(2));

    await tab.chat.choosePersona(active(tab).id, id);
    expect(active(tab).pin).toEqual(model);
    // Deleted: nothing left to choose, and the conversation keeps what it was given.
    await tab.chat.deletePrompt(id);
    expect(toasts('success')).toContain('Persona deleted');
    await tab.chat.choosePersona(active(tab).id, id);
    expect(active(tab).pin).toEqual(model);
    await sendAndWait(tab, 'look', 'ok');
    expect(tab.provider.sent.at(-1)?.[0]).toEqual({ role: 'system', content: 'You review code.' });
    expect(tab.provider.settings.at(-1)?.model).toBe('gpt-5');
  });

  it('start a conversation as themselves, and a prompt is no persona', async () => {
    const id = await tab.chat.createPrompt('Poet', 'You answer in verse.');
    const persona = await tab.chat.createPrompt('Poet', 'You answer in verse.', {});
    if (!id || !persona) throw new Error('not created');
    const before = tab.chat.store.getState().list.length;
    await tab.chat.newConversationAs(id);
    expect(tab.chat.store.getState().list).toHaveLength(before);
    await tab.chat.newConversationAs(persona);
    expect(tab.chat.store.getState().list).toHaveLength(before + 1);
    expect(systemPromptOf(active(tab))).toBe('You answer in verse.');
    expect(active(tab).pin).toBeUndefined();
  });

  it("start a project's new conversations, the project's own model first", async () => {
    const persona = await tab.chat.createPrompt('Analyst', 'You analyse data.', { model: pin });
    const project = await tab.chat.createProject('Data');
    if (!persona || !project) throw new Error('not created');
    await tab.chat.changeProject(project, { personaId: persona });
    await tab.chat.newConversationInProject(project);
    expect(systemPromptOf(active(tab))).toBe('You analyse data.');
    expect(active(tab)).toMatchObject({ projectId: project, pin, provider: 'claude' });

    const own = { provider: 'openai' as const, model: 'gpt-5' };
    await tab.chat.changeProject(project, { pin: own });
    await tab.chat.newConversationInProject(project);
    expect(systemPromptOf(active(tab))).toBe('You analyse data.');
    expect(active(tab)).toMatchObject({ pin: own, provider: 'openai' });
  });
});
