import { readFileSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import { parseImport } from '../domain/export-format.ts';
import type { Project } from '../domain/projects.ts';
import { backUp } from '../storage/backup-snapshot.ts';
import { openConversationDb } from '../storage/conversation-db.ts';
import { active, config, databaseName, openTab, setUpTabs, tab, type Tab } from './controller-harness.ts';

setUpTabs();

const projectsOf = (of: Tab) => of.chat.store.getState().projects;
const names = (projects: readonly Project[]) => projects.map((project) => project.name).sort();
const jsonFile = (text: string) => new Blob([text], { type: 'application/json' });
const now = new Date('2026-05-02T00:00:00.000Z');

/** A project 'Research' with one text file, and the active conversation moved into it. */
async function research(of: Tab = tab): Promise<{ projectId: string; fileId: string }> {
  const projectId = (await of.chat.createProject('Research')) as string;
  expect(projectId).toBeTruthy();
  await of.chat.changeProject(projectId, { instructions: 'Answer in French.' });
  await of.chat.addProjectFiles(projectId, [new File(['# Notes'], 'notes.md', { type: 'text/markdown' })]);
  await of.chat.moveToProject(active(of).id, projectId);
  const fileId = projectsOf(of).find((project) => project.id === projectId)?.files[0]?.id as string;
  expect(fileId).toBeTruthy();
  await vi.waitFor(async () => expect(await of.db.readAttachment(fileId)).toBeDefined());
  return { projectId, fileId };
}

describe('projects in export and import', () => {
  it('the export carries the projects with their files’ bytes; importing it puts them back, and Undo brings back what was there', async () => {
    const { projectId, fileId } = await research();
    const conversationId = active(tab).id;
    const text = (await tab.chat.exportText(false)) as string;
    const exported = parseImport(text, { now });
    if (!exported.ok) throw new Error(exported.problem);
    expect(exported.data.projects?.map((project) => [project.name, project.instructions])).toEqual([
      ['Research', 'Answer in French.'],
    ]);
    expect(exported.data.files?.get(fileId)).toEqual({ data: btoa('# Notes'), mimeType: 'text/markdown' });
    expect(exported.data.conversations?.find((entry) => entry.id === conversationId)?.projectId).toBe(
      projectId,
    );
    // Without 'Include attachments' the file is named, its bytes left out.
    expect(await tab.chat.exportText(false, false)).not.toContain(btoa('# Notes'));

    // Things change: the project goes (with its conversation), another comes.
    await tab.chat.deleteProject(projectId);
    await tab.chat.newConversation();
    const other = (await tab.chat.createProject('Other')) as string;
    expect(names(projectsOf(tab))).toEqual(['Other']);
    const second = await openTab(databaseName, 'b');

    expect(await tab.chat.importFile(jsonFile(text))).toEqual({ replaced: true });
    expect(names(projectsOf(tab))).toEqual(['Research']);
    expect(names((await tab.db.listProjects()).items)).toEqual(['Research']);
    expect(await (await tab.db.readAttachment(fileId))?.text()).toBe('# Notes');
    expect(tab.chat.store.getState().list.find((row) => row.id === conversationId)?.projectId).toBe(
      projectId,
    );
    // The other tab reads them again.
    await vi.waitFor(() => expect(names(projectsOf(second))).toEqual(['Research']));

    const imported = tab.calls.find((call) => call.message === 'Data imported successfully');
    imported?.action?.onClick();
    await vi.waitFor(() => expect(tab.calls.map((call) => call.message)).toContain('Import undone'));
    expect(names(projectsOf(tab))).toEqual(['Other']);
    expect((await tab.db.listProjects()).items.map((project) => project.id)).toEqual([other]);
    expect(await tab.db.readAttachment(fileId)).toBeUndefined();
  });

  it('a file of an earlier release (no projects) replaces the projects too; Undo brings them back with their files', async () => {
    const { projectId, fileId } = await research();
    const old = JSON.stringify({
      version: '2.0',
      conversations: [{ id: 'old', name: 'Old one', messages: [{ role: 'user', content: 'hi' }] }],
    });
    expect(await tab.chat.importFile(jsonFile(old))).toEqual({ replaced: true });
    expect(projectsOf(tab)).toEqual([]);
    expect((await tab.db.listProjects()).items).toEqual([]);
    expect(await tab.db.readAttachment(fileId)).toBeUndefined();

    tab.calls.find((call) => call.message === 'Data imported successfully')?.action?.onClick();
    await vi.waitFor(() => expect(tab.calls.map((call) => call.message)).toContain('Import undone'));
    expect(projectsOf(tab).map((project) => project.id)).toEqual([projectId]);
    expect((await tab.db.listProjects()).items.map((project) => project.files[0]?.id)).toEqual([fileId]);
    expect(await (await tab.db.readAttachment(fileId))?.text()).toBe('# Notes');
    const row = tab.chat.store.getState().list.find((entry) => entry.projectId === projectId);
    expect(row).toBeDefined();
  });

  it('a file with only a configuration leaves the projects as they are', async () => {
    const { projectId } = await research();
    const configOnly = JSON.stringify({
      version: '2.0',
      config: { ...config, apiKey: undefined, model: 'gpt-4o' },
    });
    expect(await tab.chat.importFile(jsonFile(configOnly))).toEqual({ replaced: true });
    expect(projectsOf(tab).map((project) => project.id)).toEqual([projectId]);
    expect((await tab.db.listProjects()).items.map((project) => project.id)).toEqual([projectId]);
  });

  it('a backup holds the projects, and restoring it brings them back with their files', async () => {
    const name = `${databaseName}-backups`;
    const backups = await openTab(name, 'b', {
      runBackup: (request) => backUp({ ...request, now: new Date(request.now) }, { databaseName: name }),
    });
    await backups.chat.newConversation();
    const { projectId, fileId } = await research(backups);
    const taken = await backUp(
      { reason: 'manual', config: backups.chat.store.getState().config, activeConversationId: null, now },
      { databaseName: name },
    );
    expect(taken.status).toBe('taken');

    await backups.chat.deleteProject(projectId);
    expect(projectsOf(backups)).toEqual([]);
    const info = (await backups.chat.listBackups()).backups.find((backup) => backup.reason === 'manual');
    expect(await backups.chat.restoreBackup(info?.id ?? '')).toBe(true);
    expect(projectsOf(backups).map((project) => [project.id, project.instructions])).toEqual([
      [projectId, 'Answer in French.'],
    ]);
    expect((await backups.db.listProjects()).items.map((project) => project.id)).toEqual([projectId]);
    expect(await (await backups.db.readAttachment(fileId))?.text()).toBe('# Notes');
    expect(backups.chat.store.getState().list.some((row) => row.projectId === projectId)).toBe(true);
  }, 15_000);
});

describe('another app’s projects, added', () => {
  const fixture = readFileSync(
    new URL('../domain/other-apps/__fixtures__/chatgpt-projects.json', import.meta.url),
    'utf8',
  );

  it('a ChatGPT export’s project is added beside the user’s, its conversations in it; added again, nothing twice', async () => {
    const { projectId } = await research();
    const inspected = await tab.chat.importFile(jsonFile(fixture));
    expect(inspected).toEqual({
      found: expect.objectContaining({ app: 'ChatGPT export', count: 4, projects: 1 }),
    });
    expect(await tab.chat.addImported()).toBe(true);
    const added = 'chatgpt-project-g-p-676071f578e48191bb71c4c1757ce2ec';
    expect(names(projectsOf(tab))).toEqual(['ChatGPT project 676071f5', 'Research']);
    expect(projectsOf(tab).find((project) => project.id === projectId)?.instructions).toBe(
      'Answer in French.',
    );
    const rows = tab.chat.store.getState().list;
    expect(
      rows
        .filter((row) => row.projectId === added)
        .map((row) => row.name)
        .sort(),
    ).toEqual(['Budget draft', 'Budget review']);
    expect(tab.calls.at(-1)?.message).toBe('Imported 4 conversations from the ChatGPT export');

    // The import worker writes to the app's database itself.
    const db = await openConversationDb();
    try {
      expect((await db.listProjects()).items.map((project) => project.id)).toContain(added);
      const draft = await db.get('chatgpt-b0000000-0000-4000-8000-000000000001');
      expect(draft?.projectId).toBe(added);
      expect(draft?.projectAt).toBeDefined();
    } finally {
      db.close();
    }

    await tab.chat.importFile(jsonFile(fixture));
    expect(await tab.chat.addImported()).toBe(true);
    expect(names(projectsOf(tab))).toEqual(['ChatGPT project 676071f5', 'Research']);
  });
});
