import { describe, expect, it } from 'vitest';
import { connectionIdOf, defaultConfig, providerIds, type Config } from './config.ts';
import {
  capabilitiesOf,
  configProblem,
  connectionLabel,
  foreignKeyWarning,
  isOffered,
  keyOwner,
  modelOf,
  newEndpoint,
  providerCatalog,
  saveProblem,
  switchProvider,
} from './provider-catalog.ts';

/** The panel's controls per provider, read from the definitions (docs/behaviour.md#controls-per-provider). */
function controls(id: keyof typeof providerCatalog) {
  return providerCatalog[id].fields.map((field) =>
    field.kind === 'slider'
      ? `${field.key} ${field.bounds.min}..${field.bounds.max}/${field.bounds.step}`
      : field.key,
  );
}

describe('provider definitions', () => {
  it('show the required controls with the required slider bounds and steps', () => {
    const shared = ['temperature 0..2/0.01', 'maxTokens 50..8000/10'];
    expect(controls('openai')).toEqual([
      'model',
      ...shared,
      'topP 0..1/0.01',
      'frequencyPenalty -2..2/0.01',
      'presencePenalty -2..2/0.01',
    ]);
    expect(controls('azure')).toEqual([
      'endpoint',
      'deploymentName',
      'apiVersion',
      ...shared,
      'topP 0..1/0.01',
      'frequencyPenalty -2..2/0.01',
      'presencePenalty -2..2/0.01',
    ]);
    expect(controls('claude')).toEqual(['model', 'temperature 0..2/0.01', 'maxTokens 50..4096/10']);
    expect(controls('gemini')).toEqual(['model', ...shared, 'topP 0..1/0.01', 'topK 1..100/1', 'stop']);
    expect(controls('groq')).toEqual(['model', ...shared, 'topP 0..1/0.01', 'stop']);
  });

  it('names the model Azure sends to: its deployment', () => {
    const azure = { ...switchProvider(defaultConfig, 'azure'), deploymentName: 'prod-4o' };
    expect(modelOf(azure)).toBe('prod-4o');
    expect(modelOf(defaultConfig)).toBe('gpt-3.5-turbo');
  });
});

describe('switchProvider', () => {
  it("takes the provider's defaults and keeps key, temperature and max tokens (Claude's own max tokens)", () => {
    const current: Config = { ...defaultConfig, apiKey: 'k', temperature: 1.2, maxTokens: 900, topP: 0.5 };
    expect(switchProvider(current, 'gemini')).toEqual({
      provider: 'gemini',
      apiKey: 'k',
      temperature: 1.2,
      maxTokens: 900,
      model: 'gemini-pro',
      topP: 0.95,
      topK: 40,
    });
    expect(switchProvider(current, 'claude')).toMatchObject({
      model: 'claude-3-opus-20240229',
      maxTokens: 4096,
    });
  });

  it("brings back a remembered provider's key and model", () => {
    const remembered: Config = {
      ...switchProvider(defaultConfig, 'claude'),
      apiKey: 'sk-ant-x',
      model: 'claude-opus-4-8',
    };
    expect(switchProvider({ ...defaultConfig, apiKey: 'sk-other' }, 'claude', remembered)).toMatchObject({
      apiKey: 'sk-ant-x',
      model: 'claude-opus-4-8',
    });
  });
});

describe('key shapes', () => {
  it.each([
    ['sk-ant-api03-abc', 'claude'],
    ['AIzaSyAbc', 'gemini'],
    ['gsk_abc', 'groq'],
    ['sk-proj-abc', 'openai'],
    ['sk-abc', 'openai'],
    [' sk-abc ', 'openai'],
    ['sk-or-v1-abc', undefined],
    ['0123456789abcdef0123456789abcdef', undefined],
    ['', undefined],
  ])('%j is recognised as %s', (key, owner) => {
    expect(keyOwner(key)).toBe(owner);
  });

  it("says whose a key looks like only when it is another provider's", () => {
    expect(foreignKeyWarning({ provider: 'claude', apiKey: 'sk-proj-abc' })).toBe(
      'This looks like an OpenAI key',
    );
    expect(foreignKeyWarning({ provider: 'openai', apiKey: 'AIzaSy' })).toBe('This looks like a Gemini key');
    expect(foreignKeyWarning({ provider: 'azure', apiKey: 'gsk_abc' })).toBe('This looks like a Groq key');
    expect(foreignKeyWarning({ provider: 'claude', apiKey: 'sk-ant-abc' })).toBeNull();
    expect(foreignKeyWarning({ provider: 'groq', apiKey: 'my-own-key' })).toBeNull();
  });
});

describe('saveProblem', () => {
  it('refuses an OpenAI-compatible endpoint without a model, and nothing else', () => {
    const endpoint = { ...newEndpoint('e1', defaultConfig), baseUrl: 'http://localhost:11434/v1' };
    expect(saveProblem(endpoint)).toMatch(/^Not saved: choose a model\./);
    expect(saveProblem({ ...endpoint, model: 'llama3.2' })).toBeNull();
    expect(saveProblem({ ...defaultConfig, model: '' })).toBeNull();
    // Listing models needs no model: the test goes with the base URL alone.
    expect(configProblem(endpoint, ['model'])).toBeNull();
    expect(configProblem(endpoint)).toBe('OpenAI-compatible: model is missing');
  });
});

describe('configProblem', () => {
  const valid: Record<keyof typeof providerCatalog, Config> = {
    openai: { ...switchProvider(defaultConfig, 'openai'), apiKey: 'k' },
    azure: {
      ...switchProvider(defaultConfig, 'azure'),
      apiKey: 'k',
      endpoint: 'https://r',
      deploymentName: 'd',
    },
    claude: { ...switchProvider(defaultConfig, 'claude'), apiKey: 'k' },
    gemini: { ...switchProvider(defaultConfig, 'gemini'), apiKey: 'k' },
    groq: { ...switchProvider(defaultConfig, 'groq'), apiKey: 'k' },
    custom: {
      ...switchProvider(defaultConfig, 'custom'),
      apiKey: 'k',
      baseUrl: 'http://localhost:11434/v1',
      model: 'llama3.2',
    },
    device: switchProvider(defaultConfig, 'device'),
  };

  it.each(providerIds.filter((id) => !providerCatalog[id].keyOptional))(
    'accepts a complete %s configuration and names a missing or blank key',
    (id) => {
      expect(configProblem(valid[id])).toBeNull();
      expect(configProblem({ ...valid[id], apiKey: '  ' })).toBe(
        `${providerCatalog[id].label}: API key is missing`,
      );
    },
  );

  it('follows the validity rule per provider', () => {
    expect(configProblem({ ...valid.azure, endpoint: '' })).toBe('Azure OpenAI: endpoint is missing');
    expect(configProblem({ ...valid.azure, deploymentName: ' ' })).toBe(
      'Azure OpenAI: deployment name is missing',
    );
    expect(configProblem({ ...valid.azure, model: '' })).toBeNull();
    expect(configProblem({ ...valid.openai, model: '' })).toBe('OpenAI: model is missing');
    expect(configProblem({ ...valid.claude, maxTokens: 0 })).toBe('Claude: max tokens is missing');
    expect(configProblem({ ...valid.gemini, maxTokens: 0 })).toBeNull();
    expect(configProblem({ ...valid.groq, model: undefined })).toBe('Groq: model is missing');
    // An OpenAI-compatible endpoint needs no key, but an address and a model.
    expect(configProblem({ ...valid.custom, apiKey: '' })).toBeNull();
    expect(configProblem({ ...valid.custom, baseUrl: ' ' })).toBe('OpenAI-compatible: base URL is missing');
    expect(configProblem({ ...valid.custom, model: '' })).toBe('OpenAI-compatible: model is missing');
  });
});

describe('capability tables', () => {
  const of = (provider: Config['provider'], model: string) =>
    capabilitiesOf({ ...switchProvider(defaultConfig, provider), model, deploymentName: model });

  it('reads OpenAI reasoning models by their ids (o-series, gpt-5 and later, not the gpt-N-chat variants)', () => {
    for (const model of ['o1', 'o3', 'o4-mini', 'gpt-5', 'gpt-5.4-mini', 'gpt-5.6-sol', 'gpt-10'])
      expect(of('openai', model)).toMatchObject({
        reasoning: true,
        tokenLimitField: 'max_completion_tokens',
        rejects: ['temperature', 'topP', 'frequencyPenalty', 'presencePenalty'],
      });
    for (const model of ['gpt-5-chat-latest', 'gpt-4o', 'gpt-4.1-mini', 'gpt-3.5-turbo', 'gpt-4'])
      expect(of('openai', model)).toMatchObject({
        reasoning: false,
        tokenLimitField: 'max_tokens',
        rejects: [],
      });
    expect(of('openai', 'o4-mini').images).toBe(false);
    expect(of('openai', 'gpt-4.1').contextWindow).toBe(1_047_576);
  });

  it('gives an unknown model safe defaults: sends the original payload, claims nothing', () => {
    expect(of('openai', 'my-fine-tune')).toEqual({
      reasoning: false,
      images: true,
      pdfs: true,
      rejects: [],
      tokenLimitField: 'max_tokens',
    });
    expect(of('groq', 'brand-new')).toMatchObject({ reasoning: false, images: false, rejects: [] });
  });

  it('reads Azure deployments named after their model, and Claude models that refuse sampling', () => {
    expect(of('azure', 'o3').rejects).toContain('temperature');
    expect(of('azure', 'prod-deployment').rejects).toEqual([]);
    expect(of('claude', 'claude-opus-4-8').rejects).toEqual(['temperature', 'topP', 'topK']);
    expect(of('claude', 'claude-3-opus-20240229')).toMatchObject({
      reasoning: false,
      rejects: [],
      maxOutput: 4096,
    });
    expect(of('gemini', 'models/gemini-2.5-pro')).toMatchObject({ reasoning: true, maxOutput: 65_536 });
  });
});

describe('newEndpoint', () => {
  it('starts an OpenAI-compatible endpoint with its own id, keeping temperature and max tokens only', () => {
    const endpoint = newEndpoint('e1', {
      ...defaultConfig,
      apiKey: 'sk-openai',
      temperature: 1.1,
      maxTokens: 900,
    });
    expect(endpoint).toEqual({
      provider: 'custom',
      endpointId: 'e1',
      name: '',
      apiKey: '',
      model: '',
      temperature: 1.1,
      maxTokens: 900,
      topP: 1,
    });
    expect(connectionIdOf(endpoint)).toBe('custom:e1');
    expect(connectionLabel({ ...endpoint, name: ' LM Studio ' })).toBe('LM Studio');
    expect(connectionLabel(endpoint)).toBe('OpenAI-compatible');
  });
});

describe("the browser's own model ('On this device')", () => {
  it('is offered only where the browser has LanguageModel', () => {
    expect(isOffered('device', {})).toBe(false);
    expect(isOffered('device', { LanguageModel: { availability() {}, create() {} } })).toBe(true);
    // Every other provider is offered everywhere.
    expect(providerIds.filter((id) => !isOffered(id, {}))).toEqual(['device']);
  });

  it('needs nothing set, and never keeps a key from another provider', () => {
    const fresh = switchProvider({ ...defaultConfig, apiKey: 'sk-openai' }, 'device');
    expect(fresh).toMatchObject({ provider: 'device', apiKey: '', model: 'built-in' });
    // A remembered connection that somehow holds a key brings it back neither.
    const device = switchProvider({ ...defaultConfig, apiKey: 'sk-openai' }, 'device', {
      ...fresh,
      apiKey: 'stray',
    });
    expect(device).toMatchObject({ provider: 'device', apiKey: '', model: 'built-in' });
    expect(configProblem(device)).toBeNull();
    expect(saveProblem(device)).toBeNull();
    expect(foreignKeyWarning(device)).toBeNull();
    expect(providerCatalog.device.fields).toEqual([]);
  });

  it('takes no sampling settings or tools; images only where its own list says so', () => {
    expect(capabilitiesOf({ ...defaultConfig, provider: 'device', model: 'built-in' })).toMatchObject({
      images: false,
      tools: false,
      rejects: ['temperature', 'topP', 'topK', 'frequencyPenalty', 'presencePenalty'],
    });
    expect(
      capabilitiesOf({ ...defaultConfig, provider: 'device', model: 'built-in' }, { images: true }).images,
    ).toBe(true);
  });
});
