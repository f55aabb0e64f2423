import type { ProviderId } from './config.ts';

/**
 * Tool calling: what a model may call, what it asked, and what came back. These are the nouns the
 * providers, the tool loop and the screen share; the wire forms of each API live in
 * src/providers/ (docs/providers.md#tool-calling).
 */

/** A tool as a model is offered it: a name, what it is for, and the JSON Schema of its arguments. */
export interface ToolDefinition {
  /** Unique among the tools of one request; `a-zA-Z0-9_-`, at most 64 characters (the strictest API's rule). */
  name: string;
  description: string;
  /** A JSON Schema object (`{"type":"object",…}`) for the arguments. */
  parameters: Record<string, unknown>;
}

/**
 * What one provider needs back, unchanged, with a call or a turn on the next request: Gemini's
 * `thoughtSignature` on a `functionCall` part, the Responses item id of a `function_call`. Only the
 * provider and model that wrote it ever receive it; another gets the call as plain data.
 */
export interface ProviderData {
  provider: ProviderId;
  model?: string;
  /** Opaque to everything but that provider's client. */
  data: Record<string, string>;
}

/** A call the model asked for, in the order it asked, inside the assistant's reply. */
export interface ToolCallPart {
  type: 'tool-call';
  /** The provider's id for the call (OpenAI `call_…`, Claude `toolu_…`, Gemini's own), which its result answers. */
  callId: string;
  /** The tool's name as the model wrote it (maybe one that does not exist). */
  name: string;
  /** Where the tool lives: an MCP server's id, or `builtin`; absent when unknown (an imported chat). */
  server?: string;
  /** The arguments as the model wrote them: JSON text, kept as sent even when malformed. */
  arguments: string;
  providerData?: ProviderData;
}

/** One piece of what a tool returned. Images are stored like attachments, by id. */
export type ToolResultContent =
  { type: 'text'; text: string } | { type: 'image'; attachmentId: string; mimeType: string };

/** What came back for a call (or that the user declined it, or that it failed), after the call. */
export interface ToolResultPart {
  type: 'tool-result';
  /** The call this answers. */
  callId: string;
  /** The tool's name, repeated: some APIs (Gemini) send it with the result. */
  name: string;
  content: ToolResultContent[];
  /** The tool failed, was declined, or its arguments could not be read: the model is told so. */
  isError?: true;
}

/** The built-in tools' server id (see ToolCallPart.server). */
export const builtinServer = 'builtin';

/**
 * The loop's own words for calls it did not run, which the model reads and the screen reads back
 * (the card's 'Declined' and 'Not run' badges): held here once for both.
 */
export const declinedCallText = 'The user declined this call.';
const notRunPrefix = 'Not run: ';
export const notRunText = (reason: string) => `${notRunPrefix}${reason}`;
export const isNotRunText = (text: string) => text.startsWith(notRunPrefix);

/** A result for a call that was not run, or whose tool failed, in words for the model. */
export function errorResult(call: ToolCallPart, text: string): ToolResultPart {
  return {
    type: 'tool-result',
    callId: call.callId,
    name: call.name,
    content: [{ type: 'text', text }],
    isError: true,
  };
}
