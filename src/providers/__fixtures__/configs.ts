import { providerIds, type Config, type ProviderId } from '../../domain/config.ts';
import type { ChatMessage } from '../types.ts';

/**
 * The providers whose clients speak HTTP, which the fake fetch and the mock serve. The browser's
 * own model makes no request at all: browser-model.test.ts drives its client with a scripted
 * `LanguageModel` instead.
 */
export type HttpProviderId = Exclude<ProviderId, 'device'>;
export const httpProviderIds = providerIds.filter((id): id is HttpProviderId => id !== 'device');

export const testConfigs: Record<ProviderId, Config> = {
  openai: {
    provider: 'openai',
    apiKey: 'sk-test',
    model: 'gpt-4o',
    temperature: 0.7,
    maxTokens: 800,
    topP: 0.95,
    frequencyPenalty: 0.1,
    presencePenalty: -0.2,
  },
  azure: {
    provider: 'azure',
    apiKey: 'azure-key',
    temperature: 0.7,
    maxTokens: 800,
    topP: 0.95,
    frequencyPenalty: 0,
    presencePenalty: 0,
    endpoint: 'https://my-resource.openai.azure.com/',
    deploymentName: 'gpt4o prod',
    apiVersion: '2023-05-15',
  },
  claude: {
    provider: 'claude',
    apiKey: 'sk-ant-test',
    model: 'claude-sonnet-4-5',
    temperature: 0.7,
    maxTokens: 4096,
  },
  gemini: {
    provider: 'gemini',
    apiKey: 'AIza-test',
    model: 'gemini-2.5-flash',
    temperature: 0.7,
    maxTokens: 800,
    topP: 0.95,
    topK: 40,
  },
  custom: {
    provider: 'custom',
    endpointId: 'local',
    name: 'Ollama',
    apiKey: '',
    baseUrl: 'http://localhost:11434/v1',
    model: 'llama3.2:latest',
    temperature: 0.7,
    maxTokens: 800,
    topP: 1,
  },
  groq: {
    provider: 'groq',
    apiKey: 'gsk_test',
    model: 'llama-3.3-70b-versatile',
    temperature: 0.7,
    maxTokens: 800,
    topP: 0.95,
  },
  device: {
    provider: 'device',
    apiKey: '',
    model: 'built-in',
    temperature: 0.7,
    maxTokens: 800,
  },
};

export const conversation: ChatMessage[] = [
  { role: 'system', content: 'You are a helpful assistant.' },
  { role: 'user', content: 'Hi' },
  { role: 'assistant', content: 'Hello! How can I help?' },
  { role: 'user', content: 'Tell me a joke' },
];

/**
 * For a test file against the loopback mock at `url()`: a config of provider `id` whose key picks
 * `scenario`, a new key on each call so that each test's requests are recorded apart.
 */
export function mockConfigs(url: () => string) {
  let unique = 0;
  return (
    id: Exclude<HttpProviderId, 'custom'>,
    scenario: string,
    overrides: Partial<Config> = {},
  ): Config => {
    unique += 1;
    return { ...testConfigs[id], apiKey: `${scenario}.test${unique}`, baseUrl: url(), ...overrides };
  };
}
