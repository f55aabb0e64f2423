import { declinedCallText, isNotRunText, type ToolResultPart } from '../../domain/tools.ts';
import type { McpServer } from '../../domain/mcp-servers.ts';
import { boundedText } from '../../lib/bounded-text.ts';
import { builtinTools } from '../../state/builtin-source.ts';

/**
 * How a tool card shows what went in and what came back: always as text, never formatted or
 * linked (a tool's output is whatever its server or the model's code made it).
 */

/** At most this many characters of an argument or a result are shown until 'Show all'. */
export const shownChars = 20_000;

/** Longer texts are not parsed as JSON to be laid out: they are shown as they came. */
const parsedChars = 200_000;

/** JSON text laid out with two-space indents; anything else (not JSON, too long) as it is. */
export function prettyJson(text: string): string {
  if (text.length > parsedChars || !/^\s*[[{]/.test(text)) return text;
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

/** A call's arguments as shown: laid out when they are JSON, '' when there are none. */
export function shownArguments(text: string): string {
  const trimmed = text.trim();
  if (trimmed === '' || /^\{\s*\}$/.test(trimmed)) return '';
  return prettyJson(text);
}

/** Where a tool ran, as the user knows it: 'Built-in', an MCP server's name, or the id it had. */
export function toolSourceName(
  server: string | undefined,
  servers: readonly Pick<McpServer, 'id' | 'name'>[],
): string | undefined {
  if (server === builtinTools.id) return builtinTools.label;
  return servers.find((entry) => entry.id === server)?.name ?? server;
}

/** How a call ended, as its card says it. */
export type ToolOutcomeKind = 'running' | 'done' | 'failed' | 'declined' | 'not-run' | 'no-result';

/**
 * The outcome of a call: running while the reply streams without a result, else read from the
 * result: a declined call and one not run (stopped, the step limit) carry the loop's own words
 * (domain/tools.ts); any other error is a failure.
 */
export function toolOutcome(result: ToolResultPart | undefined, streaming: boolean): ToolOutcomeKind {
  if (!result) return streaming ? 'running' : 'no-result';
  if (!result.isError) return 'done';
  const first = result.content[0];
  const text = first?.type === 'text' ? first.text : '';
  if (result.content.length === 1 && text === declinedCallText) return 'declined';
  if (result.content.length === 1 && isNotRunText(text)) return 'not-run';
  return 'failed';
}

/** The badge an outcome shows beside the tool's name, if any. */
export const outcomeBadge: Record<ToolOutcomeKind, string | undefined> = {
  running: undefined,
  done: undefined,
  failed: 'Failed',
  declined: 'Declined',
  'not-run': 'Not run',
  'no-result': 'No result',
};

/** A tool's name as shown: bounded (a model may write any name), the whole one in the card. */
export function shortName(name: string): string {
  return name.length > 80 ? `${boundedText(name, 79).shown}…` : name;
}
