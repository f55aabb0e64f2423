import { boundedText } from '../../lib/bounded-text.ts';
import { toolPartLimits } from '../conversation-validation.ts';

/** A piece of what a tool returned: text, or an image by the id the export names it with. */
export type ImportedResultPiece = { type: 'text'; text: string } | { type: 'image'; image: string };

/** A part of a reply that used tools, as an export holds it (see ToolCallPart, ToolResultPart). */
export type ImportedPart =
  | { type: 'text'; text: string }
  | { type: 'reasoning'; text: string }
  | { type: 'tool-call'; callId: string; name: string; arguments: string }
  | {
      type: 'tool-result';
      callId: string;
      name: string;
      content: ImportedResultPiece[];
      isError?: true;
    };

/**
 * A reply that used tools, put together from another app's export part by part: its texts and
 * thinking, the calls it made and each call's result after it. Every reader fills one the same
 * way, so the bounds our conversations keep (conversation-validation.ts, toolPartLimits) are kept
 * here once: a name or id of at most `nameLength` characters, arguments and a result's text cut
 * to theirs, at most `resultPieces` pieces in a result and fewer than `parts` parts in a reply.
 * Imported calls name no server (where the tool ran is unknown) and carry no provider data.
 */

interface CallEntry {
  call: Extract<ImportedPart, { type: 'tool-call' }>;
  result?: Extract<ImportedPart, { type: 'tool-result' }>;
}

export interface ImportedReply {
  parts: ImportedPart[];
  /** Every call, in the order made. */
  calls: CallEntry[];
  /** Ids in use, the export's or ours. */
  callIds: Set<string>;
}

export function newReply(): ImportedReply {
  return { parts: [], calls: [], callIds: new Set() };
}

/** What an image reads as when its file did not come with the export. */
export const missingImageText = '[image]';

/**
 * At most this many parts: one short of what a stored reply keeps, so that the note of an image
 * whose file did not come with the export (imported-chat.ts) still fits.
 */
const maxParts = toolPartLimits.parts - 1;

/** Whether the reply holds as many parts as it may: more are left out (or go to another message). */
export const isFull = (reply: ImportedReply) => reply.parts.length >= maxParts;

/** Whether it made a call. */
export const usedTools = (reply: ImportedReply) => reply.calls.length > 0;

/**
 * A tool's name as the export wrote it (`python`, `web.run`, `dalle.text2im`, a plugin's
 * `namespace.operation`), cut to what a stored call keeps; 'tool' when the export gives none. It
 * is never sent as a tool's name to an API: an imported reply goes to a model as text
 * (src/state/chat-history.ts, `plainReply`), so the stricter rule of the APIs' tool definitions
 * (`a-zA-Z0-9_-`, 64 characters) is not needed.
 */
function toolName(name: unknown): string {
  return typeof name === 'string' && name !== ''
    ? boundedText(name, toolPartLimits.nameLength).shown
    : 'tool';
}

/** Text after the last part: joined to a text before it (a blank line apart), as one text part. */
export function addText(reply: ImportedReply, text: string): void {
  if (text === '') return;
  const last = reply.parts.at(-1);
  if (last?.type === 'text') last.text = `${last.text}\n\n${text}`;
  else if (!isFull(reply)) reply.parts.push({ type: 'text', text });
}

export function addReasoning(reply: ImportedReply, text: string): void {
  if (text !== '' && !isFull(reply)) reply.parts.push({ type: 'reasoning', text });
}

/**
 * A call, after the parts so far. `id`: the export's own id for it, kept when it is one a stored
 * call can have and no earlier call of the reply has; otherwise one is made up (`call-1`, …).
 * The id used, or null when the reply is full.
 */
export function addCall(reply: ImportedReply, id: unknown, name: unknown, args: string): string | null {
  if (isFull(reply)) return null;
  let callId =
    typeof id === 'string' && id !== '' && id.length <= toolPartLimits.nameLength && !reply.callIds.has(id)
      ? id
      : '';
  for (let count = reply.calls.length + 1; callId === ''; count++)
    if (!reply.callIds.has(`call-${count}`)) callId = `call-${count}`;
  const call = {
    type: 'tool-call' as const,
    callId,
    name: toolName(name),
    arguments: boundedText(args, toolPartLimits.argumentsLength).shown,
  };
  reply.callIds.add(callId);
  reply.calls.push({ call });
  reply.parts.push(call);
  return callId;
}

/** Names of one tool: the same, or one the other's namespace (`web` and `web.run`, `file_search.msearch`). */
function related(a: string, b: string): boolean {
  return a === b || a.startsWith(`${b}.`) || b.startsWith(`${a}.`);
}

interface ResultFor {
  /** The call it answers, when the export says (Claude's `tool_use_id`). */
  callId?: string;
  /** The tool that answered, when the export says; matched against the calls' names. */
  name?: string;
  /**
   * When no call is left unanswered, add to the result of the latest call of that tool: ChatGPT
   * writes some results in several tool messages (the browser's quotes, DALL·E's image and its note).
   */
  more?: boolean;
}

function answered(reply: ImportedReply, { callId, name: written, more }: ResultFor): CallEntry | undefined {
  // Cut as the calls' names are.
  const name = written === undefined ? undefined : toolName(written);
  if (callId !== undefined) {
    const entry = reply.calls.find((candidate) => candidate.call.callId === callId);
    return entry && (!entry.result || more) ? entry : undefined;
  }
  const open = reply.calls.filter((entry) => !entry.result);
  const match = (entries: CallEntry[]) =>
    name === undefined
      ? entries[0]
      : (entries.find((entry) => entry.call.name === name) ??
        entries.find((entry) => related(entry.call.name, name)));
  const found = match(open);
  if (found || !more) return found;
  return match(reply.calls.filter((entry) => entry.result).reverse());
}

/**
 * What a tool returned, after its call: the earliest unanswered call it names (by id; else by
 * tool, else the earliest unanswered one). Its texts are cut to what a stored result keeps (an
 * image counted as its note, which it may become), and pieces past `resultPieces` are left out. False when it answers no call of the reply: the call
 * is not in the export (or was left out), and a result is never kept without its call.
 */
export function addResult(
  reply: ImportedReply,
  pieces: readonly ImportedResultPiece[],
  isError: boolean,
  which: ResultFor = {},
): boolean {
  const entry = answered(reply, which);
  if (!entry) return false;
  let result = entry.result;
  if (!result) {
    if (isFull(reply)) return false;
    result = { type: 'tool-result', callId: entry.call.callId, name: entry.call.name, content: [] };
    entry.result = result;
    reply.parts.push(result);
  }
  // An image counts as the note it becomes when its file is not here (imported-chat.ts).
  const length = (piece: ImportedResultPiece) =>
    piece.type === 'text' ? piece.text.length : missingImageText.length;
  let room: number = toolPartLimits.resultLength;
  for (const piece of result.content) room -= length(piece);
  for (const piece of pieces) {
    if (result.content.length >= toolPartLimits.resultPieces) break;
    if (piece.type === 'image') {
      if (room < length(piece)) continue;
      room -= length(piece);
      result.content.push(piece);
    } else if (piece.text !== '' && room > 0) {
      const text = boundedText(piece.text, room).shown;
      room -= text.length;
      result.content.push({ type: 'text', text });
    }
  }
  if (isError) result.isError = true;
  return true;
}

/** The reply's texts, joined as its answer (what `ImportedMessage.text` holds). */
export function replyText(reply: ImportedReply): string {
  return reply.parts
    .flatMap((part) => (part.type === 'text' ? [part.text] : []))
    .join('\n\n')
    .trim();
}

/** The images its tools returned, by the id the export names each with. */
export function resultImages(parts: readonly ImportedPart[]): string[] {
  return parts.flatMap((part) =>
    part.type === 'tool-result'
      ? part.content.flatMap((piece) => (piece.type === 'image' ? [piece.image] : []))
      : [],
  );
}
