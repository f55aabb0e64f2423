import { defaultConfig, type Config, type ProviderId } from './config.ts';
import { attachmentIds, type Conversation } from './conversation.ts';
import {
  conversationRecord,
  type ConversationRecord,
  type MessageRecord,
  type PartRecord,
} from './conversation-record.ts';
import { formatBytes } from './attachments.ts';
import { validateConfigShape } from './config-restore.ts';
import { validateConversationList } from './conversation-validation.ts';
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
  /**
   * The files' bytes, base64, by attachment id: written into each file's entry as `data`, so the
   * export stands alone. Absent: the files are named but not carried.
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

/**
 * The export text in parts, for writing a large export a conversation at a time (a backup):
 * `exportHead`, then `exportEntry` for each conversation, then `exportTail` make exactly the text
 * `buildExport` returns, `JSON.stringify(envelope, null, 2)`.
 */
export function exportHead(config: Config, includeApiKey: boolean, now: Date): string {
  const exportedConfig: Partial<Config> = { ...config };
  if (!includeApiKey) delete exportedConfig.apiKey;
  const head = JSON.stringify(
    { version: exportVersion, exportedAt: now.toISOString(), config: exportedConfig },
    null,
    2,
  );
  return `${head.slice(0, -2)},\n  "conversations": [`;
}

/** One conversation's record (with its files' bytes when given), the `index`th of the list. */
export function exportEntry(
  record: ConversationRecord,
  index: number,
  files?: ReadonlyMap<string, string>,
): string {
  const json = JSON.stringify(files ? withFileData(record, files) : record, null, 2);
  // Strings hold no raw line breaks (JSON escapes them): every one is indentation.
  return `${index === 0 ? '' : ','}\n    ${json.replaceAll('\n', '\n    ')}`;
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
  files,
}: ExportInput): string {
  const entries = conversations.map((conversation, index) =>
    exportEntry(conversationRecord(conversation), index, files),
  );
  return (
    exportHead(config, includeApiKey, now) +
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
  /** As written in the file; it may name no imported conversation, so resolve it with pickActiveId. */
  activeConversationId?: string | null;
  /** The bytes the file carries for the conversations' files (base64 and type), by attachment id. */
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

/** The `data` of every file entry in the raw conversations, for the files the import kept. */
function readFileData(
  raw: unknown,
  conversations: readonly Conversation[],
): NonNullable<ImportData['files']> {
  const wanted = conversationFileIds(conversations);
  const files: NonNullable<ImportData['files']> = new Map();
  if (wanted.size === 0) return files;
  for (const conversation of recordsIn(raw))
    for (const list of [ownField(conversation, 'messages'), ownField(conversation, 'otherMessages')])
      for (const message of recordsIn(list))
        for (const [entry, key] of fileEntries(message)) {
          const id = ownField(entry, key);
          const data = ownField(entry, 'data');
          const mimeType = ownField(entry, 'mimeType');
          if (
            typeof id === 'string' &&
            wanted.has(id) &&
            typeof data === 'string' &&
            typeof mimeType === 'string'
          )
            files.set(id, { data, mimeType });
        }
  return files;
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

  const rawConversations = ownField(root, 'conversations');
  if (rawConversations !== undefined) {
    const fallbackProvider = data.config?.provider ?? options.provider ?? defaultConfig.provider;
    const conversations = validateConversationList(rawConversations, 'conversations', {
      now: options.now,
      fallbackProvider,
    });
    if (!conversations.ok) return conversations;
    // The list keeps the file's order.
    data.conversations = conversations.value.map((conversation, order) => ({ ...conversation, order }));
    const files = readFileData(rawConversations, data.conversations);
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
