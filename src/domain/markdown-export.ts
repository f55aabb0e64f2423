import { formatBytes } from './attachments.ts';
import type { CodeRunPart } from './code-runs.ts';
import { fenced, longestTicks } from './markdown-fences.ts';
import { withCitationMarkers } from './citation-markers.ts';
import {
  attachmentParts,
  defaultSystemPrompt,
  messageText,
  toolCallParts,
  toolResultParts,
  type Conversation,
  type Message,
} from './conversation.ts';
import type { ToolCallPart, ToolResultPart } from './tools.ts';
import { activePath } from './message-tree.ts';

/**
 * 'Download as Markdown': one conversation's shown path as a Markdown document. Message texts go
 * in as they are (they are Markdown already, code fences included); a reply's thinking goes in a
 * collapsible <details> block where it came; files are named, not embedded; a tool the reply used
 * is a line naming it, with its arguments and its result in code blocks no text can close.
 */

/** Text that closes the <details> block would end it early: written as an entity instead. */
const inDetails = (text: string) => text.replace(/<\/details>/gi, '&lt;/details>');

/** A name as inline code on one line: its delimiters are longer than any run of backticks in it. */
function inlineCode(text: string): string {
  const name = text.replace(/\s+/g, ' ').trim();
  const ticks = '`'.repeat(longestTicks(name) + 1);
  return /^`|`$/.test(name) ? `${ticks} ${name} ${ticks}` : `${ticks}${name}${ticks}`;
}

/** A call's arguments: indented when they are JSON, as written when they are not. */
function argumentsBlock(text: string): string {
  try {
    return fenced(JSON.stringify(JSON.parse(text), null, 2), 'json');
  } catch {
    return fenced(text);
  }
}

function resultMarkdown(result: ToolResultPart): string {
  const label = result.isError ? 'Failed:' : 'Result:';
  if (result.content.length === 0) return `${label} _(nothing)_`;
  const pieces = result.content.map((item) =>
    item.type === 'text' ? fenced(item.text) : `- Image (${item.mimeType})`,
  );
  return [label, ...pieces].join('\n\n');
}

/** A call, and its result when the reply holds one. */
function toolMarkdown(call: ToolCallPart, result: ToolResultPart | undefined): string {
  const blocks = [`Used ${inlineCode(call.name)}`, argumentsBlock(call.arguments)];
  blocks.push(result ? resultMarkdown(result) : '_(No result.)_');
  return blocks.join('\n\n');
}

function heading(message: Message): string {
  if (message.role === 'user') return '## User';
  return message.model ? `## Assistant (${message.model})` : '## Assistant';
}

/**
 * A reply's text with its citations as footnote references, where the offsets are the text's own
 * (a reply whose answer is this one text part).
 */
function citedText(message: Message, text: string): string {
  if (!marksInline(message) || messageText(message) !== text) return text;
  return withCitationMarkers(text, message.web, (number) => `[^${footnote(message, number)}]`);
}

/** Whether a reply's citations are written into its text: its answer is one text part. */
function marksInline(message: Message): boolean {
  const answers = message.parts.filter((part) => part.type === 'text' && part.text !== '');
  return (message.web?.citations.length ?? 0) > 0 && answers.length === 1;
}

/** A message's parts in their order: thinking, text, and the tools used, each with its result. */
function partsMarkdown(message: Message): string[] {
  const blocks: string[] = [];
  const results = new Map(toolResultParts(message).map((part) => [part.callId, part]));
  const calls = new Set(toolCallParts(message).map((part) => part.callId));
  let thinking: string[] = [];
  const endThinking = () => {
    const text = thinking.join('\n\n');
    if (text) blocks.push(`<details>\n<summary>Thinking</summary>\n\n${inDetails(text)}\n\n</details>`);
    thinking = [];
  };
  for (const part of message.parts) {
    if (part.type === 'reasoning') {
      const text = part.text.trim();
      if (text) thinking.push(text);
      continue;
    }
    endThinking();
    if (part.type === 'text' && part.text.trim()) blocks.push(citedText(message, part.text).trim());
    if (part.type === 'tool-call') blocks.push(toolMarkdown(part, results.get(part.callId)));
    // A result is written with its call; one without a call in this reply, on its own.
    if (part.type === 'tool-result' && !calls.has(part.callId))
      blocks.push(`Result of ${inlineCode(part.name)}\n\n${resultMarkdown(part)}`);
    if (part.type === 'code-run') blocks.push(codeRunMarkdown(part));
    if (part.type === 'attachment' && message.role === 'assistant')
      blocks.push(`_Image: ${part.name} (${part.mimeType}, ${formatBytes(part.size)})_`);
  }
  endThinking();
  return blocks;
}

/** A footnote label of a reply's source N, unique in the document. */
const footnote = (message: Message, number: number) => `${message.id.replace(/[^\w-]/g, '')}-${number}`;

/** What a reply found on the web: its searches, and its sources as the footnotes its markers point to. */
function webMarkdown(message: Message): string[] {
  const web = message.web;
  if (!web) return [];
  const blocks: string[] = [];
  const searched = web.searches.filter((search) => search.query).map((search) => inlineCode(search.query));
  if (searched.length > 0) blocks.push(`_Searched the web: ${searched.join(', ')}_`);
  // Footnotes where the answer's markers point to them; else a plain list (a footnote nothing
  // points to is not shown by Markdown readers).
  const footnotes = marksInline(message);
  if (web.sources.length > 0)
    blocks.push(
      web.sources
        .map((source, index) => {
          const link = `[${(source.title || source.url).replace(/[[\]\n]/g, ' ')}](<${source.url.replace(/[<>\s]/g, encodeURIComponent)}>)`;
          return footnotes ? `[^${footnote(message, index + 1)}]: ${link}` : `${index + 1}. ${link}`;
        })
        .join('\n'),
    );
  return blocks;
}

/** A code run: its code, what it printed and the files it made. */
function codeRunMarkdown(run: CodeRunPart): string {
  const blocks = [
    `**Ran ${run.language} code${run.failed ? ` (failed: ${run.failed})` : ''}**`,
    fenced(run.code, run.language),
  ];
  if (run.output !== '') blocks.push('Output', fenced(run.output, 'text'));
  if (run.stderr) blocks.push('Errors', fenced(run.stderr, 'text'));
  for (const file of run.files)
    blocks.push(`_File: ${file.name} (${file.mimeType}, ${formatBytes(file.size)})_`);
  return blocks.join('\n\n');
}

function messageMarkdown(message: Message): string {
  const blocks = [heading(message)];
  // A reply's pictures are written where they came, among its parts.
  const files = message.role === 'assistant' ? [] : attachmentParts(message);
  if (files.length > 0)
    blocks.push(
      files
        .map((file) => `- Attached: ${file.name} (${file.mimeType}, ${formatBytes(file.size)})`)
        .join('\n'),
    );
  blocks.push(...partsMarkdown(message), ...webMarkdown(message));
  if (message.status === 'stopped') blocks.push('_(Stopped before the end.)_');
  if (message.status === 'interrupted')
    blocks.push(`_(Interrupted: ${message.error ?? 'the reply did not finish'}.)_`);
  return blocks.join('\n\n');
}

export function conversationMarkdown(conversation: Conversation): string {
  const path = activePath(conversation);
  const system = path.find((message) => message.role === 'system');
  const prompt = system ? messageText(system).trim() : '';
  const blocks = [`# ${conversation.name.replace(/\s+/g, ' ').trim() || 'Conversation'}`];
  if (prompt && prompt !== defaultSystemPrompt)
    blocks.push(
      `**System prompt**\n\n${prompt
        .split('\n')
        .map((line) => `> ${line}`)
        .join('\n')}`,
    );
  for (const message of path) if (message.role !== 'system') blocks.push(messageMarkdown(message));
  return `${blocks.join('\n\n')}\n`;
}

/** '2026-11-25 Trip to Lisbon.md': the date and the name, without characters file systems refuse. */
export function markdownFileName(conversation: Conversation, now: Date): string {
  const name = conversation.name
    .replace(/[\\/:*?"<>|]+/g, '-')
    .replace(/\p{Cc}+/gu, '')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 80);
  return `${now.toISOString().slice(0, 10)} ${name || 'Conversation'}.md`;
}
