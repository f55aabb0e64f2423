import { isRecord, ownField, type JsonRecord } from '../json-guards.ts';
import {
  isoFrom,
  readEntries,
  type ImportedChat,
  type ImportedMessage,
  type OtherAppExport,
} from './imported-chat.ts';

/**
 * ChatGPT's data export: `conversations.json`, an array of conversations whose `mapping` is the
 * message tree (node id → { message, parent, children }) and `current_node` the message shown
 * last. Times are seconds since 1970. Nodes without a message, system and tool messages, the
 * user's custom instructions and hidden messages are left out; their children hang on the
 * nearest message kept above them.
 */

export function isChatGptExport(value: unknown): value is unknown[] {
  return (
    Array.isArray(value) && value.some((entry) => isRecord(entry) && isRecord(ownField(entry, 'mapping')))
  );
}

const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

/** The text a message shows: text parts, code, tool output (images are apart: `imagePointers`). */
function contentText(content: JsonRecord): string {
  const type = ownField(content, 'content_type');
  if (type === 'code') {
    const language = str(ownField(content, 'language')) ?? '';
    return `\`\`\`${language === 'unknown' ? '' : language}\n${str(ownField(content, 'text')) ?? ''}\n\`\`\``;
  }
  if (type === 'execution_output') return str(ownField(content, 'text')) ?? '';
  const parts = ownField(content, 'parts');
  if (!Array.isArray(parts)) return str(ownField(content, 'text')) ?? '';
  return parts
    .map((part) => {
      if (typeof part === 'string') return part;
      if (isRecord(part) && typeof ownField(part, 'text') === 'string')
        return ownField(part, 'text') as string;
      return '';
    })
    .filter((text) => text !== '')
    .join('\n\n');
}

/**
 * The images a message shows, by the id its pointer names (`file-service://file-abc` or
 * `sediment://file_00…` → `file-abc`, `file_00…`): the export's ZIP holds each as a file whose name
 * starts with that id.
 */
function imagePointers(content: JsonRecord): string[] {
  const parts = ownField(content, 'parts');
  if (!Array.isArray(parts)) return [];
  return parts.flatMap((part) => {
    if (!isRecord(part) || ownField(part, 'content_type') !== 'image_asset_pointer') return [];
    const pointer = str(ownField(part, 'asset_pointer')) ?? '';
    return [pointer.replace(/^[a-z-]+:\/\//, '')];
  });
}

interface KeptMessage {
  role: 'user' | 'assistant';
  text: string;
  images: string[];
  record: JsonRecord;
}

/** The message a node holds, if it is one to keep. */
function keptMessage(node: JsonRecord): KeptMessage | null {
  const message = ownField(node, 'message');
  if (!isRecord(message)) return null;
  const author = ownField(message, 'author');
  const role = isRecord(author) ? ownField(author, 'role') : undefined;
  if (role !== 'user' && role !== 'assistant') return null;
  const metadata = ownField(message, 'metadata');
  if (isRecord(metadata) && ownField(metadata, 'is_visually_hidden_from_conversation') === true) return null;
  const content = ownField(message, 'content');
  if (!isRecord(content) || ownField(content, 'content_type') === 'user_editable_context') return null;
  const text = contentText(content).trim();
  const images = imagePointers(content);
  if (text === '' && images.length === 0) return null;
  return { role, text, images, record: message };
}

/** Deeper than any chat (ChatGPT keeps a few thousand messages at most): a mapping past it is not read. */
const maxDepth = 100_000;

/**
 * Each node's nearest kept ancestor (or itself when kept; null: none, it hangs under the root),
 * walking up each parent chain once. Null for the whole mapping when a chain loops or runs deeper
 * than `maxDepth`: no export has either. Iterative, as the export decides the depth.
 */
function nearestKeptNodes(
  nodes: ReadonlyMap<string, JsonRecord>,
  kept: ReadonlySet<string>,
): Map<string, string | null> | null {
  const nearest = new Map<string, string | null>();
  const depths = new Map<string, number>();
  for (const start of nodes.keys()) {
    // Up from `start` to a node already known, or to the top.
    const chain: string[] = [];
    const onChain = new Set<string>();
    let above: string | null = null;
    let depth = 0;
    for (let id: string | undefined = start; id !== undefined;) {
      if (nearest.has(id)) {
        above = nearest.get(id) ?? null;
        depth = depths.get(id) ?? 0;
        break;
      }
      const node = nodes.get(id);
      if (!node) break;
      if (onChain.has(id)) return null;
      onChain.add(id);
      chain.push(id);
      id = str(ownField(node, 'parent'));
    }
    // Then down again, each node learning its depth and nearest kept ancestor.
    for (let index = chain.length - 1; index >= 0; index--) {
      const id = chain[index] as string;
      depth++;
      if (depth > maxDepth) return null;
      if (kept.has(id)) above = id;
      nearest.set(id, above);
      depths.set(id, depth);
    }
  }
  return nearest;
}

function readConversation(entry: unknown): ImportedChat | null {
  if (!isRecord(entry)) return null;
  const mapping = ownField(entry, 'mapping');
  const sourceId = str(ownField(entry, 'conversation_id')) ?? str(ownField(entry, 'id'));
  if (!isRecord(mapping) || !sourceId) return null;
  const createdAt = isoFrom(ownField(entry, 'create_time'), 'seconds');
  if (!createdAt) return null;
  const updatedAt = isoFrom(ownField(entry, 'update_time'), 'seconds') ?? createdAt;
  const nodes = new Map<string, JsonRecord>();
  for (const [id, node] of Object.entries(mapping)) if (isRecord(node)) nodes.set(id, node);
  const keptMessages = new Map<string, KeptMessage>();
  for (const [id, node] of nodes) {
    const kept = keptMessage(node);
    if (kept) keptMessages.set(id, kept);
  }
  const nearest = nearestKeptNodes(nodes, new Set(keptMessages.keys()));
  // A loop or an absurd depth: this conversation is counted as unreadable, the others still read.
  if (!nearest) return null;
  const nearestKept = (id: string | undefined) => (id === undefined ? null : (nearest.get(id) ?? null));
  const messages: ImportedMessage[] = [];
  for (const [id, kept] of keptMessages) {
    const node = nodes.get(id) as JsonRecord;
    const message: ImportedMessage = {
      id,
      parentId: nearestKept(str(ownField(node, 'parent'))),
      role: kept.role,
      text: kept.text,
    };
    if (kept.images.length > 0) message.images = kept.images;
    const at = isoFrom(ownField(kept.record, 'create_time'), 'seconds');
    if (at) message.createdAt = at;
    const metadata = ownField(kept.record, 'metadata');
    const model = isRecord(metadata) ? str(ownField(metadata, 'model_slug')) : undefined;
    if (model && kept.role === 'assistant') message.model = model;
    messages.push(message);
  }
  const chat: ImportedChat = {
    id: `chatgpt-${sourceId}`,
    name: str(ownField(entry, 'title')) ?? '',
    createdAt,
    updatedAt,
    provider: 'openai',
    messages,
  };
  const leaf = nearestKept(str(ownField(entry, 'current_node')));
  if (leaf) chat.activeLeafId = leaf;
  return chat;
}

export function readChatGptExport(entries: unknown[]): OtherAppExport {
  return readEntries('ChatGPT export', entries, readConversation);
}
