import { codeFences, type CodeFence } from '../lib/code-fences.ts';
import { messageText, type ArtifactEdit, type Message } from './conversation.ts';

/**
 * Artifacts: pages, pictures, diagrams, components and documents a model wrote as code blocks,
 * opened in a panel beside the chat. They are a view over the replies: the same artifact (same
 * name) written again in a later reply is its next version (docs/artifacts.md).
 */

export type ArtifactKind = 'html' | 'svg' | 'mermaid' | 'react' | 'markdown' | 'code';

export interface ArtifactVersion {
  /** The reply that wrote it. */
  messageId: string;
  code: string;
  /** The block's language, lower case ('' when none). */
  language: string;
  /** Still being written (the streaming reply's open block): shown as code, rendered once closed. */
  streaming?: true;
  /** Written by the user ('Save as version'): the edit's id. */
  editId?: string;
}

export interface Artifact {
  /** Its name folded (case and spaces): how later versions find it. */
  key: string;
  /** Its name as first written. */
  title: string;
  kind: ArtifactKind;
  versions: ArtifactVersion[];
}

const kindOf: Record<string, ArtifactKind> = {
  html: 'html',
  htm: 'html',
  xhtml: 'html',
  svg: 'svg',
  mermaid: 'mermaid',
  jsx: 'react',
  tsx: 'react',
  md: 'markdown',
  markdown: 'markdown',
};

/** A longer block of any language is an artifact too: code worth reading beside the chat. */
export const artifactMinLines = 16;

/** Bounds on the work done over a conversation's replies (they are hostile input). */
export const artifactLimits = {
  artifacts: 200,
  versions: 200,
  titleLength: 80,
} as const;

/** A new edit of an artifact, saved after the reply its shown version came from. */
export function artifactEdit(
  artifact: Pick<Artifact, 'key'>,
  from: Pick<ArtifactVersion, 'messageId' | 'language'>,
  code: string,
  id: string,
  now: Date,
): ArtifactEdit {
  return {
    id,
    key: artifact.key,
    language: from.language,
    code,
    afterMessageId: from.messageId,
    savedAt: now.toISOString(),
  };
}

/** What kind of artifact a closed block is (one still being written is none yet), or null when it is not one. */
export function artifactKind(fence: Pick<CodeFence, 'language' | 'code' | 'closed'>): ArtifactKind | null {
  if (!fence.closed) return null;
  const kind = kindOf[fence.language];
  if (kind) return kind;
  return lineCount(fence.code) >= artifactMinLines ? 'code' : null;
}

function lineCount(text: string): number {
  let lines = 1;
  for (let at = text.indexOf('\n'); at !== -1 && lines < artifactMinLines; at = text.indexOf('\n', at + 1))
    lines++;
  return lines;
}

const languageNames: Record<string, string> = {
  html: 'HTML page',
  htm: 'HTML page',
  xhtml: 'HTML page',
  svg: 'SVG image',
  mermaid: 'Diagram',
  jsx: 'React component',
  tsx: 'React component',
  md: 'Document',
  markdown: 'Document',
};

/**
 * Its name: the info string's `title="…"` or `filename=…`; else the first heading (Markdown,
 * HTML), the component's name (React), or the language's.
 */
export function artifactTitle(fence: Pick<CodeFence, 'info' | 'language' | 'code'>): string {
  const named =
    /\btitle=(?:"([^"]{1,200})"|'([^']{1,200})'|(\S{1,200}))/.exec(fence.info) ??
    /\bfilename=(?:"([^"]{1,200})"|'([^']{1,200})'|(\S{1,200}))/.exec(fence.info);
  const found = named ? (named[1] ?? named[2] ?? named[3]) : headingOf(fence);
  const title = (found ?? '').replace(/\s+/g, ' ').trim().slice(0, artifactLimits.titleLength);
  if (title !== '') return title;
  return languageNames[fence.language] ?? (fence.language ? `${fence.language} code` : 'Code');
}

/** The first heading or component name in the first lines of the code (bounded: they are long). */
function headingOf({ language, code }: Pick<CodeFence, 'language' | 'code'>): string | undefined {
  const head = code.slice(0, 4000);
  switch (kindOf[language]) {
    case 'markdown':
      return /^#{1,6}[ \t]+(.{1,200})$/m.exec(head)?.[1];
    case 'html':
    case 'svg':
      return (
        /<title[^>]{0,100}>([^<]{1,200})<\/title>/i.exec(head)?.[1] ??
        /<h1[^>]{0,100}>([^<]{1,200})<\/h1>/i.exec(head)?.[1]
      );
    case 'react':
      return (
        /export\s+default\s+(?:function|class)\s+([A-Z]\w{0,80})/.exec(code)?.[1] ??
        /(?:^|\n)(?:export\s+)?(?:function|class|const)\s+([A-Z]\w{0,80})/.exec(head)?.[1]
      );
    default:
      return undefined;
  }
}

const keyOf = (title: string) => title.toLowerCase().replace(/\s+/g, ' ');

/**
 * The code blocks of a message, read once per message object: a finished reply keeps its object
 * while another streams, so an open panel reads only the reply that grows.
 */
const fencesRead = new WeakMap<Message, CodeFence[]>();
function fencesOf(message: Message): CodeFence[] {
  let fences = fencesRead.get(message);
  if (!fences) {
    fences = codeFences(messageText(message));
    fencesRead.set(message, fences);
  }
  return fences;
}

/**
 * The artifacts of the replies on a path, each with its versions in order. A reply writing the
 * same name twice adds two versions; a later reply writing a name already seen adds the next. The
 * replies `streamingIds`, still arriving, adds the block it is writing as a version being written.
 */
export function artifactsOf(
  messages: readonly Message[],
  streamingIds: readonly string[] = [],
  edits: readonly ArtifactEdit[] = [],
): Artifact[] {
  const byKey = new Map<string, Artifact>();
  const editsAfter = new Map<string, ArtifactEdit[]>();
  for (const edit of [...edits].sort((a, b) => (a.savedAt < b.savedAt ? -1 : a.savedAt > b.savedAt ? 1 : 0)))
    editsAfter.set(edit.afterMessageId, [...(editsAfter.get(edit.afterMessageId) ?? []), edit]);
  for (const message of messages) {
    if (message.role !== 'assistant') continue;
    for (const fence of fencesOf(message)) {
      // A block the reply ends inside is closed by its end (CommonMark), unless it is still coming.
      const streaming = !fence.closed && streamingIds.includes(message.id);
      const kind = artifactKind({ ...fence, closed: true });
      if (kind === null) continue;
      const title = artifactTitle(fence);
      const key = keyOf(title);
      let artifact = byKey.get(key);
      if (!artifact) {
        if (byKey.size >= artifactLimits.artifacts) continue;
        artifact = { key, title, kind, versions: [] };
        byKey.set(key, artifact);
      }
      if (artifact.versions.length < artifactLimits.versions)
        artifact.versions.push({
          messageId: message.id,
          code: fence.code,
          language: fence.language,
          ...(streaming && { streaming: true as const }),
        });
    }
    for (const edit of editsAfter.get(message.id) ?? []) {
      const artifact = byKey.get(edit.key);
      if (artifact && artifact.versions.length < artifactLimits.versions)
        artifact.versions.push({
          messageId: message.id,
          code: edit.code,
          language: edit.language,
          editId: edit.id,
        });
    }
  }
  return [...byKey.values()];
}

/** The artifact and version a block of a reply is: the last version with its code, from that reply first. */
export function findArtifactVersion(
  artifacts: readonly Artifact[],
  code: string,
  messageId?: string,
): { artifact: Artifact; version: number } | null {
  let found: { artifact: Artifact; version: number } | null = null;
  for (const artifact of artifacts)
    artifact.versions.forEach((entry, version) => {
      if (entry.code !== code) return;
      if (!found || messageId === undefined || entry.messageId === messageId) found = { artifact, version };
    });
  return found;
}

/** The file name a download of a version gets: its title with the extension its language has. */
export function artifactFileName(
  artifact: Pick<Artifact, 'title' | 'kind'>,
  version: ArtifactVersion,
): string {
  const extension = extensions[version.language] ?? (version.language.replace(/[^a-z0-9+#-]/g, '') || 'txt');
  const base =
    [...artifact.title.replace(/[\\/:*?"<>|]/g, ' ')]
      .filter((char) => char >= ' ')
      .join('')
      .replace(/\s+/g, ' ')
      .trim() || 'artifact';
  return base.toLowerCase().endsWith(`.${extension}`) ? base : `${base}.${extension}`;
}

const extensions: Record<string, string> = {
  html: 'html',
  htm: 'html',
  xhtml: 'xhtml',
  svg: 'svg',
  mermaid: 'mmd',
  jsx: 'jsx',
  tsx: 'tsx',
  md: 'md',
  markdown: 'md',
  python: 'py',
  py: 'py',
  javascript: 'js',
  js: 'js',
  typescript: 'ts',
  ts: 'ts',
  rust: 'rs',
  ruby: 'rb',
  go: 'go',
  java: 'java',
  kotlin: 'kt',
  csharp: 'cs',
  'c#': 'cs',
  cpp: 'cpp',
  'c++': 'cpp',
  c: 'c',
  shell: 'sh',
  bash: 'sh',
  sh: 'sh',
  sql: 'sql',
  json: 'json',
  yaml: 'yaml',
  yml: 'yml',
  css: 'css',
};
