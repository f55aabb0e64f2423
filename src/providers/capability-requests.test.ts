import { beforeEach, describe, expect, it } from 'vitest';
import type { Config, ProviderId } from '../domain/config.ts';
import { conversation, testConfigs } from './__fixtures__/configs.ts';
import { drain } from './__fixtures__/fake-fetch.ts';
import { mockProvidersForThisFile } from '../../tools/mock-providers/use-mock.ts';
import { forgetRefusedFields } from './parameter-retry.ts';
import { createChatProvider } from './registry.ts';

/** Requests built from the capability table, and the 400-drop-retry path, against the loopback mock. */

const mock = mockProvidersForThisFile();
let unique = 0;

beforeEach(() => forgetRefusedFields());

function configFor(id: ProviderId, overrides: Partial<Config>): Config {
  unique += 1;
  return { ...testConfigs[id], apiKey: `ok.cap${unique}`, baseUrl: mock().url, ...overrides };
}

async function send(config: Config) {
  const result = await drain(createChatProvider(config).chat({ messages: conversation }));
  const requests = mock().requests.filter((request) => request.key === config.apiKey);
  const bodies = requests.map((request) => request.body);
  const paths = requests.map((request) => request.path);
  const notices = result.parts.flatMap((part) => (part.type === 'notice' ? [part.text] : []));
  return { ...result, bodies, paths, notices };
}

describe('requests follow the capability table', () => {
  it.each(['o4-mini', 'gpt-5.4', 'o3'])(
    'OpenAI %s is asked through the Responses API with max_output_tokens, a summary and no sampling fields',
    async (model) => {
      const { error, bodies, notices, paths } = await send(configFor('openai', { model }));
      expect(error).toBeUndefined();
      expect(paths).toEqual(['/v1/responses']);
      const [body] = bodies;
      expect(body).toMatchObject({
        model,
        // Max Tokens (800) for the answer, and the default effort's 8192 on top for the reasoning.
        max_output_tokens: 800 + 8192,
        reasoning: { summary: 'auto' },
        store: false,
        include: ['reasoning.encrypted_content'],
        stream: true,
      });
      for (const field of [
        'max_tokens',
        'messages',
        'temperature',
        'top_p',
        'frequency_penalty',
        'presence_penalty',
      ])
        expect(body).not.toHaveProperty(field);
      expect(notices).toEqual([]);
    },
  );

  it('an Azure reasoning deployment gets max_completion_tokens and no temperature, top_p or penalties', async () => {
    const { error, bodies, paths } = await send(configFor('azure', { deploymentName: 'o4-mini' }));
    expect(error).toBeUndefined();
    expect(paths).toEqual(['/openai/deployments/o4-mini/chat/completions']);
    expect(bodies[0]).toMatchObject({ max_completion_tokens: 800 + 8192, stream: true });
    for (const field of ['max_tokens', 'temperature', 'top_p', 'frequency_penalty', 'presence_penalty'])
      expect(bodies[0]).not.toHaveProperty(field);
  });

  it('keeps the original exact payload for the original models and for gpt-5-chat-latest', async () => {
    for (const model of ['gpt-3.5-turbo', 'gpt-4', 'gpt-5-chat-latest']) {
      const { bodies } = await send(configFor('openai', { model }));
      expect(Object.keys(bodies[0] as object)).toEqual([
        'model',
        'messages',
        'temperature',
        'max_tokens',
        'top_p',
        'frequency_penalty',
        'presence_penalty',
        'stream',
        'stream_options',
      ]);
    }
  });

  it('sends no temperature to a Claude model that takes no sampling settings', async () => {
    const { error, bodies } = await send(configFor('claude', { model: 'claude-opus-4-8' }));
    expect(error).toBeUndefined();
    expect(bodies[0]).not.toHaveProperty('temperature');
    const old = await send(configFor('claude', { model: 'claude-3-opus-20240229' }));
    expect(old.bodies[0]).toMatchObject({ temperature: 0.7 });
  });
});

describe('a 400 naming a field the model does not accept', () => {
  // The mock's reasoning-model key makes any model refuse what reasoning models refuse: here models
  // the capability table does not know, as a new model or a fine-tune would be.
  const refusing = (id: ProviderId, overrides: Partial<Config>) => {
    const config = configFor(id, overrides);
    return { ...config, apiKey: config.apiKey.replace(/^ok\./, 'reasoning-model.') };
  };

  it('drops each refused field once, says so, and leaves them out for that model from then on', async () => {
    const config = refusing('openai', { model: 'ft:gpt-4o:acme:42' });
    const first = await send(config);
    expect(first.error).toBeUndefined();
    expect(first.text).toMatch(/^Echo: /);
    expect(first.notices).toEqual([
      'Sent again with max_completion_tokens in place of max_tokens, which this model does not accept.',
      'Sent again without temperature, which this model does not accept.',
      'Sent again without top_p, which this model does not accept.',
      'Sent again without frequency_penalty, which this model does not accept.',
      'Sent again without presence_penalty, which this model does not accept.',
    ]);
    expect(first.bodies).toHaveLength(6);
    const last = first.bodies.at(-1);
    expect(last).toMatchObject({ max_completion_tokens: 800 });
    for (const field of ['max_tokens', 'temperature', 'top_p', 'frequency_penalty', 'presence_penalty'])
      expect(last).not.toHaveProperty(field);

    const second = await send(config);
    expect([second.error, second.notices, second.bodies.length]).toEqual([undefined, [], 7]);
    expect(second.bodies.at(-1)).toEqual(last);
  });

  it('drops temperature for a Claude model that refuses it by name in the message', async () => {
    const { error, notices, bodies } = await send(refusing('claude', { model: 'claude-next-unlisted' }));
    expect(error).toBeUndefined();
    expect(notices).toEqual(['Sent again without temperature, which this model does not accept.']);
    expect(bodies.map((body) => 'temperature' in (body as object))).toEqual([true, false]);
  });

  it('never retries a value out of range, nor a field it already left out', async () => {
    const { error, notices, bodies } = await send(configFor('openai', { temperature: 2.5 }));
    expect(error).toMatchObject({ kind: 'invalid-request', status: 400 });
    expect([notices, bodies.length]).toEqual([[], 1]);
  });
});
