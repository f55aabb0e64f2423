import type { ToolDefinition } from '../domain/tools.ts';

/** What a tool gave back, before its images are stored like attachments. */
export interface ToolOutcome {
  content: ({ type: 'text'; text: string } | { type: 'image'; blob: Blob; mimeType: string })[];
  /** The tool says it failed: the model is told so and may correct itself. */
  isError?: boolean;
}

/**
 * What a tool's server says of it. Shown to the user as hints, never trusted for safety: only an
 * explicit `destructive: true` has an effect, and it can only take a choice away ('Always allow').
 */
export interface ToolHints {
  title?: string;
  readOnly?: boolean;
  destructive?: boolean;
}

/** A tool a request may offer, and where it runs. */
export interface OfferedTool {
  /** The source's id (ToolCallPart.server). */
  server: string;
  definition: ToolDefinition;
  hints: ToolHints;
}

/** A place tools come from: the built-in ones, or an MCP server. */
export interface ToolSource {
  id: string;
  /** How the user knows it ('Built-in', the server's name). */
  label: string;
  list(signal?: AbortSignal): Promise<OfferedTool[]>;
  /** Runs a tool; rejects only when the call could not be made at all (the loop then reports that). */
  call(name: string, args: Record<string, unknown>, signal: AbortSignal): Promise<ToolOutcome>;
}
