/** What a model can do and which request fields it takes: requests and the panel are built from it. */

/** Sampling settings a model may refuse (by their Config names). */
export type SamplingSetting = 'temperature' | 'topP' | 'topK' | 'frequencyPenalty' | 'presencePenalty';

export interface ModelCapabilities {
  /** Input plus output tokens, when known. */
  contextWindow?: number;
  /** The most output tokens one reply may have, when known. */
  maxOutput?: number;
  reasoning: boolean;
  images: boolean;
  pdfs: boolean;
  /** Settings the model rejects (a 400) or ignores: never sent, greyed out in the panel. */
  rejects: readonly SamplingSetting[];
  /** The Chat Completions field for the output limit: reasoning models refuse `max_tokens`. */
  tokenLimitField: 'max_tokens' | 'max_completion_tokens';
  /** Why the panel greys out what `rejects` lists, e.g. 'reasoning model'. */
  rejectsBecause?: string;
}

/** For a model nobody told us about: send what the spec sends, claim nothing. */
export const unknownModel: ModelCapabilities = {
  reasoning: false,
  images: false,
  pdfs: false,
  rejects: [],
  tokenLimitField: 'max_tokens',
};

export interface CapabilityRow {
  /** Matched against the model id, without any `models/` prefix. */
  match: RegExp;
  capabilities: Partial<ModelCapabilities>;
}

/** A lookup over rows: the first row that matches, over the provider's base capabilities. */
export function capabilityTable(base: Partial<ModelCapabilities>, rows: readonly CapabilityRow[]) {
  return (model: string): ModelCapabilities => {
    const row = rows.find(({ match }) => match.test(model));
    return { ...unknownModel, ...base, ...row?.capabilities };
  };
}

function tokenCount(tokens: number): string {
  if (tokens >= 1_000_000) return `${Math.round(tokens / 100_000) / 10}M`;
  return `${Math.round(tokens / 1000)}K`;
}

/** A short line for a model list: '200K context · reasons · images · PDFs'. Nothing for what is unknown. */
export function describeCapabilities(capabilities: ModelCapabilities): string {
  const parts: string[] = [];
  if (capabilities.contextWindow) parts.push(`${tokenCount(capabilities.contextWindow)} context`);
  if (capabilities.reasoning) parts.push('reasons');
  if (capabilities.images) parts.push('images');
  if (capabilities.pdfs) parts.push('PDFs');
  return parts.join(' · ');
}
