import type { Conversation, ModelPin } from './conversation.ts';
import { setModelPin, setSystemPrompt } from './conversation-rules.ts';
import { byName, oneLineName } from './named-items.ts';
import { readPin } from './conversation-validation.ts';
import { isIsoTimestamp, isRecord, ownField } from './json-guards.ts';

/**
 * A saved prompt: text the user reuses, inserted into the message box from the `/` menu or the
 * palette (docs/prompts.md). `{{name}}` in its body is a variable, asked for when it is inserted.
 */
export interface Prompt {
  id: string;
  /** One trimmed line. */
  title: string;
  body: string;
  createdAt: string;
  /** Of two copies (two tabs, an import), the later change wins whole. */
  updatedAt: string;
  /**
   * Set on a persona (docs/prompts.md#personas): the title is its name and the body a system
   * prompt, chosen for a conversation rather than inserted into a message.
   */
  persona?: true;
  /** A persona's model: a conversation it starts, or is chosen for, is pinned to it. */
  model?: ModelPin;
}

/** Bounds on what is kept and read back (storage and imported files are hostile input). */
export const promptLimits = {
  prompts: 1_000,
  titleLength: 200,
  bodyLength: 100_000,
  /** Distinct variables of one prompt. */
  variables: 50,
  /** A longer `{{…}}` is text, not a variable. */
  nameLength: 100,
  idLength: 100,
} as const;

/** What the editor changes; each change stamps `updatedAt`. */
export type PromptChange = Partial<Pick<Prompt, 'title' | 'body' | 'model'>>;

/** A prompt as made or changed, or why it cannot be (a sentence for the user). */
export type PromptResult = { ok: true; prompt: Prompt } | { ok: false; problem: string };

const isNameCharacter = (character: string) => /^[\p{L}\p{N}_-]$/u.test(character);
const isSpace = (character: string) => character !== '' && character.trim() === '';

/** A `{{name}}` found in a text: its name and where it starts and ends (after the closing braces). */
interface Placeholder {
  name: string;
  start: number;
  end: number;
}

/**
 * Each `{{name}}` of a text, in order, in one pass: no character is read more than twice, so a
 * hostile body costs linear time. Spaces around the name are allowed (`{{ name }}`); anything
 * else between the braces (another brace, a dot, a name too long) leaves them plain text.
 */
function* placeholders(text: string): Generator<Placeholder> {
  let from = 0;
  for (;;) {
    const start = text.indexOf('{{', from);
    if (start < 0) return;
    let at = start + 2;
    while (isSpace(text.charAt(at))) at += 1;
    const nameStart = at;
    while (at - nameStart <= promptLimits.nameLength && isNameCharacter(text.charAt(at))) at += 1;
    const name = text.slice(nameStart, at);
    while (isSpace(text.charAt(at))) at += 1;
    if (name !== '' && name.length <= promptLimits.nameLength && text.startsWith('}}', at)) {
      yield { name, start, end: at + 2 };
      from = at + 2;
    } else {
      // Not a variable. The next one starts after this '{{' (`{{{name}}}`), and not among the
      // spaces and name characters just read: they hold no brace.
      from = Math.max(start + 1, at - 1);
    }
  }
}

/** The distinct variables of a body, in the order they first appear (at most `promptLimits.variables`). */
export function promptVariables(body: string): string[] {
  return distinctNames(body, promptLimits.variables);
}

function distinctNames(body: string, limit: number): string[] {
  const names = new Set<string>();
  for (const { name } of placeholders(body)) {
    names.add(name);
    if (names.size >= limit) break;
  }
  return [...names];
}

/**
 * The body with every `{{name}}` that has a value replaced by it. A value is inserted as it is
 * (a `{{x}}` in it stays text); a variable without a value is left as written.
 */
export function fillPrompt(body: string, values: Readonly<Record<string, string>>): string {
  let filled = '';
  let from = 0;
  for (const { name, start, end } of placeholders(body)) {
    if (!Object.hasOwn(values, name)) continue;
    filled += body.slice(from, start) + (values[name] ?? '');
    from = end;
  }
  return filled + body.slice(from);
}

/** A title as kept: one line, spaces collapsed, trimmed, bounded. */
export function cleanPromptTitle(title: string): string {
  return oneLineName(title, promptLimits.titleLength);
}

/** Why a title and body cannot be kept, or null; a persona's title is its name, its body its system prompt. */
function problemOf(title: string, body: string, persona = false): string | null {
  const what = persona ? 'A persona' : 'A prompt';
  if (title === '') return persona ? 'A persona needs a name.' : 'A prompt needs a title.';
  if (body.trim() === '') return persona ? 'A persona needs a system prompt.' : 'A prompt needs some text.';
  if (body.length > promptLimits.bodyLength)
    return `${what} can be at most ${promptLimits.bodyLength.toLocaleString('en')} characters long.`;
  if (!persona && distinctNames(body, promptLimits.variables + 1).length > promptLimits.variables)
    return `A prompt can ask for at most ${promptLimits.variables} different values.`;
  return null;
}

/** Why a title and text as typed cannot be saved (the editor says so before trying), or null. */
export function promptProblem(title: string, body: string, persona = false): string | null {
  return problemOf(cleanPromptTitle(title), body, persona);
}

/**
 * A new prompt, or persona with `persona` set: the title cleaned to one line; refused without a
 * title or text, or beyond the limits.
 */
export function createPrompt({
  id,
  title,
  body,
  now,
  persona,
}: {
  id: string;
  title: string;
  body: string;
  now: Date;
  persona?: { model?: ModelPin };
}): PromptResult {
  const cleaned = cleanPromptTitle(title);
  const problem = problemOf(cleaned, body, persona !== undefined);
  if (problem) return { ok: false, problem };
  const at = now.toISOString();
  const prompt: Prompt = { id, title: cleaned, body, createdAt: at, updatedAt: at };
  if (persona) prompt.persona = true;
  if (persona?.model) prompt.model = { ...persona.model };
  return { ok: true, prompt };
}

/** The prompt with the change made and `updatedAt` stamped; refused on the same rules as a new one. */
export function changePrompt(prompt: Prompt, change: PromptChange, now: Date): PromptResult {
  const title = change.title === undefined ? prompt.title : cleanPromptTitle(change.title);
  const body = change.body ?? prompt.body;
  const problem = problemOf(title, body, prompt.persona);
  if (problem) return { ok: false, problem };
  // Never earlier than the copy changed: the later copy wins between tabs.
  const at = now.toISOString();
  const changed: Prompt = {
    ...prompt,
    title,
    body,
    updatedAt: at > prompt.updatedAt ? at : prompt.updatedAt,
  };
  if (prompt.persona && 'model' in change) {
    if (change.model) changed.model = { ...change.model };
    else delete changed.model;
  }
  return { ok: true, prompt: changed };
}

/** A prompt read from storage or a file: a fresh object of exactly the known fields, or null. */
export function readPrompt(value: unknown): Prompt | null {
  if (!isRecord(value)) return null;
  const id = ownField(value, 'id');
  const title = ownField(value, 'title');
  const body = ownField(value, 'body');
  const createdAt = ownField(value, 'createdAt');
  const updatedAt = ownField(value, 'updatedAt');
  if (typeof id !== 'string' || id === '' || id.length > promptLimits.idLength) return null;
  if (typeof title !== 'string' || typeof body !== 'string') return null;
  if (!isIsoTimestamp(createdAt) || !isIsoTimestamp(updatedAt)) return null;
  // A title is read from its first 10,000 characters at most: kept, it is 200.
  const cleaned = cleanPromptTitle(title.slice(0, 10_000));
  const persona = ownField(value, 'persona') === true;
  if (problemOf(cleaned, body, persona) !== null) return null;
  const prompt: Prompt = { id, title: cleaned, body, createdAt, updatedAt };
  if (!persona) return prompt;
  prompt.persona = true;
  const model = readPin(ownField(value, 'model'));
  if (model) prompt.model = model;
  return prompt;
}

/**
 * Prompts as read from a list (storage, another tab, an imported file: hostile input): each valid
 * one once (of two copies of an id, the later), at most `promptLimits.prompts`, in list order.
 */
export function readPrompts(value: unknown): Prompt[] {
  return Array.isArray(value) ? readList(value).prompts : [];
}

/** readPrompts, and how many entries it read nothing from. */
function readList(list: readonly unknown[]): { prompts: Prompt[]; unread: number } {
  const byId = new Map<string, Prompt>();
  let unread = 0;
  for (const entry of list.slice(0, promptLimits.prompts * 2)) {
    const prompt = readPrompt(entry);
    if (!prompt) {
      unread += 1;
      continue;
    }
    const known = byId.get(prompt.id);
    if (!known && byId.size >= promptLimits.prompts) continue;
    byId.set(prompt.id, known && known.updatedAt >= prompt.updatedAt ? known : prompt);
  }
  return { prompts: [...byId.values()], unread };
}

/** The prompts the `/` menu and the palette insert into a message: not the personas. */
export function messagePrompts(prompts: readonly Prompt[]): Prompt[] {
  return prompts.filter((prompt) => !prompt.persona);
}

/** The personas, in list order. */
export function personasOf(prompts: readonly Prompt[]): Prompt[] {
  return orderPrompts(prompts.filter((prompt) => prompt.persona));
}

/** The persona of that id (none for a prompt's id, or one deleted). */
export function personaById(prompts: readonly Prompt[], id: string | undefined): Prompt | undefined {
  return id === undefined ? undefined : prompts.find((prompt) => prompt.id === id && prompt.persona);
}

/** The conversation as a persona sets it up: its system prompt, and its model when the persona has one. */
export function withPersona(conversation: Conversation, persona: Prompt, now: Date): Conversation {
  const prompted = setSystemPrompt(conversation, persona.body, now);
  return persona.model ? setModelPin(prompted, persona.model, now) : prompted;
}

/** Prompts as lists show them: by title, as the user reads them, then by creation. */
export function orderPrompts(prompts: readonly Prompt[]): Prompt[] {
  return byName(prompts, (prompt) => prompt.title);
}

/** The first line of a body that has text, for a list: bounded, one line. */
export function promptPreview(body: string): string {
  const lines = body.slice(0, 2_000).split('\n');
  return (lines.find((line) => line.trim() !== '') ?? '').trim().slice(0, 200);
}

/** The file 'Export prompts' writes and 'Import prompts' reads (docs/prompts.md). */
export interface PromptsFile {
  kind: 'prompts';
  version: 1;
  exportedAt: string;
  prompts: Prompt[];
}

export const promptsFileName = 'prompts.json';

export function promptsFile(prompts: readonly Prompt[], now: Date): PromptsFile {
  return { kind: 'prompts', version: 1, exportedAt: now.toISOString(), prompts: [...prompts] };
}

/**
 * The prompts of a file's text, and how many of its entries could not be read; or, when it holds
 * none, why (the end of a sentence for the user). A bare list of prompts is taken too.
 */
export function readPromptsFile(
  text: string,
): { ok: true; prompts: Prompt[]; unread: number } | { ok: false; problem: string } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, problem: 'the file is not JSON' };
  }
  const list = Array.isArray(value) ? value : isRecord(value) ? ownField(value, 'prompts') : undefined;
  if (!Array.isArray(list)) return { ok: false, problem: 'the file holds no list of prompts' };
  if (list.length === 0) return { ok: false, problem: 'the file holds no prompts' };
  const { prompts, unread } = readList(list);
  if (prompts.length === 0)
    return {
      ok: false,
      problem: "none of the file's prompts could be read (each needs an id, a title, a text and its dates)",
    };
  return { ok: true, prompts, unread };
}
