import { sentSystemPrompt } from '../domain/artifact-instruction.ts';
import type { AttachmentPart } from '../domain/attachments.ts';
import type { Config } from '../domain/config.ts';
import {
  attachmentParts,
  messageText,
  type Conversation,
  type Message,
  type ReasoningPart,
} from '../domain/conversation.ts';
import { codeRunText } from '../domain/code-runs.ts';
import { pathTo } from '../domain/message-tree.ts';
import { modelOf } from '../domain/provider-catalog.ts';
import type { Project } from '../domain/projects.ts';
import type { ModelCapabilities } from '../domain/provider-definitions/capabilities.ts';
import type { ToolCallPart, ToolResultPart } from '../domain/tools.ts';
import { base64Of } from '../lib/base64.ts';
import type { ChatFile, ChatMessage, ChatToolResult, DrawnImage } from '../providers/types.ts';
import { filesForModel } from './attachment-files.ts';

/** How files are read and what the model takes of them. */
export interface HistoryFiles {
  capabilities: Pick<ModelCapabilities, 'images' | 'pdfs'>;
  read(id: string): Promise<Blob | undefined>;
}

/**
 * What is sent: the path up to `lastId`, as role and content; an empty system prompt sends none
 * (with 'Artifacts' on, the system prompt ends with its instruction: artifact-instruction.ts).
 * A user's files go as the model takes them (see attachment-files.ts), read from storage. A reply's
 * reasoning goes along only to the provider and model that wrote it: signatures belong to one
 * vendor and model (docs/decisions.md#reasoning, docs/providers.md#sending-reasoning-back). A reply
 * that used tools becomes its turns (see replyTurns).
 */
export async function historyFor(
  conversation: Conversation,
  lastId: string,
  config: Config,
  files: HistoryFiles,
  project?: Pick<Project, 'instructions' | 'files'>,
): Promise<ChatMessage[]> {
  const text = (message: Message) =>
    message.role === 'system' ? sentSystemPrompt(conversation, messageText(message)) : messageText(message);
  const path = pathTo(conversation, lastId).filter(
    (message) => !(message.role === 'system' && text(message) === ''),
  );
  const turns = await Promise.all(
    path.map(async (message): Promise<ChatMessage[]> => {
      if (message.role === 'assistant') return replyTurns(message, config, files);
      const sent: ChatMessage = { role: message.role, content: text(message) };
      const attachments = attachmentParts(message);
      if (attachments.length > 0) {
        const { files: sentFiles, texts } = await filesForModel(attachments, files.capabilities, files.read);
        sent.content = [...texts, sent.content].filter((text) => text !== '').join('\n\n');
        if (sentFiles.length > 0) sent.files = sentFiles;
      }
      return [sent];
    }),
  );
  if (!project) return turns.flat();
  // Loaded with the first request of a project's conversation.
  const { withProject } = await import('./project-history.ts');
  return withProject(turns.flat(), project, files);
}

/**
 * A reply as the API takes it back. Written by this provider: an assistant turn for each stretch
 * of thinking, text and calls, each followed by a 'tool' turn with one result per call (a call
 * left without one, in an imported or damaged reply, is answered 'no result was recorded', which
 * every API accepts; a result without its call is dropped). Written by another provider: one
 * assistant turn of plain text, the calls and results written out, never another provider's data.
 */
export async function replyTurns(
  message: Message,
  config: Config,
  files: HistoryFiles,
): Promise<ChatMessage[]> {
  const sameProvider = message.provider === config.provider;
  const sameModel = sameProvider && message.model === modelOf(config);
  if (!sameProvider) return [{ role: 'assistant', content: plainReply(message) }];

  const results = new Map<string, ToolResultPart>();
  for (const part of message.parts) if (part.type === 'tool-result') results.set(part.callId, part);

  const turns: ChatMessage[] = [];
  type Turn = {
    text: string[];
    reasoning: ReasoningPart[];
    calls: ToolCallPart[];
    pictures: AttachmentPart[];
  };
  let turn: Turn = { text: [], reasoning: [], calls: [], pictures: [] };
  const flush = async () => {
    const sent: ChatMessage = { role: 'assistant', content: turn.text.join('') };
    if (sameModel && turn.reasoning.length > 0) sent.reasoning = turn.reasoning;
    const drawn = await drawnImages(turn.pictures, files);
    if (drawn.length > 0) sent.drawnImages = drawn;
    if (turn.calls.length > 0) {
      sent.toolCalls = turn.calls.map((call) => ({
        id: call.callId,
        name: call.name,
        arguments: call.arguments,
        ...(call.providerData && { providerData: call.providerData }),
      }));
    }
    if (sent.content !== '' || sent.reasoning || sent.toolCalls || sent.drawnImages) turns.push(sent);
    if (turn.calls.length > 0) {
      const answered = await Promise.all(
        turn.calls.map((call) => resultFor(call, results.get(call.callId), files)),
      );
      turns.push({ role: 'tool', content: '', toolResults: answered });
    }
    turn = { text: [], reasoning: [], calls: [], pictures: [] };
  };
  let apart = false;
  for (const part of message.parts) {
    // Thinking or text after calls starts the next step of the reply.
    if ((part.type === 'reasoning' || part.type === 'text') && turn.calls.length > 0) await flush();
    if (part.type === 'reasoning') turn.reasoning.push(part);
    else if (part.type === 'text') {
      // Text after a code run or a picture is a paragraph of its own, as messageText joins it.
      if (apart && part.text !== '' && turn.text.some((text) => text !== '')) turn.text.push('\n\n');
      turn.text.push(part.text);
    } else if (part.type === 'tool-call') turn.calls.push(part);
    else if (part.type === 'attachment') turn.pictures.push(part);
    if (part.type === 'code-run' || part.type === 'attachment') apart = true;
    else if (part.type === 'text' && part.text !== '') apart = false;
  }
  await flush();
  return turns.length > 0 ? turns : [{ role: 'assistant', content: '' }];
}

/**
 * The pictures a reply drew, read from storage, for its provider to edit them (its client takes
 * those it drew, by their provider data); one no longer stored is left out.
 */
async function drawnImages(pictures: readonly AttachmentPart[], files: HistoryFiles): Promise<DrawnImage[]> {
  const read = await Promise.all(
    pictures.map(async (picture): Promise<DrawnImage[]> => {
      const blob = await files.read(picture.id);
      if (!blob) return [];
      return [
        {
          kind: 'image',
          name: picture.name,
          mimeType: picture.mimeType,
          data: await base64Of(blob),
          ...(picture.providerData && { providerData: picture.providerData }),
        },
      ];
    }),
  );
  return read.flat();
}

async function resultFor(
  call: ToolCallPart,
  result: ToolResultPart | undefined,
  files: HistoryFiles,
): Promise<ChatToolResult> {
  if (!result)
    return { callId: call.callId, name: call.name, content: 'No result was recorded.', isError: true };
  const texts: string[] = [];
  const images: ChatFile[] = [];
  for (const piece of result.content) {
    if (piece.type === 'text') {
      texts.push(piece.text);
      continue;
    }
    const blob = files.capabilities.images ? await files.read(piece.attachmentId) : undefined;
    if (blob)
      images.push({
        kind: 'image',
        name: 'tool image',
        mimeType: piece.mimeType,
        data: await base64Of(blob),
      });
    else
      texts.push(
        files.capabilities.images ? '[an image no longer stored]' : '[an image this model cannot see]',
      );
  }
  return {
    callId: call.callId,
    name: call.name,
    content: texts.join('\n'),
    ...(images.length > 0 && { images }),
    ...(result.isError && { isError: true }),
  };
}

/** A reply written out as text, its tool calls and results included: what another provider reads. */
export function plainReply(message: Pick<Message, 'parts'>): string {
  const results = new Map<string, ToolResultPart>();
  for (const part of message.parts) if (part.type === 'tool-result') results.set(part.callId, part);
  const pieces: string[] = [];
  for (const part of message.parts) {
    if (part.type === 'text' && part.text !== '') pieces.push(part.text);
    if (part.type === 'code-run') pieces.push(codeRunText(part));
    if (part.type === 'attachment') pieces.push(`[Drew an image: ${part.name}]`);
    if (part.type !== 'tool-call') continue;
    const result = results.get(part.callId);
    const output = result
      ? result.content.map((piece) => (piece.type === 'text' ? piece.text : '[image]')).join('\n')
      : 'no result was recorded';
    pieces.push(
      `[Called the tool ${part.name} with ${part.arguments || '{}'}; ${result?.isError ? 'it failed' : 'it returned'}: ${output}]`,
    );
  }
  return pieces.join('\n\n');
}
