import { isRecord, ownField, type JsonRecord } from '../json-guards.ts';
import {
  isoFrom,
  readEntries,
  type ImportedChat,
  type ImportedMessage,
  type ImportedProject,
  type OtherAppExport,
} from './imported-chat.ts';
import { importedProjectId, withProjects } from './imported-projects.ts';
import {
  addCall,
  addResult,
  addText,
  isFull,
  newReply,
  replyText,
  resultImages,
  usedTools,
  type ImportedReply,
  type ImportedResultPiece,
} from './imported-reply.ts';

/**
 * ChatGPT's data export: `conversations.json`, an array of conversations whose `mapping` is the
 * message tree (node id → { message, parent, children }) and `current_node` the message shown
 * last. Times are seconds since 1970. Nodes without a message, system messages, the user's
 * custom instructions, reasoning and what ChatGPT hides from the user (marked
 * `is_visually_hidden_from_conversation`, a tool's message of weight 0) are left out; their
 * children hang on the nearest message kept above them. Tools are kept as ChatGPT ran them: an
 * assistant's message to a tool (`recipient` not 'all') is a call, the tool's messages after it
 * (`author.role` 'tool') its result, folded into one reply with the text around them (see
 * readMessages).
 *
 * A conversation in one of the user's projects names it by `gizmo_id` (`g-p-…`; a custom GPT's is
 * `g-…` without the `p-`, and is no project). The export holds nothing else of a project: no
 * name, no instructions, no files. Each becomes a project named after its id's first characters.
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

/** The id an image pointer names its file with. */
const pointerId = (pointer: string) => pointer.replace(/^[a-z-]+:\/\//, '');

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
    return [pointerId(str(ownField(part, 'asset_pointer')) ?? '')];
  });
}

/** A message of the conversation: the user's, or a reply's text. */
interface KeptMessage {
  kind: 'message';
  role: 'user' | 'assistant';
  text: string;
  images: string[];
  record: JsonRecord;
}

/** The assistant addressing a tool (its `recipient`): a call, whose content is what it sent. */
interface KeptCall {
  kind: 'call';
  name: string;
  arguments: string;
  record: JsonRecord;
}

/** A tool's message (`author.role` 'tool', `author.name` the tool): what came back for a call. */
interface KeptOutput {
  kind: 'output';
  name: string | undefined;
  pieces: ImportedResultPiece[];
  isError: boolean;
  record: JsonRecord;
}

type Kept = KeptMessage | KeptCall | KeptOutput;

/** Who a message goes to when it is not a tool: everyone ('all'), or a person. */
const notTools: ReadonlySet<string> = new Set(['all', 'user', 'assistant']);

/**
 * What the assistant sent a tool, as it wrote it: code for `python` (a 'code' content's `text`, or
 * since GPT-5 a 'text' content's parts), JSON for the others (`web.run`'s queries, DALL·E's
 * prompt, a plugin's or action's arguments). It is kept as text even when it is not JSON (a
 * call's `arguments` are kept as written, even malformed): wrapped as `{"code": …}` the code would
 * read as one escaped line on the tool card and in a Markdown export, which show JSON laid out
 * and anything else as written, and an imported reply goes to any model written out as text.
 */
function callArguments(content: JsonRecord): string {
  const text = ownField(content, 'text');
  if (typeof text === 'string') return text;
  const parts = ownField(content, 'parts');
  if (!Array.isArray(parts)) return '';
  return parts.filter((part): part is string => typeof part === 'string').join('\n\n');
}

/**
 * Python's result: its output, and the images its code drew, by the pointer `aggregate_result`
 * names them with (the export's ZIP holds some). A run whose status is not 'success' (an
 * exception, a reset kernel, a timeout) failed.
 */
function executionOutput(
  content: JsonRecord,
  metadata: unknown,
): { pieces: ImportedResultPiece[]; failed: boolean } {
  const pieces: ImportedResultPiece[] = [{ type: 'text', text: str(ownField(content, 'text')) ?? '' }];
  const run = isRecord(metadata) ? ownField(metadata, 'aggregate_result') : undefined;
  if (!isRecord(run)) return { pieces, failed: false };
  const messages = ownField(run, 'messages');
  for (const message of Array.isArray(messages) ? messages : []) {
    if (!isRecord(message) || ownField(message, 'message_type') !== 'image') continue;
    const url = str(ownField(message, 'image_url'));
    if (url) pieces.push({ type: 'image', image: pointerId(url) });
  }
  const status = ownField(run, 'status');
  return { pieces, failed: typeof status === 'string' && status !== 'success' };
}

/** The sources a search found (`web.run` writes them in `metadata`, its text empty): title, address, snippet. */
function searchResults(metadata: unknown): ImportedResultPiece[] {
  const groups = isRecord(metadata) ? ownField(metadata, 'search_result_groups') : undefined;
  if (!Array.isArray(groups)) return [];
  const found: string[] = [];
  for (const group of groups) {
    const entries = isRecord(group) ? ownField(group, 'entries') : undefined;
    for (const result of Array.isArray(entries) ? entries : []) {
      if (!isRecord(result)) continue;
      const lines = ['title', 'url', 'snippet'].map((key) => str(ownField(result, key))?.trim() ?? '');
      if (lines.some((line) => line !== '')) found.push(lines.filter((line) => line !== '').join('\n'));
    }
  }
  return found.length > 0 ? [{ type: 'text', text: found.join('\n\n') }] : [];
}

/** What a tool's message holds, as result pieces; whether it says the call failed. */
function toolOutput(
  content: JsonRecord,
  metadata: unknown,
): { pieces: ImportedResultPiece[]; failed: boolean } {
  const type = ownField(content, 'content_type');
  const text = (key: string) => str(ownField(content, key))?.trim() ?? '';
  let output: { pieces: ImportedResultPiece[]; failed: boolean };
  if (type === 'execution_output') output = executionOutput(content, metadata);
  // A tool that could not run (its `name` the exception, e.g. a rate limit): the model is told why.
  else if (type === 'system_error')
    output = {
      pieces: [{ type: 'text', text: [text('name'), text('text')].filter(Boolean).join(': ') }],
      failed: true,
    };
  // The browser's page (its `result`, or a `summary`), and a passage it quoted with its source.
  else if (type === 'tether_browsing_display')
    output = { pieces: [{ type: 'text', text: text('result') || text('summary') }], failed: false };
  else if (type === 'tether_quote') {
    const source = [text('title'), text('url')].filter(Boolean).join('\n');
    output = {
      pieces: [{ type: 'text', text: [source, text('text')].filter(Boolean).join('\n\n') }],
      failed: false,
    };
  } else {
    // Text, images (DALL·E's, the image tool's) and whatever else in order, as a message shows them.
    const parts = ownField(content, 'parts');
    const pieces: ImportedResultPiece[] = Array.isArray(parts)
      ? parts.flatMap((part): ImportedResultPiece[] => {
          if (typeof part === 'string') return [{ type: 'text', text: part }];
          if (!isRecord(part)) return [];
          if (ownField(part, 'content_type') === 'image_asset_pointer')
            return [{ type: 'image', image: pointerId(str(ownField(part, 'asset_pointer')) ?? '') }];
          const partText = str(ownField(part, 'text'));
          return partText ? [{ type: 'text', text: partText }] : [];
        })
      : [{ type: 'text', text: contentText(content) }];
    output = { pieces, failed: false };
  }
  output.pieces.push(...searchResults(metadata));
  return output;
}

/**
 * The message a node holds, if it is one to keep: not the system's or hidden from the user (the
 * user's custom instructions, memory, a tool's spinner of weight 0); a tool's output even when
 * empty (a finished search writes no text). Content neither text nor a tool's (reasoning shown
 * apart, 'thoughts', its recap) is left out.
 */
function keptMessage(node: JsonRecord): Kept | null {
  const message = ownField(node, 'message');
  if (!isRecord(message)) return null;
  const author = ownField(message, 'author');
  const role = isRecord(author) ? ownField(author, 'role') : undefined;
  if (role !== 'user' && role !== 'assistant' && role !== 'tool') return null;
  const metadata = ownField(message, 'metadata');
  if (isRecord(metadata) && ownField(metadata, 'is_visually_hidden_from_conversation') === true) return null;
  const content = ownField(message, 'content');
  if (!isRecord(content)) return null;
  // The user's custom instructions, and what ChatGPT remembers of them (memory): never shown.
  const type = ownField(content, 'content_type');
  if (type === 'user_editable_context' || type === 'model_editable_context') return null;
  if (role === 'tool') {
    if (ownField(message, 'weight') === 0) return null;
    const { pieces, failed } = toolOutput(content, metadata);
    const name = isRecord(author) ? str(ownField(author, 'name')) : undefined;
    return { kind: 'output', name: name || undefined, pieces, isError: failed, record: message };
  }
  const recipient = str(ownField(message, 'recipient'));
  if (role === 'assistant' && recipient && !notTools.has(recipient))
    return { kind: 'call', name: recipient, arguments: callArguments(content), record: message };
  const text = contentText(content).trim();
  const images = imagePointers(content);
  if (text === '' && images.length === 0) return null;
  return { kind: 'message', role, text, images, record: message };
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

/** Where a kept node went: the message it is in (or under), and the reply it may go on. */
interface Place {
  /** Null: none above it, it hangs under the root. */
  messageId: string | null;
  /** The reply the node's only child may join; null for a person's message or after a branch. */
  reply: OpenReply | null;
}

interface OpenReply {
  message: ImportedMessage;
  reply: ImportedReply;
}

/** Adds a kept node's own content to a reply it is in; false when it adds nothing (a result for no call). */
function addTo(open: OpenReply, kept: Kept): boolean {
  const { message, reply } = open;
  if (kept.kind === 'call')
    return addCall(reply, ownField(kept.record, 'id'), kept.name, kept.arguments) !== null;
  if (kept.kind === 'output') {
    const which = kept.name === undefined ? { more: true } : { name: kept.name, more: true };
    return addResult(reply, kept.pieces, kept.isError, which);
  }
  addText(reply, kept.text);
  message.images = [...(message.images ?? []), ...kept.images];
  return true;
}

/** The reply a node of the assistant starts: a message of its own. */
function startReply(id: string, parentId: string | null, kept: Exclude<Kept, KeptOutput>): OpenReply {
  const message: ImportedMessage = { id, parentId, role: 'assistant', text: '' };
  const open = { message, reply: newReply() };
  addTo(open, kept);
  if (kept.kind === 'message') message.text = kept.text;
  return open;
}

/**
 * The conversation's kept nodes as messages, parents first. A reply that used tools is one
 * message, as ours are: ChatGPT writes each step as a node of its own (text, the call addressed to
 * a tool, the tool's output, more text), and a step joins the reply above it when it is that
 * node's only child and the reply has used a tool or it is a tool's call or output. Replies
 * without tools stay as they were, a message per node. A tool's output joins the call it answers
 * (by tool, see imported-reply.ts); one that answers no call (files ChatGPT read in, whose call
 * is not in the export) is left out, its children hanging on the message above it.
 */
function readMessages(
  kept: ReadonlyMap<string, Kept>,
  parentOf: (id: string) => string | null,
): { messages: ImportedMessage[]; places: Map<string, Place> } {
  const children = new Map<string | null, string[]>();
  for (const id of kept.keys()) {
    const parent = parentOf(id);
    const list = children.get(parent);
    if (list) list.push(id);
    else children.set(parent, [id]);
  }
  const messages: ImportedMessage[] = [];
  const replies: OpenReply[] = [];
  const places = new Map<string, Place>();
  const root: Place = { messageId: null, reply: null };
  const queue: string[] = [...(children.get(null) ?? [])];
  // Iterative, parents first: the export decides the depth.
  for (let at = 0; at < queue.length; at++) {
    const id = queue[at] as string;
    const node = kept.get(id) as Kept;
    const parent = parentOf(id);
    const above = parent === null ? root : (places.get(parent) ?? root);
    const only = parent !== null && children.get(parent)?.length === 1;
    const open = only ? above.reply : null;
    const joins =
      open !== null &&
      !isFull(open.reply) &&
      (node.kind !== 'message' || (node.role === 'assistant' && usedTools(open.reply)));
    const time = isoFrom(ownField(node.record, 'create_time'), 'seconds');
    const metadata = ownField(node.record, 'metadata');
    const model = isRecord(metadata) ? str(ownField(metadata, 'model_slug')) : undefined;
    let place: Place;
    if (joins && addTo(open, node)) {
      if (model && !open.message.model) open.message.model = model;
      place = { messageId: open.message.id, reply: open };
    } else if (node.kind === 'output') place = { messageId: above.messageId, reply: open };
    else {
      let message: ImportedMessage;
      if (node.kind === 'message' && node.role === 'user') {
        message = { id, parentId: above.messageId, role: 'user', text: node.text };
        if (node.images.length > 0) message.images = node.images;
        place = { messageId: id, reply: null };
      } else {
        const started = startReply(id, above.messageId, node);
        ({ message } = started);
        if (model) message.model = model;
        replies.push(started);
        place = { messageId: id, reply: started };
      }
      if (time) message.createdAt = time;
      messages.push(message);
    }
    places.set(id, place);
    for (const child of children.get(id) ?? []) queue.push(child);
  }
  for (const { message, reply } of replies) {
    if (!usedTools(reply)) {
      if (message.images?.length === 0) delete message.images;
      continue;
    }
    message.parts = reply.parts;
    message.text = replyText(reply);
    const images = [...(message.images ?? []), ...resultImages(reply.parts)];
    if (images.length > 0) message.images = images;
    else delete message.images;
  }
  return { messages, places };
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
  const kept = new Map<string, Kept>();
  for (const [id, node] of nodes) {
    const message = keptMessage(node);
    if (message) kept.set(id, message);
  }
  const nearest = nearestKeptNodes(nodes, new Set(kept.keys()));
  // A loop or an absurd depth: this conversation is counted as unreadable, the others still read.
  if (!nearest) return null;
  const nearestKept = (id: string | undefined) => (id === undefined ? null : (nearest.get(id) ?? null));
  const { messages, places } = readMessages(kept, (id) =>
    nearestKept(str(ownField(nodes.get(id) as JsonRecord, 'parent'))),
  );
  const chat: ImportedChat = {
    id: `chatgpt-${sourceId}`,
    name: str(ownField(entry, 'title')) ?? '',
    createdAt,
    updatedAt,
    provider: 'openai',
    messages,
  };
  const leaf = nearestKept(str(ownField(entry, 'current_node')));
  const shown = leaf === null ? null : (places.get(leaf)?.messageId ?? null);
  if (shown) chat.activeLeafId = shown;
  const gizmo = ownField(entry, 'gizmo_id');
  const project =
    typeof gizmo === 'string' && gizmo.startsWith(projectGizmo)
      ? importedProjectId(projectPrefix, gizmo)
      : null;
  if (project) chat.project = project;
  return chat;
}

/** A project's gizmo id starts so; our id for it is the gizmo id after `projectPrefix`. */
const projectGizmo = 'g-p-';
const projectPrefix = 'chatgpt-project-';

export function readChatGptExport(entries: unknown[]): OtherAppExport {
  const result = readEntries('ChatGPT export', entries, readConversation);
  const projects = new Map<string, ImportedProject>();
  for (const chat of result.chats)
    if (chat.project !== undefined && !projects.has(chat.project)) {
      const gizmo = chat.project.slice(projectPrefix.length);
      const short = gizmo.slice(projectGizmo.length, projectGizmo.length + 8);
      projects.set(chat.project, { id: chat.project, name: `ChatGPT project ${short}` });
    }
  return withProjects(result, [...projects.values()]);
}
