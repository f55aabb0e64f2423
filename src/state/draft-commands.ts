import { loadDraft, saveDraft } from '../storage/local-settings.ts';

/** Each conversation's unsent text survives a reload. */
export function readDraft(conversationId: string): string {
  return loadDraft(conversationId);
}

export function writeDraft(conversationId: string, text: string): void {
  saveDraft(conversationId, text);
}
