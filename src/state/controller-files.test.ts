import { beforeEach, describe, expect, it, vi } from 'vitest';
import { attachmentParts, type Message } from '../domain/conversation.ts';
import { activePath } from '../domain/message-tree.ts';
import { ProviderError } from '../providers/provider-error.ts';
import type { PreparedFile } from './attachment-files.ts';
import { attachment } from '../domain/__fixtures__/conversations.ts';
import { backUp } from '../storage/backup-snapshot.ts';
import type { BackupWorkerRequest } from './backup.worker.ts';
import {
  config,
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
} from './controller-harness.ts';

setUpTabs();

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
    const blind = await openTab(databaseName, 'b');
    await blind.chat.newConversation();
    expect(await blind.chat.send('Look', [png('dot')])).toBe(false);
    expect(blind.calls.at(-1)?.message).toBe(
      'gpt-3.5-turbo does not see images. Remove dot.png, or choose a model that does.',
    );
    expect(blind.provider.sent).toEqual([]);
    expect(shown(blind)).toEqual([]);
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

describe('backups', () => {
  it('takes the day’s backup once a reply is saved, never with the key, and restores it with Undo', async () => {
    const name = `${databaseName}-backups`;
    const requests: BackupWorkerRequest[] = [];
    const backups = await openTab(name, 'b', {
      runBackup: async (request) => {
        requests.push(request);
        // The worker's own work, on this thread.
        return backUp({ ...request, now: new Date(request.now) }, { databaseName: name });
      },
    });
    // The backups' code loads after the start (it schedules the day's backup): loaded once the list is.
    expect((await backups.chat.listBackups()).backups).toEqual([]);
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
