import { openaiCapabilities } from './openai.ts';
import { fields, requireKey, type ProviderDefinition } from './definition.ts';

export const azure: ProviderDefinition<'azure'> = {
  id: 'azure',
  label: 'Azure OpenAI',
  keyHint: 'Keys and Endpoint page of your Azure OpenAI resource',
  models: [],
  modelKey: 'deploymentName',
  fields: [
    {
      kind: 'text',
      key: 'endpoint',
      label: 'Endpoint',
      placeholder: 'https://your-resource.openai.azure.com',
    },
    { kind: 'text', key: 'deploymentName', label: 'Deployment Name' },
    { kind: 'text', key: 'apiVersion', label: 'API Version' },
    fields.temperature,
    fields.maxTokens,
    fields.topP,
    fields.frequencyPenalty,
    fields.presencePenalty,
  ],
  defaults: {
    endpoint: '',
    deploymentName: '',
    apiVersion: '2023-05-15',
    topP: 0.95,
    frequencyPenalty: 0,
    presencePenalty: 0,
  },
  required: [
    requireKey,
    { key: 'endpoint', name: 'endpoint' },
    { key: 'deploymentName', name: 'deployment name' },
  ],
  // Deployments are named by the user, most often after their model: read them as OpenAI ids.
  // Not documented for Azure: the common 20 MB.
  maxFileBytes: 20 * 1024 * 1024,
  // Never OpenAI's own tools (search, code, drawing): Azure deployments are called through Chat
  // Completions only.
  capabilities: (model) => ({
    ...openaiCapabilities(model),
    webSearch: false,
    codeExecution: false,
    imageOutput: false,
  }),
  api: {
    kind: 'chat-completions',
    chatPath: '/openai/deployments/{deployment}/chat/completions?api-version={apiVersion}',
    // The last data-plane api-version that still lists deployments.
    modelsPath: '/openai/deployments?api-version=2022-12-01',
    auth: 'api-key',
    // No stream_options: api-versions such as 2023-05-15 reject it, and Azure streams no usage anyway.
    sends: ['top_p', 'frequency_penalty', 'presence_penalty'],
  },
};
