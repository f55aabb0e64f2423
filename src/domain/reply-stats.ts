/** What a reply cost and how fast it came: the provider's own figures and the app's clock. */

/** A reply's token counts, as the provider reported them; a figure it did not report is absent. */
export interface Usage {
  /** Every input token, cached or not (Anthropic reports three figures; this is their sum). */
  inputTokens?: number;
  /** Of the input, the tokens read from the provider's prompt cache. */
  cachedInputTokens?: number;
  /** Of the input, the tokens written to the prompt cache (Anthropic). */
  cacheWriteTokens?: number;
  /** Every output token, reasoning included. */
  outputTokens?: number;
  /** Of the output, the model's reasoning. */
  reasoningTokens?: number;
  totalTokens?: number;
  /** Web searches the provider ran for this reply (Anthropic's `server_tool_use.web_search_requests`). */
  webSearches?: number;
}

/** 'tool-calls': the model stopped to have tools run (the tool loop then asks it again). */
export const finishReasons = ['stop', 'length', 'content-filter', 'tool-calls', 'other'] as const;
export type FinishReason = (typeof finishReasons)[number];

export const usageFields = [
  'inputTokens',
  'cachedInputTokens',
  'cacheWriteTokens',
  'outputTokens',
  'reasoningTokens',
  'totalTokens',
  'webSearches',
] as const satisfies readonly (keyof Usage)[];

export const timingFields = ['firstTokenMs', 'thinkingMs', 'totalMs'] as const;

export interface ReplyStats {
  usage?: Usage;
  /** From sending the request to the first token, reasoning or answer. */
  firstTokenMs?: number;
  /** From the first reasoning token to the first answer token (or the end). */
  thinkingMs?: number;
  /** From sending the request to the last token. */
  totalMs?: number;
  /** How the reply ended, when the provider said so and it was not a normal stop. */
  finishReason?: Exclude<FinishReason, 'stop'>;
}

const count = new Intl.NumberFormat('en-US');

function seconds(ms: number): string {
  return ms < 10_000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms / 1000)} s`;
}

/** 'Thought for 12 s': whole seconds, at least 1, as the header of a finished reasoning block. */
export function thoughtFor(ms: number): string {
  return `Thought for ${Math.max(1, Math.round(ms / 1000))} s`;
}

/**
 * Output tokens per second over the time they streamed (after the first token). Only from the
 * provider's own count: nothing when it reported none or the stream was too short to measure.
 */
function tokensPerSecond(stats: ReplyStats): number | undefined {
  const { outputTokens, reasoningTokens = 0 } = stats.usage ?? {};
  if (outputTokens === undefined || stats.totalMs === undefined) return undefined;
  // Reasoning that was not streamed (hidden, or no summary) was spent before the first token.
  const output = stats.thinkingMs === undefined ? outputTokens - reasoningTokens : outputTokens;
  const streamingMs = stats.totalMs - (stats.firstTokenMs ?? 0);
  if (streamingMs < 50 || output < 2) return undefined;
  return output / (streamingMs / 1000);
}

/** The footer's figures, each a short phrase: '1,204 in (1,024 cached)', '310 out (100 reasoning)', … */
export function statsPhrases(stats: ReplyStats): string[] {
  const { usage = {} } = stats;
  const phrases: string[] = [];
  if (usage.inputTokens !== undefined) {
    const cached = usage.cachedInputTokens ? ` (${count.format(usage.cachedInputTokens)} cached)` : '';
    phrases.push(`${count.format(usage.inputTokens)} in${cached}`);
  }
  if (usage.outputTokens !== undefined) {
    const reasoning = usage.reasoningTokens ? ` (${count.format(usage.reasoningTokens)} reasoning)` : '';
    phrases.push(`${count.format(usage.outputTokens)} out${reasoning}`);
  }
  if (usage.webSearches)
    phrases.push(`${usage.webSearches} web ${usage.webSearches === 1 ? 'search' : 'searches'}`);
  if (stats.firstTokenMs !== undefined) phrases.push(`${seconds(stats.firstTokenMs)} to first token`);
  const speed = tokensPerSecond(stats);
  if (speed !== undefined) phrases.push(`${speed < 10 ? speed.toFixed(1) : Math.round(speed)} tokens/s`);
  return phrases;
}

/** About how many characters a token is, for figures shown before the provider reports its own. */
const charactersPerToken = 4;

/**
 * A reply's figures while it streams (compared replies show them side by side): its time to the
 * first token, then about how many tokens it has written and how fast, estimated from its text
 * (marked '≈') until the provider's own count arrives with its end.
 */
export function liveStatsPhrases(
  stats: ReplyStats | undefined,
  characters: number,
  elapsedMs: number,
): string[] {
  const firstTokenMs = stats?.firstTokenMs;
  if (firstTokenMs === undefined) return [`waiting ${seconds(elapsedMs)}`];
  const tokens = Math.round(characters / charactersPerToken);
  const phrases = [`${seconds(firstTokenMs)} to first token`, `≈ ${count.format(tokens)} tokens`];
  const streamingMs = elapsedMs - firstTokenMs;
  if (streamingMs >= 250 && tokens >= 2) {
    const speed = tokens / (streamingMs / 1000);
    phrases.push(`≈ ${speed < 10 ? speed.toFixed(1) : Math.round(speed)} tokens/s`);
  }
  return phrases;
}

export const finishReasonText: Record<Exclude<FinishReason, 'stop'>, string> = {
  length: 'cut off at the token limit',
  'content-filter': 'stopped by the content filter',
  'tool-calls': 'stopped to call tools',
  other: 'ended early',
};

/** The input tokens of the latest reply on a path that reported them: how big the last request was. */
export function lastInputTokens(path: readonly { stats?: ReplyStats }[]): number | undefined {
  for (let index = path.length - 1; index >= 0; index--) {
    const input = path[index]?.stats?.usage?.inputTokens;
    if (input !== undefined) return input;
  }
  return undefined;
}

/** From this fraction on the header warns that the conversation is near the model's limit. */
export const contextWarningAt = 0.8;
