import { isProviderError, type ProviderError } from './provider-error.ts';
import type { StreamPart } from './types.ts';

/**
 * When a provider answers 400 naming a request field it does not accept, the request goes again
 * without that field, and the field stays left out for that model from then on (in this tab).
 * The reply carries a notice saying what was left out.
 */

/** Fields left out per model, by a key naming the provider, host and model. */
const refusedByModel = new Map<string, Set<string>>();

function refusedFields(modelKey: string): ReadonlySet<string> {
  return refusedByModel.get(modelKey) ?? new Set();
}

/** Forgets what was learned (tests). */
export function forgetRefusedFields(): void {
  refusedByModel.clear();
}

// "Unrecognized request argument supplied: tools": an Azure api-version from before tool calling.
const refusal =
  /unsupported|not supported|deprecated|does not support|may only be set|only the default|unrecognized request argument/i;

/**
 * The body field a 400 says the model does not accept: OpenAI's `param`, or a field named in the
 * message. A value out of range (`Invalid 'temperature': decimal above maximum value`) is not a refusal.
 */
export function refusedField(error: ProviderError, candidates: readonly string[]): string | undefined {
  if (error.status !== 400 || error.kind !== 'invalid-request' || !refusal.test(error.message))
    return undefined;
  // Groq's refusal of a malformed tool call quotes the model, whose words name no field of ours.
  if (error.message.includes('(tool_use_failed)')) return undefined;
  if (error.param !== undefined) return candidates.includes(error.param) ? error.param : undefined;
  return candidates.find((field) => new RegExp(`(^|[^a-z_])${field}([^a-z_]|$)`).test(error.message));
}

export interface RetryingCall {
  /** Identifies the model: what is learned applies to every later request to it. */
  modelKey: string;
  /** Body fields that may be left out, as sent. */
  droppable: readonly string[];
  /** Fields that are not dropped but sent under another name when refused (max_tokens). */
  renamed?: Readonly<Record<string, string>>;
  /** The call with these fields left out (or renamed). */
  call(leftOut: ReadonlySet<string>): AsyncIterable<StreamPart>;
}

function noticeFor(field: string, renamed: Readonly<Record<string, string>> | undefined): string {
  const replacement = renamed?.[field];
  return replacement
    ? `Sent again with ${replacement} in place of ${field}, which this model does not accept.`
    : `Sent again without ${field}, which this model does not accept.`;
}

/**
 * Each retry leaves out one more field the provider named, once: at most as many retries as there
 * are droppable fields, so it never loops.
 */
export async function* withParameterRetry(request: RetryingCall): AsyncGenerator<StreamPart> {
  const { modelKey, droppable, renamed, call } = request;
  const leftOut = new Set(refusedFields(modelKey));
  for (;;) {
    let started = false;
    try {
      for await (const part of call(leftOut)) {
        started = true;
        yield part;
      }
      return;
    } catch (error) {
      const open = droppable.filter((name) => !leftOut.has(name));
      // Only before the first part: a retry must not repeat text already shown.
      const field = !started && isProviderError(error) ? refusedField(error, open) : undefined;
      if (field === undefined) throw error;
      leftOut.add(field);
      refusedByModel.set(modelKey, new Set(leftOut));
      yield { type: 'notice', text: noticeFor(field, renamed) };
    }
  }
}
