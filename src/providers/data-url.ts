import type { ChatFile } from './types.ts';

/** A file as a `data:` URL, as the OpenAI APIs (and compatible servers) take images and PDFs. */
export function dataUrl(file: ChatFile): string {
  return `data:${file.mimeType};base64,${file.data}`;
}
