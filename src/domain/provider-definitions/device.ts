import { capabilityTable } from './capabilities.ts';
import type { ProviderDefinition } from './definition.ts';

/** The one model the browser offers: the Prompt API names none, so the app gives it this id. */
export const browserModelId = 'built-in';

/**
 * The browser's own model, through the Prompt API (`LanguageModel`; Chrome's Gemini Nano on
 * capable desktops). No key, no address, nothing leaves the device. The web API takes no sampling
 * settings (temperature and top-K are for extensions only) and no output limit, so the panel shows
 * no sliders. Images are off here and switched on by the model's own list when the browser says it
 * takes them (`availability` asked with an image input, docs/providers.md#the-browsers-own-model).
 */
export const device: ProviderDefinition<'device'> = {
  id: 'device',
  label: 'On this device',
  keyHint: 'none is needed: the model runs in this browser',
  keyOptional: true,
  browserGlobal: 'LanguageModel',
  models: [browserModelId],
  modelKey: 'model',
  fields: [],
  defaults: { model: browserModelId },
  required: [],
  // Images go as Blobs, never over a network; a bound all the same, as for the other providers.
  maxFileBytes: 20 * 1024 * 1024,
  capabilities: capabilityTable(
    {
      tools: false,
      rejects: ['temperature', 'topP', 'topK', 'frequencyPenalty', 'presencePenalty'],
      rejectsBecause: 'the browser sets them itself',
    },
    [],
  ),
  api: { kind: 'browser-model' },
};
