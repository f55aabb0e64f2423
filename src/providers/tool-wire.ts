import type { ProviderId } from '../domain/config.ts';
import { isRecord, type JsonRecord } from '../domain/json-guards.ts';
import type { ProviderData, ToolDefinition } from '../domain/tools.ts';
import { parseJson } from './json.ts';
import type { ChatToolCall, ChatToolResult, StreamPart } from './types.ts';

/** What the four tool-calling clients share (docs/providers.md#tool-calling). */

/** The tools to offer, or undefined when there are none: then no tool field is sent at all. */
export function offeredTools(
  tools: readonly ToolDefinition[] | undefined,
): readonly ToolDefinition[] | undefined {
  return tools && tools.length > 0 ? tools : undefined;
}

/**
 * A call's arguments as an object, for the APIs that take them parsed (Claude's `input`,
 * Gemini's `args`): arguments that are not a JSON object (malformed, cut off) go as `{}`.
 */
export function argumentsObject(text: string): JsonRecord {
  const parsed = parseJson(text);
  return isRecord(parsed) ? parsed : {};
}

/**
 * A call's arguments as JSON text, for the APIs that take a string (OpenAI's): kept when they are
 * a JSON object, else `{}`, which every compatible server reads (some parse the string and refuse
 * a request whose history holds one they cannot).
 */
export function argumentsText(text: string): string {
  return isRecord(parseJson(text)) ? text : '{}';
}

/** Whole arguments as a call's end carries them: empty text (a call with no arguments) is `{}`. */
export function wholeArguments(text: string): string {
  return text.trim() === '' ? '{}' : text;
}

/** What a provider wrote for a call, only when it is this provider's (and this model's, when it names one). */
export function ownData(
  call: ChatToolCall,
  provider: ProviderId,
  model: string | undefined,
): ProviderData['data'] | undefined {
  const data = call.providerData;
  if (!data || data.provider !== provider) return undefined;
  return data.model === undefined || data.model === model ? data.data : undefined;
}

/** A result's text for an API that takes no images in a tool result: it says they were left out. */
export function textWithoutImages(result: ChatToolResult): string {
  const count = result.images?.length ?? 0;
  if (count === 0) return result.content;
  const note = `[${count === 1 ? 'An image' : `${count} images`} the tool returned ${
    count === 1 ? 'was' : 'were'
  } left out: this API takes none in a tool result.]`;
  return result.content === '' ? note : `${result.content}\n\n${note}`;
}

/** An id for a call that came without one (Gemini, some compatible servers): unique enough within a chat. */
export function newCallId(index: number): string {
  return `call_${Math.random().toString(36).slice(2, 10)}_${index}`;
}

/** A call that arrived whole (not streamed): its start, then its end. */
export function wholeCall(
  callId: string,
  name: string,
  args: string,
  providerData?: ProviderData,
): StreamPart[] {
  return [
    { type: 'tool-call-start', callId, name },
    providerData
      ? { type: 'tool-call-end', callId, arguments: wholeArguments(args), providerData }
      : { type: 'tool-call-end', callId, arguments: wholeArguments(args) },
  ];
}
