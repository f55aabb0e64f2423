import { describe, expect, it, vi } from 'vitest';
import { messageText } from '../domain/conversation.ts';
import { projectFingerprint } from '../domain/project-rules.ts';
import { active, databaseName, openTab, sendAndWait, setUpTabs, tab } from './controller-harness.ts';

setUpTabs();

const projects = () => tab.chat.store.getState().projects;
const rowOf = (id: string) => tab.chat.store.getState().list.find((row) => row.id === id);

async function newProject(name: string): Promise<string> {
  const id = await tab.chat.createProject(name);
  if (!id) throw new Error('not created');
  return id;
}

describe('projects', () => {
  it('are created, changed and kept over a restart', async () => {
    const id = await newProject('  Thesis\n chapter ');
    await tab.chat.changeProject(id, { instructions: 'Cite sources.', emoji: '📚' });
    expect(projects()).toEqual([
      expect.objectContaining({ id, name: 'Thesis chapter', instructions: 'Cite sources.', emoji: '📚' }),
    ]);
    const again = await openTab(databaseName, 'b');
    expect(again.chat.store.getState().projects).toEqual(projects());
  });

  it("send their instructions before the conversation's system prompt, and their cache key", async () => {
    const id = await newProject('Client');
    await tab.chat.changeProject(id, { instructions: 'You work for ACME.' });
    await tab.chat.moveToProject(active(tab).id, id);
    await sendAndWait(tab, 'hello', 'hi');
    const [system, question] = tab.provider.sent.at(-1) ?? [];
    expect(system).toEqual({
      role: 'system',
      content: 'You work for ACME.\n\nYou are a helpful assistant.',
      sharedPrefix: { text: 'You work for ACME.'.length },
    });
    expect(question).toEqual({ role: 'user', content: 'hello' });
    expect(tab.provider.requests.at(-1)?.cacheKey).toBe(id);

    // Moved out: the request is as any other's.
    await tab.chat.moveToProject(active(tab).id, null);
    await sendAndWait(tab, 'again', 'ok');
    expect(tab.provider.sent.at(-1)?.[0]).toEqual({
      role: 'system',
      content: 'You are a helpful assistant.',
    });
    expect(tab.provider.requests.at(-1)?.cacheKey).toBeUndefined();
  });

  it('send their text files in the system message and their images with the first question', async () => {
    const id = await newProject('Docs');
    await tab.chat.addProjectFiles(id, [
      new File(['The budget is 12k.'], 'notes.txt', { type: 'text/plain' }),
    ]);
    expect(projects()[0]?.files.map((file) => file.name)).toEqual(['notes.txt']);
    await tab.chat.moveToProject(active(tab).id, id);
    await sendAndWait(tab, 'budget?', '12k');
    const system = tab.provider.sent.at(-1)?.[0];
    expect(system?.content).toContain('<file name="notes.txt">\nThe budget is 12k.\n</file>');
    expect(system?.content.endsWith('You are a helpful assistant.')).toBe(true);
    // The file's bytes are the project's: stored under it, kept when the file stays listed.
    expect(await (await tab.db.readAttachment(projects()[0]?.files[0]?.id ?? ''))?.text()).toBe(
      'The budget is 12k.',
    );
    const fileId = projects()[0]?.files[0]?.id ?? '';
    await tab.chat.removeProjectFile(id, fileId);
    expect(await tab.db.readAttachment(fileId)).toBeUndefined();
  });

  it('start new conversations with their model and settings', async () => {
    const id = await newProject('Code');
    const pin = { provider: 'claude' as const, model: 'claude-sonnet-4-6' };
    await tab.chat.changeProject(id, { pin, effort: 'high', toolSwitches: { artifacts: true } });
    await tab.chat.newConversationInProject(id);
    expect(active(tab)).toMatchObject({
      projectId: id,
      pin,
      effort: 'high',
      toolSwitches: { artifacts: true },
      provider: 'claude',
    });
    expect(rowOf(active(tab).id)?.projectId).toBe(id);
  });

  it('keep the input tokens of a first request, as the provider counted them, until their files change', async () => {
    const id = await newProject('Measured');
    await tab.chat.changeProject(id, { instructions: 'Be brief.' });
    await tab.chat.newConversationInProject(id);
    const reply = tab.provider.next();
    reply.push('short');
    reply.finish = { type: 'finish', reason: 'stop', usage: { inputTokens: 1234, outputTokens: 5 } };
    reply.end();
    expect(await tab.chat.send('first')).toBe(true);
    await vi.waitFor(() => expect(projects()[0]?.measured?.tokens).toBe(1234));
    const measured = projects()[0]?.measured;
    expect(measured).toMatchObject({ provider: 'openai', model: 'gpt-4o-mini' });
    expect(measured?.of).toBe(projectFingerprint(projects()[0] ?? { instructions: '', files: [] }));

    // A second reply is no first request: the figure stays.
    const second = tab.provider.next();
    second.push('again');
    second.finish = { type: 'finish', reason: 'stop', usage: { inputTokens: 99, outputTokens: 1 } };
    second.end();
    expect(await tab.chat.send('second')).toBe(true);
    await vi.waitFor(() => expect(tab.provider.sent).toHaveLength(2));
    expect(projects()[0]?.measured?.tokens).toBe(1234);
    // Other instructions: the figure no longer applies.
    await tab.chat.changeProject(id, { instructions: 'Be thorough.' });
    expect(projects()[0]?.measured?.of).not.toBe(
      projectFingerprint(projects()[0] ?? { instructions: '', files: [] }),
    );
  });

  it('are deleted with their conversations, and Undo brings both back', async () => {
    const id = await newProject('Old');
    await sendAndWait(tab, 'keep me', 'kept');
    const first = active(tab).id;
    await tab.chat.moveToProject(first, id);
    await tab.chat.addProjectFiles(id, [new File(['x'], 'a.txt', { type: 'text/plain' })]);
    const fileId = projects()[0]?.files[0]?.id ?? '';
    await tab.chat.newConversation();
    const outside = active(tab).id;

    await tab.chat.deleteProject(id);
    expect(projects()).toEqual([]);
    expect(rowOf(first)).toBeUndefined();
    expect(rowOf(outside)).toBeDefined();
    expect(await tab.db.get(first)).toBeUndefined();
    expect(await tab.db.readAttachment(fileId)).toBeUndefined();

    const toast = tab.calls.find((call) => call.message === 'Project deleted');
    expect(toast?.untilDismissed).toBe(true);
    toast?.action?.onClick();
    await vi.waitFor(() => expect(projects().map((project) => project.id)).toEqual([id]));
    await vi.waitFor(() =>
      expect(tab.chat.store.getState().list.filter((row) => row.projectId === id)).toHaveLength(1),
    );
    const restored = tab.chat.store.getState().list.find((row) => row.projectId === id);
    const conversation = await vi.waitFor(async () => {
      const found = await tab.db.get(restored?.id ?? '');
      if (!found) throw new Error('not stored yet');
      return found;
    });
    expect(conversation.messages.map(messageText)).toContain('keep me');
    expect(await (await tab.db.readAttachment(fileId))?.text()).toBe('x');
  });

  it('reach the other tabs', async () => {
    const other = await openTab(databaseName, 'b');
    const id = await newProject('Shared');
    await vi.waitFor(() =>
      expect(other.chat.store.getState().projects.map((p) => p.name)).toEqual(['Shared']),
    );
    await tab.chat.moveToProject(active(tab).id, id);
    await vi.waitFor(() =>
      expect(other.chat.store.getState().list.find((row) => row.id === active(tab).id)?.projectId).toBe(id),
    );
    await tab.chat.deleteProject(id);
    await vi.waitFor(() => expect(other.chat.store.getState().projects).toEqual([]));
  });
});
