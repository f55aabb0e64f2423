import { fields, requireKey, requireModel, type ProviderDefinition } from './definition.ts';

export const claude: ProviderDefinition = {
  id: 'claude',
  label: 'Claude',
  keyHint: 'console.anthropic.com/settings/keys',
  models: [
    'claude-3-opus-20240229',
    'claude-3-sonnet-20240229',
    'claude-3-haiku-20240307',
    'claude-2.1',
    'claude-2.0',
    'claude-sonnet-4-5',
    'claude-haiku-4-5',
    'claude-opus-4-1',
  ],
  modelKey: 'model',
  fields: [
    fields.model,
    fields.temperature,
    { ...fields.maxTokens, bounds: { ...fields.maxTokens.bounds, max: 4096 } },
  ],
  defaults: { model: 'claude-3-opus-20240229', maxTokens: 4096 },
  required: [requireKey, requireModel, { key: 'maxTokens', name: 'max tokens' }],
  corsAdvice:
    'Browser (CORS) access may be disabled for your organization in the Anthropic Console settings, or a proxy dropped the anthropic-dangerous-direct-browser-access header.',
  api: { kind: 'anthropic-messages', host: 'https://api.anthropic.com' },
};
