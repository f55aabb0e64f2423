import { defaultConfig, type Config, type ProviderId } from './config.ts';
import { attachmentIds, type Conversation } from './conversation.ts';
import {
  conversationRecord,
  type ConversationRecord,
  type MessageRecord,
  type PartRecord,
} from './conversation-record.ts';
import { formatBytes, type AttachmentPart } from './attachments.ts';
import { validateConfigShape } from './config-restore.ts';
import { validateConversationList } from './conversation-validation.ts';
import { readProjects } from './project-validation.ts';
import type { Project } from './projects.ts';
import {
  describeType,
  findJsonHazard,
  isRecord,
  maxJsonDepth,
  ownField,
  quote,
  type JsonRecord,
} from './json-guards.ts';

export const exportVersion = '2.0';

export interface ExportInput {
  config: Config;
  conversations: readonly Conversation[];
  activeConversationId: string | null;
  /** The key stays out of an export unless the user asks for it: exports get shared (docs/decisions.md#key-left-out-of-exports). */
  includeApiKey: boolean;
  now: Date;
  /** Written before the conversations, in this order; none (or an empty list): no `projects` field. */
  projects?: readonly Project[];
  /**
   * The files' bytes, base64, by attachment id (the conversations' and the projects'): written
   * into each file's entry as `data`, so the export stands alone. Absent: the files are named but
   * not carried.
   */
  files?: ReadonlyMap<string, string>;
}

/** The files in a reply's parts with their bytes: drawn pictures, runs' files, tools' images (see withFileData). */
function partsWithData(parts: readonly PartRecord[], files: ReadonlyMap<string, string>): PartRecord[] {
  const carried = <T extends object>(entry: T, id: string): T => {
    const data = files.get(id);
    return data === undefined ? entry : { ...entry, data };
  };
  return parts.map((part): PartRecord => {
    switch (part.type) {
      case 'attachment':
        return carried(part, part.id);
      case 'code-run':
        return { ...part, files: part.files.map((file) => carried(file, file.id)) };
      case 'tool-result':
        return {
          ...part,
          content: part.content.map((item) =>
            item.type === 'image' ? carried(item, item.attachmentId) : item,
          ),
        };
      default:
        return part;
    }
  });
}

/** Each file entry's bytes (a user's file, a tool's image), when the export carries them. */
function withFileData(record: ConversationRecord, files: ReadonlyMap<string, string>): ConversationRecord {
  const carry = (message: MessageRecord): MessageRecord => {
    let carried = message;
    if (message.attachments)
      carried = {
        ...carried,
        attachments: message.attachments.map((entry) => {
          const data = files.get(entry.id);
          return data === undefined ? entry : { ...entry, data };
        }),
      };
    if (message.parts) carried = { ...carried, parts: partsWithData(message.parts, files) };
    return carried;
  };
  return {
    ...record,
    messages: record.messages.map(carry),
    ...(record.otherMessages && { otherMessages: record.otherMessages.map(carry) }),
  };
}

/**
 * The export as the export tab shows it: each file's base64 replaced by its size, so the text
 * stays readable (the download carries the bytes).
 */
export function exportPreview(text: string): string {
  return text.replace(
    /"data": "([A-Za-z0-9+/=]*)"/g,
    (_, data: string) =>
      `"data": "(${formatBytes((data.length / 4) * 3 - (data.match(/(?<!=)=+$/)?.[0].length ?? 0))} of file data, in the download)"`,
  );
}

/** Every file the conversations refer to, by id. */
export function conversationFileIds(conversations: readonly Conversation[]): Set<string> {
  return new Set(conversations.flatMap((conversation) => [...attachmentIds(conversation)]));
}

/** Every file the projects hold, by id. */
export function projectFileIds(projects: readonly Project[]): Set<string> {
  return new Set(projects.flatMap((project) => project.files.map((file) => file.id)));
}

/**
 * A project as the export writes it: its known fields in a fixed order (nothing else it may carry),
 * each file with its bytes as `data` when the export carries them, as a message's files are.
 */
export function projectRecord(
  project: Project,
  files?: ReadonlyMap<string, string>,
): Record<string, unknown> {
  const record: Record<string, unknown> = {
    id: project.id,
    name: project.name,
    instructions: project.instructions,
    files: project.files.map((file) => {
      const data = files?.get(file.id);
      return data === undefined ? { ...file } : { ...file, data };
    }),
  };
  if (project.pin) record.pin = { ...project.pin };
  if (project.effort) record.effort = project.effort;
  if (project.toolSwitches) record.toolSwitches = { ...project.toolSwitches };
  if (project.emoji) record.emoji = project.emoji;
  if (project.color) record.color = project.color;
  if (project.folded) record.folded = true;
  record.createdAt = project.createdAt;
  record.updatedAt = project.updatedAt;
  return record;
}

/**
 * The export text in parts, for writing a large export an entry at a time (a backup):
 * `exportHead`, then `exportEntry` for each conversation, then `exportTail` make exactly the text
 * `buildExport` returns, `JSON.stringify(envelope, null, 2)`. With projects, the head is asked to
 * open `projects` instead, and `exportProjectEntry` for each project, then `exportProjectsEnd`
 * (which opens `conversations`) come between the head and the conversations.
 */
export function exportHead(
  config: Config,
  includeApiKey: boolean,
  now: Date,
  firstList: 'projects' | 'conversations' = 'conversations',
): string {
  const exportedConfig: Partial<Config> = { ...config };
  if (!includeApiKey) delete exportedConfig.apiKey;
  const head = JSON.stringify(
    { version: exportVersion, exportedAt: now.toISOString(), config: exportedConfig },
    null,
    2,
  );
  return `${head.slice(0, -2)},\n  "${firstList}": [`;
}

/** Indented as an entry of a top-level list, after a comma unless it is the first. */
const listEntry = (value: unknown, index: number): string =>
  // Strings hold no raw line breaks (JSON escapes them): every one is indentation.
  `${index === 0 ? '' : ','}\n    ${JSON.stringify(value, null, 2).replaceAll('\n', '\n    ')}`;

/** One project's record (with its files' bytes when given), the `index`th of the list. */
export function exportProjectEntry(
  project: Project,
  index: number,
  files?: ReadonlyMap<string, string>,
): string {
  return listEntry(projectRecord(project, files), index);
}

/** Closes the projects (`count` of them) and opens the conversations. */
export function exportProjectsEnd(count: number): string {
  return `${count === 0 ? '' : '\n  '}],\n  "conversations": [`;
}

/** One conversation's record (with its files' bytes when given), the `index`th of the list. */
export function exportEntry(
  record: ConversationRecord,
  index: number,
  files?: ReadonlyMap<string, string>,
): string {
  return listEntry(files ? withFileData(record, files) : record, index);
}

export function exportTail(count: number, activeConversationId: string | null): string {
  return `${count === 0 ? '' : '\n  '}],\n  "activeConversationId": ${JSON.stringify(activeConversationId)}\n}`;
}

/** The export text: what the export tab shows and the download contains. */
export function buildExport({
  config,
  conversations,
  activeConversationId,
  includeApiKey,
  now,
  projects = [],
  files,
}: ExportInput): string {
  const entries = conversations.map((conversation, index) =>
    exportEntry(conversationRecord(conversation), index, files),
  );
  // No projects, no field: the text is what releases before projects wrote.
  const projectPart =
    projects.length === 0
      ? ''
      : projects.map((project, index) => exportProjectEntry(project, index, files)).join('') +
        exportProjectsEnd(projects.length);
  return (
    exportHead(config, includeApiKey, now, projects.length === 0 ? 'conversations' : 'projects') +
    projectPart +
    entries.join('') +
    exportTail(entries.length, activeConversationId)
  );
}

export function exportFileName(now: Date): string {
  return `azure-openai-chat-${now.toISOString().slice(0, 10)}.json`;
}

export interface ImportData {
  config?: Config;
  /** Present with `config`: false when the file carried no key, so the current key is kept. */
  configHasKey?: boolean;
  conversations?: Conversation[];
  /**
   * The projects (read with `conversations` only, as hostile input: readProjects); absent when the
   * file has none (an earlier release's). Every imported conversation's `projectId` names one.
   */
  projects?: Project[];
  /** As written in the file; it may name no imported conversation, so resolve it with pickActiveId. */
  activeConversationId?: string | null;
  /** The bytes the file carries for the conversations' and projects' files (base64 and type), by attachment id. */
  files?: Map<string, { data: string; mimeType: string }>;
}

/** The entries of a raw list that are objects. */
const recordsIn = (value: unknown): JsonRecord[] => (Array.isArray(value) ? value.filter(isRecord) : []);

/**
 * The file entries of a raw message, with the key naming each one's file: a user's files
 * (`attachments`, by `id`), and in a reply's `parts` its drawn pictures and its runs' files (by
 * `id`) and its tools' images (by `attachmentId`).
 */
function fileEntries(message: JsonRecord): [JsonRecord, string][] {
  const entries: [JsonRecord, string][] = recordsIn(ownField(message, 'attachments')).map((entry) => [
    entry,
    'id',
  ]);
  for (const part of recordsIn(ownField(message, 'parts'))) {
    const type = ownField(part, 'type');
    if (type === 'attachment') entries.push([part, 'id']);
    if (type === 'code-run')
      for (const file of recordsIn(ownField(part, 'files'))) entries.push([file, 'id']);
    if (type === 'tool-result')
      for (const item of recordsIn(ownField(part, 'content')))
        if (ownField(item, 'type') === 'image') entries.push([item, 'attachmentId']);
  }
  return entries;
}

/**
 * The `data` of every file entry in the raw conversations and projects, for the files the import
 * kept (`wanted`).
 */
function readFileData(
  rawConversations: unknown,
  rawProjects: unknown,
  wanted: ReadonlySet<string>,
): NonNullable<ImportData['files']> {
  const files: NonNullable<ImportData['files']> = new Map();
  if (wanted.size === 0) return files;
  const keep = ([entry, key]: [JsonRecord, string]) => {
    const id = ownField(entry, key);
    const data = ownField(entry, 'data');
    const mimeType = ownField(entry, 'mimeType');
    if (typeof id === 'string' && wanted.has(id) && typeof data === 'string' && typeof mimeType === 'string')
      files.set(id, { data, mimeType });
  };
  for (const conversation of recordsIn(rawConversations))
    for (const list of [ownField(conversation, 'messages'), ownField(conversation, 'otherMessages')])
      for (const message of recordsIn(list)) fileEntries(message).forEach(keep);
  for (const project of recordsIn(rawProjects))
    for (const file of recordsIn(ownField(project, 'files'))) keep([file, 'id']);
  return files;
}

/**
 * The projects without a file whose id is taken (by a conversation's file, or an earlier
 * project's): each file's bytes have one owner, deleted with it. No export of ours has such a file.
 */
function withOwnFiles(projects: Project[], taken: ReadonlySet<string>): Project[] {
  const used = new Set(taken);
  return projects.map((project) => {
    const files: AttachmentPart[] = [];
    for (const file of project.files)
      if (!used.has(file.id)) {
        used.add(file.id);
        files.push(file);
      }
    return files.length === project.files.length ? project : { ...project, files };
  });
}

/** A conversation whose project is not among `projects` belongs to none. */
function withKnownProject(conversation: Conversation, projects: ReadonlySet<string>): Conversation {
  if (conversation.projectId === undefined || projects.has(conversation.projectId)) return conversation;
  const kept = { ...conversation };
  delete kept.projectId;
  return kept;
}

export type ImportResult = { ok: true; data: ImportData } | { ok: false; problem: string };

export interface ImportOptions {
  /** Replaces missing timestamps. */
  now: Date;
  /** For conversations without a provider when the file has no config: the current provider. */
  provider?: ProviderId;
}

/** The text as JSON, or why it is not (as an import tells it). */
export function parseJson(text: string): { ok: true; value: unknown } | { ok: false; problem: string } {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (error) {
    // Deeply nested input can exhaust the parser's stack; report it like any other parse failure.
    if (error instanceof RangeError)
      return { ok: false, problem: 'The file is not valid JSON: it is nested too deeply' };
    const reason = error instanceof Error ? error.message : String(error);
    return { ok: false, problem: `The file is not valid JSON: ${reason}` };
  }
}

/**
 * Why parsed JSON is refused whole before anything reads it, or null. No genuine export holds a
 * `__proto__` key (a file that does was crafted to pollute prototypes) or nests anywhere near
 * `maxJsonDepth`.
 */
export function hostileJsonProblem(value: unknown): string | null {
  const hazard = findJsonHazard(value);
  if (hazard === null) return null;
  if ('tooDeepAt' in hazard)
    return `The file is nested too deeply at ${hazard.tooDeepAt}: more than ${maxJsonDepth} levels, which no export has; nothing was imported`;
  return `The file contains a "__proto__" key at ${hazard.protoAt}, which no export has; nothing was imported`;
}

/**
 * Parses and validates a whole import file before anything is changed (docs/behaviour.md#import-format): version '2.0'
 * or a legacy file without one, or a legacy bare list of conversations. A file holding a
 * `__proto__` key anywhere, or nested absurdly deep, is refused; of the rest, only known fields are
 * copied into fresh objects.
 */
export function parseImport(text: string, options: ImportOptions): ImportResult {
  const parsed = parseJson(text);
  if (!parsed.ok) return parsed;
  const problem = hostileJsonProblem(parsed.value);
  return problem === null ? readImport(parsed.value, options) : { ok: false, problem };
}

/** `parseImport` of a value already parsed and found free of hazards (see hostileJsonProblem). */
export function readImport(value: unknown, options: ImportOptions): ImportResult {
  const root = Array.isArray(value) ? { conversations: value } : value;
  if (!isRecord(root)) {
    return { ok: false, problem: `The file must hold an object (found ${describeType(value)})` };
  }

  const version = ownField(root, 'version');
  if (version !== undefined && version !== exportVersion) {
    const found = typeof version === 'string' ? quote(version) : describeType(version);
    return { ok: false, problem: `version must be "${exportVersion}" (found ${found})` };
  }

  const data: ImportData = {};
  const rawConfig = ownField(root, 'config');
  if (rawConfig !== undefined) {
    const config = validateConfigShape(rawConfig, 'config');
    if (!config.ok) return config;
    data.config = config.config;
    data.configHasKey = config.hasKey;
  }

  // Absent in files of releases before projects; its entries are read one by one, a malformed
  // one left out (readProjects), never the file.
  const rawProjects = ownField(root, 'projects');
  if (rawProjects !== undefined && !Array.isArray(rawProjects))
    return { ok: false, problem: `projects must be a list (found ${describeType(rawProjects)})` };

  const rawConversations = ownField(root, 'conversations');
  if (rawConversations !== undefined) {
    const fallbackProvider = data.config?.provider ?? options.provider ?? defaultConfig.provider;
    const conversations = validateConversationList(rawConversations, 'conversations', {
      now: options.now,
      fallbackProvider,
    });
    if (!conversations.ok) return conversations;
    // Projects go with the conversations: a file without conversations replaces neither.
    const projects = withOwnFiles(readProjects(rawProjects), conversationFileIds(conversations.value));
    const projectIds = new Set(projects.map((project) => project.id));
    // The list keeps the file's order.
    data.conversations = conversations.value.map((conversation, order) => ({
      ...withKnownProject(conversation, projectIds),
      order,
    }));
    if (projects.length > 0) data.projects = projects;
    const wanted = new Set([...conversationFileIds(data.conversations), ...projectFileIds(projects)]);
    const files = readFileData(rawConversations, rawProjects, wanted);
    if (files.size > 0) data.files = files;
  }

  const activeId = ownField(root, 'activeConversationId');
  if (activeId !== undefined) {
    if (activeId !== null && typeof activeId !== 'string') {
      return {
        ok: false,
        problem: `activeConversationId must be a string or null (found ${describeType(activeId)})`,
      };
    }
    data.activeConversationId = activeId;
  }

  if (data.config === undefined && data.conversations === undefined) {
    return { ok: false, problem: 'The file holds neither a config nor conversations' };
  }
  return { ok: true, data };
}
