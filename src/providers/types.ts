import type { Config, ProviderId, RequestSettings } from '../domain/config.ts';
import type { ReasoningPart, Role } from '../domain/conversation.ts';
import type { ModelCapabilities, ReasoningEffort } from '../domain/provider-definitions/capabilities.ts';
import type { FinishReason, Usage } from '../domain/reply-stats.ts';
import type { WebSource } from '../domain/web-search.ts';
import type { ProviderData, ToolDefinition } from '../domain/tools.ts';

/**
 * A file a model takes as itself, base64-encoded: an image, or a PDF. (Text files, and PDFs for a
 * model that does not read them, arrive as text in `content`.)
 */
export interface ChatFile {
  kind: 'image' | 'pdf';
  name: string;
  mimeType: string;
  data: string;
}

/** A picture an earlier assistant turn drew, as sent back for an edit. */
export interface DrawnImage extends ChatFile {
  providerData?: ProviderData;
}

/** A call an earlier assistant turn made, as sent back on the next request. */
export interface ChatToolCall {
  id: string;
  name: string;
  /** JSON text, as the model wrote it. */
  arguments: string;
  /** Sent back only by the client of `providerData.provider` (the caller checks the model too). */
  providerData?: ProviderData;
}

/** What a call returned, as the next request carries it. */
export interface ChatToolResult {
  /** The call it answers (ChatToolCall.id). */
  callId: string;
  name: string;
  /** The result as text (JSON stays JSON text). */
  content: string;
  /** Images the tool returned, where the API takes them in a result (else the client says they were left out). */
  images?: ChatFile[];
  isError?: boolean;
}

/** One message as sent to a provider. */
export interface ChatMessage {
  /** 'tool': the results of the previous assistant turn's calls. */
  role: Role | 'tool';
  content: string;
  /** User turns: files sent before the text. */
  files?: ChatFile[];
  /**
   * An assistant turn's reasoning, only when this provider and model wrote it: the client sends
   * back what its API takes (Claude's signed blocks, OpenAI's encrypted items) and drops the rest.
   */
  reasoning?: ReasoningPart[];
  /** Assistant turns: the calls it made, in order, after its text. */
  toolCalls?: ChatToolCall[];
  /**
   * Assistant turns: pictures the reply drew, sent back so the model can edit them. Only the
   * provider (and model) of `providerData` takes them as its API does (OpenAI an
   * `image_generation_call` input item, Gemini `inlineData` parts of the model's turn with their
   * thought signature); other clients leave them out.
   */
  drawnImages?: DrawnImage[];
  /** 'tool' turns: one result for each call of the assistant turn before, in the calls' order. */
  toolResults?: ChatToolResult[];
  /**
   * Where the part shared by every conversation of a project ends (prompt caching): in a system
   * message, after the first `text` characters of `content`; in a user message, after its first
   * `files` files. Only the last message that has it counts.
   */
  sharedPrefix?: { text: number } | { files: number };
}

/** What a provider yields while a reply arrives. */
export type StreamPart =
  | { type: 'text-delta'; text: string }
  /** More reasoning text; it extends the reasoning block in progress, or starts one after a closed block. */
  | { type: 'reasoning-delta'; text: string }
  /** Closes the reasoning block in progress with what the provider needs back (a signature). */
  | { type: 'reasoning-end'; signature?: string }
  /** A whole block of reasoning the provider hid: only its data, to send back (Claude). */
  | { type: 'reasoning-redacted'; data: string }
  /** Something the user should know about how the reply was obtained (a field left out and retried). */
  | { type: 'notice'; text: string }
  /** A tool call begins (OpenAI and Claude then stream its arguments; Gemini sends a call whole). */
  | { type: 'tool-call-start'; callId: string; name: string }
  /** More of a call's arguments: partial JSON text. */
  | { type: 'tool-call-delta'; callId: string; delta: string }
  /** The call is complete: its whole arguments text, and what the provider needs back with it. */
  | { type: 'tool-call-end'; callId: string; arguments: string; providerData?: ProviderData }
  /**
   * The provider's own web search (a server-side tool): 'searching' when it starts (the query may
   * follow in a later part with the same id), then 'done' or 'failed' (`error` in its words).
   */
  | {
      type: 'web-search';
      id: string;
      status: 'searching' | 'done' | 'failed';
      query?: string;
      error?: string;
    }
  /**
   * The answer cites a source: `at` is the UTF-16 offset, in the text this request has streamed
   * so far (its text deltas joined), just after the cited span; `citedText` where the provider
   * gave it. Sent once the offset is known (after the span, or at the end).
   */
  | { type: 'citation'; source: WebSource; at: number; citedText?: string }
  /** A page the search found that no span cites (OpenAI's `sources`, Groq's results): listed, unnumbered in the text. */
  | { type: 'web-source'; source: WebSource }
  /** Gemini's search suggestions, HTML to show as given (inert, in a sandboxed frame). */
  | { type: 'search-suggestions'; html: string }
  /**
   * The provider's own code execution (a server-side tool) begins a run: `language` as the
   * provider names it, lower case ('python', 'bash'). Its code follows in 'code-delta' parts, or
   * whole in the 'code-result'.
   */
  | { type: 'code-start'; id: string; language: string }
  /** More of a run's code. */
  | { type: 'code-delta'; id: string; delta: string }
  /**
   * A run ended: its whole code where the provider repeats it (it replaces what the deltas
   * built), what it printed (stdout, logs, a result), its stderr where the API keeps it apart,
   * and `failed` when it did not succeed (why, in one short phrase: 'exit code 1',
   * 'execution_time_exceeded').
   */
  | { type: 'code-result'; id: string; code?: string; output: string; stderr?: string; failed?: string }
  /**
   * A file the reply made, its bytes already fetched: a picture the model drew, or an image or
   * file a code run produced (`runId`). `partial`: a preview of a picture still being drawn,
   * replaced by the next file with the same id. `providerData`: what the provider needs back to
   * edit the picture on a later turn (OpenAI's image call id, Gemini's thought signature).
   */
  | {
      type: 'file';
      id: string;
      name: string;
      mimeType: string;
      data: Blob;
      runId?: string;
      partial?: boolean;
      providerData?: ProviderData;
    }
  | { type: 'finish'; reason: FinishReason; rawReason?: string; usage?: Usage };

export interface ChatRequest {
  /** The conversation so far, without the empty assistant placeholder. */
  messages: ChatMessage[];
  /** This request's model and sampling settings, over the connection's own (a conversation's pinned model). */
  settings?: Partial<RequestSettings>;
  /** How hard the model should think; absent: the model's own default. */
  effort?: ReasoningEffort;
  signal?: AbortSignal;
  /** Default true. False makes one non-streamed call and yields the whole reply as one delta. */
  stream?: boolean;
  /** Tools the model may call; absent or empty: none are sent (nor any tool field). */
  tools?: ToolDefinition[];
  /**
   * The provider's own web search is on (the model's capabilities allow it): OpenAI through the
   * Responses `web_search` tool, Anthropic's `web_search` server tool, Gemini's `googleSearch`.
   * Absent or false: the request is exactly as without it.
   */
  webSearch?: boolean;
  /**
   * The provider's own code execution is on (the model's capabilities allow it): OpenAI's
   * Responses `code_interpreter` (container auto), Anthropic's code execution tool, Gemini's
   * `codeExecution`. Absent or false: the request is exactly as without it.
   */
  codeExecution?: boolean;
  /**
   * 'Create images' is on, for a model that draws through a tool (OpenAI's Responses
   * `image_generation`). Models that draw in every reply (`imageOutput: 'auto'`, Gemini's image
   * models) need no switch: their client always asks for images.
   */
  imageOutput?: boolean;
  /**
   * A key shared by requests with the same prefix (a project's id): OpenAI's `prompt_cache_key`.
   * Absent: the request is exactly as without it.
   */
  cacheKey?: string;
}

/** A model as the provider's own list describes it: its id, and what the list says it can do. */
export interface ListedModel {
  id: string;
  /** Only what the list reports (Anthropic, Gemini, Groq and OpenRouter report limits; OpenAI nothing). */
  capabilities: Partial<ModelCapabilities>;
  /** The day the provider shuts the model down, where its list says (OpenAI's `shutdown_date`). */
  shutdownDate?: string;
}

export interface ChatProvider {
  readonly id: ProviderId;
  /**
   * Yields text deltas, then one `finish` part. Every failure is a thrown ProviderError, also one
   * that happens mid-stream after some text arrived (the caller keeps that text). When the signal
   * aborts, reading stops at once and the iterable throws ProviderError kind 'aborted'.
   */
  chat(request: ChatRequest): AsyncIterable<StreamPart>;
  /** The provider's own list of models that can chat; throws ProviderError. */
  listModels(signal?: AbortSignal): Promise<ListedModel[]>;
}

/**
 * Why a call failed. 'network' covers an unreachable host, a connection lost mid-reply and a
 * timeout (an AbortSignal.timeout reason), each with its own message; 'cors' is a browser refusal
 * (reported for Claude, where it is the likely cause of a bare fetch failure); 'blocked' is a
 * safety block (Gemini, Azure's prompt filter); 'cancelled' is the provider giving up on a request
 * it had accepted (Google's 499 CANCELLED), worth trying again.
 */
export type ProviderErrorKind =
  | 'auth'
  | 'permission'
  | 'not-found'
  | 'invalid-request'
  | 'rate-limited'
  | 'overloaded'
  | 'cancelled'
  | 'server'
  | 'network'
  | 'cors'
  | 'blocked'
  | 'aborted';

export interface ProviderErrorInfo {
  provider: ProviderId;
  kind: ProviderErrorKind;
  /** HTTP status, when the provider answered; for an error inside a 200 stream, the code in its body, if any. */
  status?: number;
  /** The provider's own message, or ours for network, CORS and blocked failures. */
  message: string;
  /** Seconds to wait, from a retry-after header or the error body. */
  retryAfter?: number;
  /** The request field the error is about, where the provider names it (OpenAI's `param`). */
  param?: string;
  /** The model does not exist or was retired, as the provider's definition recognises it. */
  modelGone?: boolean;
}

export type CreateChatProvider = (config: Config, options?: { fetch?: typeof fetch }) => ChatProvider;
