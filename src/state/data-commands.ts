import type { Config } from '../domain/config.ts';
import type { Conversation } from '../domain/conversation.ts';
import { pickActiveId } from '../domain/conversation-rules.ts';
import { buildExport, exportFileName, parseImport } from '../domain/export-format.ts';
import { saveActiveId, saveConfig as storeConfig } from '../storage/local-settings.ts';
import { getState, listItemOf, setState } from './chat-store.ts';
import { applyConfig } from './config-commands.ts';
import { notify } from './notify.ts';
import { broadcast, db, forgetBacklog, reportWrite } from './persistence.ts';

/** Every conversation, with the in-memory copy where it is newer than storage. */
async function allConversations(): Promise<Conversation[]> {
  const { items: stored } = await db().getAll();
  const { loaded, list } = getState();
  const byId = new Map(stored.map((conversation) => [conversation.id, conversation]));
  for (const conversation of Object.values(loaded)) byId.set(conversation.id, conversation);
  const order = new Map(list.map((row, index) => [row.id, index]));
  return [...byId.values()].sort((a, b) => (order.get(a.id) ?? Infinity) - (order.get(b.id) ?? Infinity));
}

/** The export text, exactly as downloaded. Null (with a toast) on failure. */
export async function exportText(includeApiKey: boolean): Promise<string | null> {
  try {
    const { config, activeId } = getState();
    return buildExport({
      config,
      conversations: await allConversations(),
      activeConversationId: activeId,
      includeApiKey,
      now: new Date(),
    });
  } catch (error) {
    console.error('Failed to export data', error);
    notify.error('Failed to export data');
    return null;
  }
}

export function downloadExport(text: string): void {
  try {
    const url = URL.createObjectURL(new Blob([text], { type: 'application/json' }));
    const link = document.createElement('a');
    link.href = url;
    link.download = exportFileName(new Date());
    link.click();
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  } catch (error) {
    console.error('Failed to export data', error);
    notify.error('Failed to export data');
  }
}

interface Snapshot {
  config: Config;
  conversations: Conversation[];
  activeId: string | null;
}

async function replaceEverything({ config, conversations, activeId }: Snapshot): Promise<boolean> {
  const result = await db().replaceAll(conversations);
  if (!reportWrite(result)) return false;
  forgetBacklog();
  reportWrite(storeConfig(config));
  applyConfig(config);
  const loaded = Object.fromEntries(conversations.map((conversation) => [conversation.id, conversation]));
  setState({ list: conversations.map(listItemOf), loaded, activeId });
  saveActiveId(activeId);
  broadcast({ type: 'conversations-replaced' });
  return true;
}

/**
 * 'Import Data': validates the whole file first; on any problem nothing changes. On success the
 * previous state is kept in memory and the toast offers Undo. Returns true when imported.
 */
export async function importData(text: string): Promise<boolean> {
  const parsed = parseImport(text, { now: new Date() });
  if (!parsed.ok) {
    notify.error('Error importing data: Invalid format', parsed.problem);
    return false;
  }
  try {
    const before: Snapshot = {
      config: getState().config,
      conversations: await allConversations(),
      activeId: getState().activeId,
    };
    const { data } = parsed;
    // An export made without the key keeps the key the user has now.
    const config = data.config
      ? { ...data.config, apiKey: data.configHasKey ? data.config.apiKey : before.config.apiKey }
      : before.config;
    const conversations = data.conversations ?? before.conversations;
    const savedActive = data.activeConversationId ?? null;
    const activeId = pickActiveId(conversations, savedActive);
    if (!(await replaceEverything({ config, conversations, activeId }))) {
      notify.error('Failed to import data');
      return false;
    }
    notify.success('Data imported successfully', {
      action: { label: 'Undo', onClick: () => void undoImport(before) },
    });
    return true;
  } catch (error) {
    console.error('Failed to import data', error);
    notify.error('Failed to import data');
    return false;
  }
}

async function undoImport(before: Snapshot): Promise<void> {
  if (await replaceEverything(before)) notify.success('Import undone');
  else notify.error('Could not undo the import');
}
