import type { Config, ProviderId } from '../config.ts';
import type { ModelCapabilities } from './capabilities.ts';

/** What one provider is, as data: the settings panel, the validity rule and the wire client all read it. */

export interface SliderBounds {
  min: number;
  max: number;
  step: number;
}

export type SliderKey =
  'temperature' | 'maxTokens' | 'topP' | 'topK' | 'frequencyPenalty' | 'presencePenalty';
export type TextKey = 'endpoint' | 'deploymentName' | 'apiVersion' | 'name' | 'baseUrl';

/** A setting the panel shows, in the order shown (after the provider and the key). */
export type SettingField =
  | { kind: 'text'; key: TextKey; label: string; placeholder?: string }
  | { kind: 'model'; key: 'model' }
  | { kind: 'slider'; key: SliderKey; label: string; bounds: SliderBounds }
  | { kind: 'list'; key: 'stop'; label: string; placeholder: string; max: number };

/** Optional Chat Completions body fields a server accepts (model, messages, temperature, max_tokens and stream always go). */
export type CompletionOption = 'top_p' | 'frequency_penalty' | 'presence_penalty' | 'stop' | 'stream_options';

/**
 * Which API the provider speaks, with that API's settings. Paths may hold `{deployment}` and
 * `{apiVersion}`, filled in from the configuration.
 */
export type ProviderApi =
  | {
      kind: 'chat-completions';
      /** The public host; absent when the user gives it (Azure's endpoint). */
      host?: string;
      chatPath: string;
      modelsPath: string;
      /** The Responses API, used for the reasoning models: their reasoning summary comes only there (OpenAI). */
      responsesPath?: string;
      /** `Authorization: Bearer` or Azure's `api-key` header. */
      auth: 'bearer' | 'api-key';
      sends: readonly CompletionOption[];
      /** Ids in the model list that cannot chat (embeddings, audio, images). */
      hiddenModels?: RegExp;
    }
  | { kind: 'anthropic-messages'; host: string }
  | { kind: 'gemini'; host: string }
  /** The browser's own model (the Prompt API): no host, no HTTP. */
  | { kind: 'browser-model'; host?: undefined };

/** An error response, by its status and the fields given (the error body's type, code, message). */
export interface ModelGoneError {
  status: number;
  type?: string;
  code?: string;
  message?: RegExp;
}

export type RequiredKey = 'apiKey' | 'model' | 'endpoint' | 'deploymentName' | 'maxTokens' | 'baseUrl';

/** Per-request settings: a conversation may change these without a new connection. */
export type ProviderDefaults = Omit<
  Config,
  'provider' | 'apiKey' | 'temperature' | 'maxTokens' | 'baseUrl'
> & {
  maxTokens?: number;
};

/** `Id`: a definition's own id; the list of definitions (provider-catalog.ts) makes the ids `ProviderId`. */
export interface ProviderDefinition<Id extends string = ProviderId> {
  id: Id;
  /** Shown in toasts, the badge and the composer placeholder. */
  label: string;
  /** Where the user gets a key: shown beside the key field. */
  keyHint: string;
  /**
   * What this provider's keys look like, where they are recognisable: a key of this shape typed
   * for another provider is not sent there until the user confirms.
   */
  keyShape?: RegExp;
  /** The key may be left empty (a local server); requests then carry no Authorization header. */
  keyOptional?: boolean;
  /**
   * The browser global the provider runs on (the Prompt API's `LanguageModel`): offered only where
   * the browser has it, and with no key, address or connection test to set.
   */
  browserGlobal?: string;
  /** The user may add any number of these, each named and with its own address (endpoints). */
  multipleConnections?: boolean;
  /**
   * The built-in model list: current models first, the recommended one on top, then retired ones
   * (the original list among them, so its defaults stay choosable). Empty where the user names the models.
   */
  models: readonly string[];
  /**
   * How the provider answers a request for a model it does not have or has retired: a failed
   * turn matching one of these offers the recommended model instead.
   */
  modelGone?: readonly ModelGoneError[];
  /** The setting that names the model: Azure calls a model by its deployment. */
  modelKey: 'model' | 'deploymentName';
  fields: readonly SettingField[];
  /** What a switch to this provider sets; the key, temperature and max tokens are kept unless given here. */
  defaults: ProviderDefaults;
  /** The settings without which a request cannot be made, each with its name in the message. */
  required: readonly { key: RequiredKey; name: string }[];
  /** What a model can do and which fields it takes; safe defaults for a model not in the table. */
  capabilities(model: string): ModelCapabilities;
  /**
   * The most bytes of files one request may carry, base64-encoded as they are sent
   * (docs/providers.md#attachments): more is refused before sending, with this limit in the message.
   */
  maxFileBytes: number;
  /** What to tell the user when a browser request fails with no answer at all (likely CORS). */
  corsAdvice?: string;
  api: ProviderApi;
}

export const sliderBounds = {
  temperature: { min: 0, max: 2, step: 0.01 },
  maxTokens: { min: 50, max: 8000, step: 10 },
  topP: { min: 0, max: 1, step: 0.01 },
  topK: { min: 1, max: 100, step: 1 },
  frequencyPenalty: { min: -2, max: 2, step: 0.01 },
  presencePenalty: { min: -2, max: 2, step: 0.01 },
} as const satisfies Record<SliderKey, SliderBounds>;

/** The panel's fields every provider shares, and the optional ones, with their labels and bounds (docs/behaviour.md#slider-bounds). */
export const fields = {
  model: { kind: 'model', key: 'model' },
  temperature: { kind: 'slider', key: 'temperature', label: 'Temperature', bounds: sliderBounds.temperature },
  maxTokens: { kind: 'slider', key: 'maxTokens', label: 'Max Tokens', bounds: sliderBounds.maxTokens },
  topP: { kind: 'slider', key: 'topP', label: 'Top P', bounds: sliderBounds.topP },
  topK: { kind: 'slider', key: 'topK', label: 'Top K', bounds: sliderBounds.topK },
  frequencyPenalty: {
    kind: 'slider',
    key: 'frequencyPenalty',
    label: 'Frequency Penalty',
    bounds: sliderBounds.frequencyPenalty,
  },
  presencePenalty: {
    kind: 'slider',
    key: 'presencePenalty',
    label: 'Presence Penalty',
    bounds: sliderBounds.presencePenalty,
  },
  stop: {
    kind: 'list',
    key: 'stop',
    label: 'Stop Sequences',
    placeholder: 'Comma-separated, up to 4',
    max: 4,
  },
} as const satisfies Record<string, SettingField>;

export const requireKey = { key: 'apiKey', name: 'API key' } as const;
export const requireModel = { key: 'model', name: 'model' } as const;
