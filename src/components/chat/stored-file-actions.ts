import { downloadBlob } from '../../lib/download.ts';
import { chat } from '../../state/chat.ts';
import { notify } from '../../state/notify.ts';

/**
 * Saves a stored file a reply made under its name. Its bytes are handed over as an opaque
 * download, never as the type it claims: an HTML file a program wrote is saved, not opened here.
 */
export async function downloadStoredFile(id: string, name: string): Promise<void> {
  const blob = await chat.readAttachment(id);
  if (!blob) {
    notify.error(`${name} is no longer in this browser's storage.`);
    return;
  }
  downloadBlob(name, new Blob([blob], { type: 'application/octet-stream' }));
}
