import type { ModelCapabilities } from './provider-definitions/capabilities.ts';
import type { ProviderData } from './tools.ts';

/** What an attached file is to a model: an image it sees, a PDF it reads, or text. */
export const attachmentKinds = ['image', 'pdf', 'text'] as const;
export type AttachmentKind = (typeof attachmentKinds)[number];

export function isAttachmentKind(value: unknown): value is AttachmentKind {
  return (attachmentKinds as readonly unknown[]).includes(value);
}

/**
 * A file attached to a user message, or a picture a reply drew. Its bytes live in their own store
 * (never in the conversation record, which is rewritten while a reply streams), under `id`.
 */
export interface AttachmentPart {
  type: 'attachment';
  /** Key of the bytes in the attachment store: unique across conversations. */
  id: string;
  kind: AttachmentKind;
  /** The file's name as the user's system gave it. */
  name: string;
  /** The type of the stored bytes (an image may have been re-encoded when it was resized). */
  mimeType: string;
  /** Stored bytes. */
  size: number;
  /** Images: pixels, after resizing. */
  width?: number;
  height?: number;
  /** A drawn picture: what its provider needs back to edit it (OpenAI's call id, Gemini's signature). */
  providerData?: ProviderData;
  /** A drawn picture still being drawn: the latest preview, while the reply streams; never stored. */
  drawing?: true;
}

/**
 * Limits, from docs/providers.md#attachments. An image is stored once, resized to what every provider
 * takes: Claude's 5 MB of base64 per image (3.75 MB of bytes) and its 2000 px per side once a
 * request holds more than 20 images are the strictest (OpenAI's high detail works within 2048
 * px, Claude downscales above 1568 px, Gemini tiles).
 */
export const attachmentLimits = {
  imageMaxEdge: 2000,
  imageMaxBytes: (5 * 1024 * 1024 * 3) / 4,
  /** A photo bigger than this is refused before it is read (a 12-megapixel JPEG is 3 to 8 MB). */
  imageSourceMaxBytes: 50 * 1024 * 1024,
  /** OpenAI's and Claude's 32 MB request limit. */
  pdfMaxBytes: 32 * 1024 * 1024,
  /** About 250,000 tokens: more than most context windows hold. */
  textMaxBytes: 1024 * 1024,
  filesPerMessage: 10,
} as const;

/** What a file picker offers: what can be attached (attachmentKind has the last word). */
export const attachmentAccept =
  'image/*,application/pdf,text/*,.md,.json,.csv,.yaml,.yml,.toml,.ts,.tsx,.js,.jsx,.py,.rs,.go,.java,.c,.cpp,.h,.cs,.rb,.php,.sh,.sql,.xml,.html,.css,.svg';

/** Image types every provider takes as they are; others that decode are re-encoded. */
export const sentImageTypes: readonly string[] = ['image/png', 'image/jpeg', 'image/webp', 'image/gif'];

const textTypes =
  /^(text\/|application\/(json|xml|javascript|typescript|x-sh|x-yaml|yaml|toml|sql|x-python|ld\+json))/;
const textExtensions = new Set(
  (
    'txt md markdown csv tsv json jsonl yaml yml toml ini cfg conf log xml html htm css scss less svg ' +
    'js mjs cjs jsx ts tsx py rb go rs java kt kts swift c h cc cpp hpp cs php pl lua r sql sh bash zsh ' +
    'ps1 bat dart scala clj ex exs erl hs ml vue svelte tex bib diff patch env gitignore dockerfile makefile'
  ).split(' '),
);

function extension(name: string): string {
  const dot = name.lastIndexOf('.');
  return (dot === -1 ? name : name.slice(dot + 1)).toLowerCase();
}

/**
 * What a file is, from its type and name; null when it is none of the three. SVG is code (an
 * image that can carry script), so it goes as text.
 */
export function attachmentKind(mimeType: string, name: string): AttachmentKind | null {
  if (mimeType === 'application/pdf' || extension(name) === 'pdf') return 'pdf';
  if (mimeType.startsWith('image/') && mimeType !== 'image/svg+xml') return 'image';
  if (textTypes.test(mimeType) || textExtensions.has(extension(name))) return 'text';
  return null;
}

/** The most bytes a file of this kind may have when it is attached (an image: before resizing). */
export function attachmentMaxBytes(kind: AttachmentKind): number {
  if (kind === 'image') return attachmentLimits.imageSourceMaxBytes;
  return kind === 'pdf' ? attachmentLimits.pdfMaxBytes : attachmentLimits.textMaxBytes;
}

/** '1.2 MB', '350 KB', '12 bytes'. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1).replace(/\.0$/, '')} MB`;
}

/** The size of bytes once base64-encoded, as every provider's JSON carries them. */
export function base64Size(bytes: number): number {
  return Math.ceil(bytes / 3) * 4;
}

/**
 * How a file reaches a model: as itself, as its extracted text (a PDF for a model that does not
 * read PDFs), or not at all (an image for a model that does not see images).
 */
export type AttachmentDelivery = 'native' | 'text' | 'refused';

export function attachmentDelivery(
  kind: AttachmentKind,
  capabilities: Pick<ModelCapabilities, 'images' | 'pdfs'>,
): AttachmentDelivery {
  if (kind === 'text') return 'text';
  if (kind === 'image') return capabilities.images ? 'native' : 'refused';
  return capabilities.pdfs ? 'native' : 'text';
}

/** A text file (or a PDF's text) as the model reads it: the name, then the text. */
export function fileAsText(name: string, text: string): string {
  return `<file name="${name.replace(/["\n]/g, '_')}">\n${text}\n</file>`;
}

/**
 * Why these files cannot go to this model in one request, or null: an image in the new message
 * for a model that does not see images, or more file bytes than the provider takes per request
 * (every file on the path is sent again with each turn).
 */
export function sendProblem(
  added: readonly AttachmentPart[],
  earlier: readonly AttachmentPart[],
  target: {
    capabilities: Pick<ModelCapabilities, 'images' | 'pdfs'>;
    model: string;
    label: string;
    maxFileBytes: number;
  },
): string | null {
  const unseen = added.find((part) => attachmentDelivery(part.kind, target.capabilities) === 'refused');
  if (unseen)
    return `${target.model} does not see images. Remove ${unseen.name}, or choose a model that does.`;
  const sentBytes = [...earlier, ...added]
    .filter((part) => attachmentDelivery(part.kind, target.capabilities) === 'native')
    .reduce((total, part) => total + base64Size(part.size), 0);
  if (sentBytes <= target.maxFileBytes) return null;
  return `Too large to send: the files in this conversation come to ${formatBytes(sentBytes)}, and ${target.label} takes at most ${formatBytes(target.maxFileBytes)} per request.`;
}
