/** What a model can do and which request fields it takes: requests and the panel are built from it. */

/** Sampling settings a model may refuse (by their Config names). */
export type SamplingSetting = 'temperature' | 'topP' | 'topK' | 'frequencyPenalty' | 'presencePenalty';

/** How hard a model thinks, in the words the APIs share; 'off' where a model can stop thinking. */
export const reasoningEfforts = ['off', 'minimal', 'low', 'medium', 'high', 'xhigh', 'max'] as const;
export type ReasoningEffort = (typeof reasoningEfforts)[number];

/**
 * Which request fields steer a model's reasoning: an effort field (OpenAI, Groq), Claude's
 * adaptive thinking with an effort or its older token budget, Gemini 2.5's thinking budget or
 * Gemini 3's thinking level.
 */
export type ThinkingControl = 'effort' | 'adaptive' | 'budget' | 'level';

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
  /** How reasoning is steered; absent when it cannot be (or the model does not reason). */
  thinking?: ThinkingControl;
  /** The efforts the model accepts, in order: what 'Reasoning effort' offers besides the default. */
  efforts?: readonly ReasoningEffort[];
  /** Groq: the model takes `reasoning_format` (qwen3 does; gpt-oss streams `reasoning` without it). */
  reasoningFormat?: boolean;
  /** A request ending with an assistant turn (a prefill) is refused: Gemini 3.6 and later. */
  rejectsPrefill?: boolean;
  /** False: the model takes no tools (a 400). Absent: it does, or nothing says it does not. */
  tools?: boolean;
  /**
   * The provider's own web search works with this model ('Search the web' is offered). Groq's
   * compound models search on their own, unasked: 'auto'.
   */
  webSearch?: boolean | 'auto';
  /** The provider's own code execution works with this model ('Run code'); 'auto': it runs code unasked (Groq compound). */
  codeExecution?: boolean | 'auto';
  /**
   * The model draws pictures: through a tool offered when 'Create images' is on (true, OpenAI's
   * Responses `image_generation`), or in every reply ('auto', Gemini's image models).
   */
  imageOutput?: boolean | 'auto';
}

/** The providers' own tools, by their capability names: what a conversation can switch on. */
export type ProviderTool = 'webSearch' | 'codeExecution' | 'imageOutput';

/** For a model nobody told us about: send the original payload, claim nothing. */
export const unknownModel: ModelCapabilities = {
  reasoning: false,
  images: false,
  pdfs: false,
  rejects: [],
  tokenLimitField: 'max_tokens',
};

/** The effort to ask for: the conversation's choice when the model accepts it, else the model's default. */
export function acceptedEffort(
  capabilities: ModelCapabilities,
  effort: ReasoningEffort | undefined,
): ReasoningEffort | undefined {
  return effort !== undefined && capabilities.efforts?.includes(effort) ? effort : undefined;
}

/** Tokens set aside for thinking per effort; the model's own default effort is counted as medium. */
export const thinkingAllowance: Record<ReasoningEffort, number> = {
  off: 0,
  minimal: 1024,
  low: 2048,
  medium: 8192,
  high: 16_384,
  xhigh: 32_768,
  max: 65_536,
};

/**
 * The output limit to ask of a model that thinks: Max Tokens is the answer's, and thinking gets
 * its allowance on top (within the model's own limit), so it does not crowd the answer out.
 */
export function thinkingOutputLimit(
  capabilities: ModelCapabilities,
  maxTokens: number,
  effort: ReasoningEffort | undefined,
): number {
  return Math.min(maxTokens + thinkingAllowance[effort ?? 'medium'], capabilities.maxOutput ?? Infinity);
}

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

/**
 * A lookup whose models matching `match` also have one of the provider's own tools (web search,
 * code execution, drawing): the tables say what each model is, this what the provider's tool
 * works with.
 */
export function withProviderTool(
  lookup: (model: string) => ModelCapabilities,
  tool: ProviderTool,
  match: RegExp,
  value: true | 'auto' = true,
) {
  return (model: string): ModelCapabilities => {
    const capabilities = lookup(model);
    return match.test(model) ? { ...capabilities, [tool]: value } : capabilities;
  };
}

/** Whether tools may be offered to the model: unless it is known to refuse them (an unknown model may). */
export function supportsTools(capabilities: Pick<ModelCapabilities, 'tools'>): boolean {
  return capabilities.tools !== false;
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
  if (capabilities.imageOutput) parts.push('creates images');
  return parts.join(' · ');
}
