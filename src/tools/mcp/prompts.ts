import type { Client, GetPromptResult, Prompt, RequestOptions } from '@modelcontextprotocol/client';
import type { McpPrompt, McpPromptArgument, McpPromptText } from './types.ts';

/**
 * An MCP server's prompts (prompts/list, prompts/get) as the `/` menu takes them. A server is
 * hostile input: it can send any number of prompts, names of any length, any content. So each
 * list is walked a bounded number of pages, each prompt bounded and checked, and what prompts/get
 * gives becomes plain text, bounded, with a sentence for what was left out.
 */

export const promptLimits = {
  /** Prompts kept of one server: the rest are left out. */
  prompts: 200,
  /** prompts/list pages asked for at most (a server whose cursors never end stops here). */
  pages: 20,
  /** A longer name (what prompts/get is sent, so never cut) leaves its prompt out. */
  name: 200,
  title: 200,
  description: 1000,
  /** A prompt with more arguments, or an argument name longer than this, is left out. */
  arguments: 50,
  argumentName: 100,
  argumentDescription: 300,
  /** The text a prompt inserts, all its messages together. */
  text: 100_000,
} as const;

/**
 * Control characters, line and paragraph separators, and the marks that reorder text (a name
 * shown beside the server's could otherwise be made to read as another server's).
 */
// eslint-disable-next-line no-control-regex
const unsafeInLine = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/** A name that shows as it is: none of the characters above (a name is sent back as given, never cleaned). */
const shownAsIs = (name: string) => name.search(unsafeInLine) === -1;

/** One line for a list: unsafe characters and runs of spaces as one space, trimmed, cut at `limit`. */
export function oneLine(text: string, limit: number): string {
  // Only the start can show: a hostile length is not read past a few times the limit.
  const line = text
    .slice(0, limit * 4)
    .replace(unsafeInLine, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return line.length > limit ? `${cutAt(line, limit - 1).trimEnd()}…` : line;
}

/** An optional one-line text: absent when it is not a string or nothing of it is left. */
function optionalLine(value: unknown, limit: number): string | undefined {
  if (typeof value !== 'string') return undefined;
  return oneLine(value, limit) || undefined;
}

function readArguments(value: unknown): McpPromptArgument[] | null {
  if (value === undefined) return [];
  if (!Array.isArray(value) || value.length > promptLimits.arguments) return null;
  const seen = new Set<string>();
  const read: McpPromptArgument[] = [];
  for (const item of value as unknown[]) {
    if (typeof item !== 'object' || item === null) return null;
    const { name, description, required } = item as Record<string, unknown>;
    // The name is sent back as the key of its value, and labels its field: one that cannot be
    // shown or sent as given leaves the whole prompt out rather than go without an argument it
    // may need.
    if (
      typeof name !== 'string' ||
      name.trim() === '' ||
      name.length > promptLimits.argumentName ||
      !shownAsIs(name)
    )
      return null;
    if (seen.has(name)) continue;
    seen.add(name);
    const about = optionalLine(description, promptLimits.argumentDescription);
    read.push({ name, ...(about && { description: about }), required: required === true });
  }
  return read;
}

/**
 * A server's prompts as the menu lists them: at most `promptLimits.prompts`, each name once (the
 * first), texts on one line and bounded; a prompt that cannot be read whole is left out.
 */
export function readPrompts(prompts: readonly unknown[]): McpPrompt[] {
  const read: McpPrompt[] = [];
  const names = new Set<string>();
  for (const prompt of prompts) {
    if (read.length >= promptLimits.prompts) break;
    if (typeof prompt !== 'object' || prompt === null) continue;
    const { name, title, description } = prompt as Record<string, unknown>;
    if (typeof name !== 'string' || name.trim() === '' || name.length > promptLimits.name) continue;
    // Shown when there is no title, and its arguments' names always: they must read as they are.
    if (!shownAsIs(name)) continue;
    if (names.has(name)) continue;
    const args = readArguments((prompt as Record<string, unknown>).arguments);
    if (!args) continue;
    names.add(name);
    const shownTitle = optionalLine(title, promptLimits.title);
    const about = optionalLine(description, promptLimits.description);
    read.push({
      name,
      ...(shownTitle && { title: shownTitle }),
      ...(about && { description: about }),
      arguments: args,
    });
  }
  return read;
}

/**
 * Every prompt of a server that declares the `prompts` capability, none of one that does not.
 * The pages are walked here, not by the SDK's `listPrompts()` without a cursor: that one walks up
 * to 64 pages of any length and keeps nothing when a server's cursors do not end, where this stops
 * once enough prompts are read, or after `promptLimits.pages` pages, and keeps what it has.
 */
export async function listPrompts(client: Client, options: RequestOptions): Promise<McpPrompt[]> {
  if (!client.getServerCapabilities()?.prompts) return [];
  const listed: Prompt[] = [];
  const cursors = new Set<string>();
  // The first page as `listPrompts` asks for it, without its walk; the next ones through it.
  let page = await client.request({ method: 'prompts/list' }, options);
  for (let pages = 1; ; pages++) {
    listed.push(...page.prompts.slice(0, promptLimits.prompts * 2));
    const cursor = page.nextCursor;
    if (cursor === undefined || cursors.has(cursor) || pages >= promptLimits.pages) break;
    if (readPrompts(listed).length >= promptLimits.prompts) break;
    cursors.add(cursor);
    page = await client.listPrompts({ cursor }, options);
  }
  return readPrompts(listed);
}

/** '1 picture', '2 pictures'. */
function counted(count: number, one: string, many: string): string {
  return `${count} ${count === 1 ? one : many}`;
}

/** 'a, b and c'. */
function listed(parts: readonly string[]): string {
  return parts.length <= 1 ? (parts[0] ?? '') : `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}`;
}

/** The first `length` characters, without half of a pair (a character outside the BMP) at the end. */
function cutAt(text: string, length: number): string {
  const code = text.charCodeAt(length - 1);
  return text.slice(0, code >= 0xd800 && code <= 0xdbff ? length - 1 : length);
}

/** Text as typed text: control characters but tabs and newlines taken out, newlines as `\n`. */
function plainText(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/\r\n?/g, '\n').replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, '');
}

/**
 * What prompts/get gave, as text for the message box: the text of its messages (whichever role
 * says it) joined by blank lines, plain and cut at `promptLimits.text` characters. Pictures,
 * sounds and resources are left out, and a sentence says so.
 */
export function promptText(result: GetPromptResult): McpPromptText {
  const limit = promptLimits.text;
  let joined = '';
  let cut = false;
  const left = { image: 0, audio: 0, resource: 0, other: 0 };
  const messages: readonly unknown[] = Array.isArray(result.messages) ? result.messages : [];
  for (const message of messages) {
    const content =
      typeof message === 'object' && message !== null
        ? (message as { content?: unknown }).content
        : undefined;
    const type =
      typeof content === 'object' && content !== null ? (content as { type?: unknown }).type : undefined;
    const text = type === 'text' ? (content as { text?: unknown }).text : undefined;
    if (typeof text === 'string') {
      if (cut) continue;
      // Cleaning only shortens a text: twice the limit is more than can go in.
      cut = text.length > limit * 2;
      const plain = plainText(cut ? text.slice(0, limit * 2) : text);
      if (plain.trim() === '') continue;
      const piece = joined === '' ? plain : `\n\n${plain}`;
      if (joined.length + piece.length > limit) {
        joined += cutAt(piece, limit - joined.length);
        cut = true;
      } else joined += piece;
    } else if (type === 'image') left.image++;
    else if (type === 'audio') left.audio++;
    else if (type === 'resource' || type === 'resource_link') left.resource++;
    else left.other++;
  }
  const parts = [
    left.image > 0 && counted(left.image, 'picture', 'pictures'),
    left.audio > 0 && counted(left.audio, 'sound', 'sounds'),
    left.resource > 0 && counted(left.resource, 'resource', 'resources'),
    left.other > 0 && counted(left.other, 'part of an unknown kind', 'parts of an unknown kind'),
  ].filter((part): part is string => typeof part === 'string');
  const characters = `${limit.toLocaleString('en-US')} characters`;
  const note =
    parts.length > 0
      ? `Only the prompt’s text is inserted: ${listed(parts)} left out${cut ? `, and the text cut at ${characters}` : ''}.`
      : cut
        ? `The prompt’s text was cut at ${characters}.`
        : undefined;
  return { text: joined, ...(note && { note }) };
}
