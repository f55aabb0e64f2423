import type { AttachmentPart } from '../../domain/attachments.ts';
import type { ProjectMeasure } from '../../domain/projects.ts';

/**
 * What a project's files cost in tokens, estimated before anything is sent: the providers count
 * them only in a request's usage. Shown as an estimate, never as a count.
 */

/**
 * Per image, whatever its size: Claude counts about width × height / 750 (1,600 for a
 * 1,092 px square, its largest before downscaling); OpenAI's high detail and Gemini's tiles
 * come to less. So one figure near the top of the range.
 */
export const tokensPerImage = 1_600;

/** About four bytes a token for English text and code (the providers' own rule of thumb). */
const bytesPerToken = 4;

/**
 * The files' estimated tokens. A PDF is taken by its bytes as text would be: nothing better is
 * known without reading it, and its fonts and pictures make that more, not less, than it costs.
 */
export function estimateTokens(files: readonly Pick<AttachmentPart, 'kind' | 'size'>[]): number {
  let tokens = 0;
  for (const { kind, size } of files)
    tokens += kind === 'image' ? tokensPerImage : Math.ceil(size / bytesPerToken);
  return tokens;
}

/** An estimate as said: to the nearest hundred (ten below a thousand), so it does not read as a count. */
export function roundEstimate(tokens: number): number {
  const step = tokens < 1_000 ? 10 : 100;
  return Math.max(Math.round(tokens / step) * step, tokens > 0 ? step : 0);
}

const count = new Intl.NumberFormat('en-US');

/** 'About 12,300 tokens (estimated) of 200,000 in gpt-5's context window', or without a known window. */
export function describeEstimate(tokens: number, model: string, contextWindow: number | undefined): string {
  const about = `About ${count.format(roundEstimate(tokens))} tokens (estimated)`;
  if (!model) return `${about}.`;
  if (!contextWindow) return `${about}; ${model}'s context window is not known.`;
  return `${about} of ${count.format(contextWindow)} in ${model}'s context window.`;
}

/**
 * 'Measured by claude-sonnet-4-6: a new conversation here started at 12,345 input tokens (…) of
 * 200,000 in its context window', the window said when it is the chosen model's.
 */
export function describeMeasure(
  measure: Pick<ProjectMeasure, 'tokens' | 'model'>,
  target: { model: string; contextWindow: number | undefined },
): string {
  const window =
    measure.model === target.model && target.contextWindow
      ? ` of ${count.format(target.contextWindow)} in its context window`
      : '';
  return `Measured by ${measure.model}: a new conversation here started at ${count.format(measure.tokens)} input tokens${window} (the instructions, files, its system prompt, tools and first question).`;
}

/** Whether the files alone may be more than the window holds (unknown window: no warning). */
export function mayNotFit(tokens: number, contextWindow: number | undefined): boolean {
  return contextWindow !== undefined && contextWindow > 0 && tokens > contextWindow;
}
