import { capabilityTable, type ModelCapabilities } from './capabilities.ts';
import { fields, requireKey, requireModel, type ProviderDefinition } from './definition.ts';

function thinksBy(
  thinking: 'level' | 'budget',
  efforts: ModelCapabilities['efforts'],
): Partial<ModelCapabilities> {
  return { reasoning: true, thinking, efforts, maxOutput: 65_536 };
}

/** Google: keep Gemini 3 at its default temperature of 1.0; lower values may loop (PROVIDER-FACTS 2026 A5). */
const gemini3: Partial<ModelCapabilities> = {
  rejects: ['temperature'],
  rejectsBecause: 'Google advises its default of 1.0',
};

/** Gemini's models.list reports token limits per key; this table covers the rest. */
const geminiCapabilities = capabilityTable({ images: true, pdfs: true, contextWindow: 1_048_576 }, [
  // PROVIDER-FACTS 2026 A5: Gemini 3 takes a thinking level (3 Pro only low and high), 2.5 a
  // token budget (2.5 Pro cannot stop thinking).
  { match: /^gemini-3(\.\d+)?-pro/, capabilities: { ...thinksBy('level', ['low', 'high']), ...gemini3 } },
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
  { match: /^gemini-pro-vision/, capabilities: { pdfs: false, contextWindow: 16_384, maxOutput: 2048 } },
  {
    match: /^gemini-(1\.0-)?pro/,
    capabilities: { images: false, pdfs: false, contextWindow: 32_760, maxOutput: 8192 },
  },
]);

export const gemini: ProviderDefinition = {
  id: 'gemini',
  label: 'Gemini',
  keyHint: 'aistudio.google.com/apikey',
  models: [
    'gemini-pro',
    'gemini-pro-vision',
    'gemini-2.5-flash',
    'gemini-2.5-pro',
    'gemini-2.5-flash-lite',
    'gemini-2.0-flash',
    'gemini-3.5-flash',
    'gemini-3.1-pro-preview',
  ],
  modelKey: 'model',
  fields: [fields.model, fields.temperature, fields.maxTokens, fields.topP, fields.topK, fields.stop],
  defaults: { model: 'gemini-pro', topP: 0.95, topK: 40 },
  required: [requireKey, requireModel],
  // Gemini: inline data up to 20 MB per request.
  maxFileBytes: 20 * 1024 * 1024,
  capabilities: geminiCapabilities,
  api: { kind: 'gemini', host: 'https://generativelanguage.googleapis.com' },
};
