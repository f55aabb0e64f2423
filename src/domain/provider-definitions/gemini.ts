import { capabilityTable, withProviderTool, type ModelCapabilities } from './capabilities.ts';
import { fields, requireKey, requireModel, type ProviderDefinition } from './definition.ts';

function thinksBy(
  thinking: 'level' | 'budget',
  efforts: ModelCapabilities['efforts'],
): Partial<ModelCapabilities> {
  return { reasoning: true, thinking, efforts, maxOutput: 65_536 };
}

/** Google: keep Gemini 3 at its default temperature of 1.0; lower values may loop (docs/providers.md#gemini-request). */
const gemini3: Partial<ModelCapabilities> = {
  rejects: ['temperature'],
  rejectsBecause: 'Google advises its default of 1.0',
};

/**
 * Gemini 3.6 Flash and later ignore sampling settings, and reject penalties and a request ending
 * with a model turn (ai.google.dev/gemini-api/docs/whats-new-gemini-3.6).
 */
const gemini36: Partial<ModelCapabilities> = {
  rejects: ['temperature', 'topP', 'topK', 'frequencyPenalty', 'presencePenalty'],
  rejectsBecause: 'ignored from Gemini 3.6 on',
  rejectsPrefill: true,
};

/** Gemini's models.list reports token limits per key; this table covers the rest. */
const geminiTable = capabilityTable({ images: true, pdfs: true, contextWindow: 1_048_576 }, [
  // docs/providers.md#gemini-thinking: Gemini 3 takes a thinking level (3 Pro only low and high), 2.5 a
  // token budget (2.5 Pro cannot stop thinking).
  { match: /^gemini-3(\.\d+)?-pro/, capabilities: { ...thinksBy('level', ['low', 'high']), ...gemini3 } },
  {
    match: /^gemini-(3\.([6-9]|\d{2,})|[4-9])/,
    capabilities: { ...thinksBy('level', ['minimal', 'low', 'medium', 'high']), ...gemini36 },
  },
  {
    match: /^gemini-3/,
    capabilities: { ...thinksBy('level', ['minimal', 'low', 'medium', 'high']), ...gemini3 },
  },
  { match: /^gemini-2\.5-pro/, capabilities: { ...thinksBy('budget', ['low', 'medium', 'high']) } },
  { match: /^gemini-2\.5/, capabilities: { ...thinksBy('budget', ['off', 'low', 'medium', 'high']) } },
  // The aliases move between 2.5 and 3, Flash and Pro: a budget all of them take, never 'off'.
  {
    match: /^gemini-(pro|flash|flash-lite)-latest$/,
    capabilities: { ...thinksBy('budget', ['low', 'medium', 'high']) },
  },
  { match: /^gemini-(2\.0|1\.5)/, capabilities: { maxOutput: 8192 } },
  {
    match: /^gemini-pro-vision/,
    capabilities: { pdfs: false, contextWindow: 16_384, maxOutput: 2048, tools: false },
  },
  {
    match: /^gemini-(1\.0-)?pro/,
    capabilities: { images: false, pdfs: false, contextWindow: 32_760, maxOutput: 8192 },
  },
]);

/**
 * Grounding with Google Search (`googleSearch`): the Gemini 2 and 3 text models and the aliases,
 * not the image, speech, embedding, live-audio or computer-use variants, nor 2.0 Flash-Lite, which
 * Google lists without it (ai.google.dev/gemini-api/docs/google-search), nor the 2.0 thinking
 * experiment. 1.5 took the older `googleSearchRetrieval`, not sent. The same models run code
 * (`codeExecution`).
 */
const searchesTheWeb =
  /^(?!gemini-2\.0-flash-lite)(?!.*(image|tts|embedding|audio|live|computer-use|robotics|thinking))gemini-(([2-9]|\d{2})(\.\d+)?-(pro|flash)|(pro|flash|flash-lite)-latest$)/;

/** The image models (`gemini-3-pro-image`, `gemini-3.1-flash-image`, `gemini-2.5-flash-image`): they draw in every reply. */
const drawsImages = /^gemini-.*-image/;

const geminiCapabilities = withProviderTool(
  withProviderTool(
    withProviderTool(geminiTable, 'webSearch', searchesTheWeb),
    'codeExecution',
    searchesTheWeb,
  ),
  'imageOutput',
  drawsImages,
  'auto',
);

export const gemini: ProviderDefinition<'gemini'> = {
  id: 'gemini',
  label: 'Gemini',
  keyHint: 'aistudio.google.com/apikey',
  keyShape: /^AIza/,
  // Current models first, the recommended one on top; then the original and other retired ids
  // (their days: gemini-retirements.ts).
  models: [
    'gemini-3.8-flash',
    'gemini-3.7-flash',
    'gemini-3.6-flash',
    'gemini-3.5-flash',
    'gemini-3.5-flash-lite',
    'gemini-3.1-pro-preview',
    'gemini-3.1-flash-lite',
    'gemini-2.5-flash-lite',
    // The original list (docs/behaviour.md#built-in-model-lists), and ids retired since.
    'gemini-pro',
    'gemini-pro-vision',
    'gemini-2.5-flash',
    'gemini-2.5-pro',
    'gemini-2.0-flash',
  ],
  // 404 NOT_FOUND "… is no longer available …" (retired) or "… is not found for API version …" (unknown).
  modelGone: [
    { status: 404, type: 'NOT_FOUND', message: /is no longer available|is not found for API version/ },
  ],
  modelKey: 'model',
  fields: [fields.model, fields.temperature, fields.maxTokens, fields.topP, fields.topK, fields.stop],
  defaults: { model: 'gemini-pro', topP: 0.95, topK: 40 },
  required: [requireKey, requireModel],
  // Gemini: PDFs read locally and sent inline up to 50 MB (ai.google.dev/gemini-api/docs/file-input-methods).
  maxFileBytes: 50 * 1024 * 1024,
  capabilities: geminiCapabilities,
  api: { kind: 'gemini', host: 'https://generativelanguage.googleapis.com' },
};
