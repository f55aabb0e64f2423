import { fields, requireKey, requireModel, type ProviderDefinition } from './definition.ts';

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
  ],
  modelKey: 'model',
  fields: [fields.model, fields.temperature, fields.maxTokens, fields.topP, fields.topK, fields.stop],
  defaults: { model: 'gemini-pro', topP: 0.95, topK: 40 },
  required: [requireKey, requireModel],
  api: { kind: 'gemini', host: 'https://generativelanguage.googleapis.com' },
};
