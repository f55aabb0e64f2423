import { beforeEach, describe, expect, it } from 'vitest';
import type { Config, ProviderId } from '../domain/config.ts';
import type { ReasoningEffort } from '../domain/provider-definitions/capabilities.ts';
import type { ToolDefinition } from '../domain/tools.ts';
import { conversation, testConfigs } from './__fixtures__/configs.ts';
import { drain, fakeFetch, streamResponse } from './__fixtures__/fake-fetch.ts';
import {
  anthropicStream,
  azureStream,
  geminiStream,
  groqStream,
  openaiStream,
} from './__fixtures__/streams.ts';
import { openaiResponsesStream } from './__fixtures__/reasoning-streams.ts';
import { searchLeftOutNotice } from './gemini.ts';
import { forgetUnverifiedKeys, minimalSearchNotice } from './openai-responses.ts';
import { forgetRefusedFields } from './parameter-retry.ts';
import { createChatProvider } from './registry.ts';

/**
 * What each API is sent when the conversation searches the web (docs/providers.md#web-search), and
 * that a request without it is exactly what it was.
 */

beforeEach(() => {
  forgetRefusedFields();
  forgetUnverifiedKeys();
});

const weather: ToolDefinition = {
  name: 'weather',
  description: 'Current weather for a place',
  parameters: { type: 'object', properties: { location: { type: 'string' } } },
};

interface Ask {
  webSearch?: boolean;
  tools?: ToolDefinition[];
  effort?: ReasoningEffort;
}

async function ask(config: Config, stream: string, request: Ask = {}) {
  const { fetch, requests } = fakeFetch(() => streamResponse(stream));
  const result = await drain(
    createChatProvider(config, { fetch }).chat({ messages: conversation, ...request }),
  );
  const [sent] = requests;
  const notices = result.parts.flatMap((part) => (part.type === 'notice' ? [part.text] : []));
  return { url: sent?.url, body: sent?.body as Record<string, unknown>, notices, error: result.error };
}

function configFor(provider: ProviderId, model?: string): Config {
  return { ...testConfigs[provider], ...(model && { model }) };
}

const input = [
  { role: 'user', content: 'Hi' },
  { role: 'assistant', content: 'Hello! How can I help?' },
  { role: 'user', content: 'Tell me a joke' },
];

describe('off, every request is the one sent before web search existed', () => {
  it.each([
    ['openai', undefined, openaiStream],
    ['openai', 'gpt-5.4', openaiResponsesStream],
    ['azure', undefined, azureStream],
    ['groq', undefined, groqStream],
    ['groq', 'groq/compound', groqStream],
    ['custom', undefined, openaiStream],
    ['claude', undefined, anthropicStream],
    ['gemini', undefined, geminiStream],
    ['gemini', 'gemini-3.5-flash', geminiStream],
  ] as const)('%s %s', async (provider, model, stream) => {
    const config = configFor(provider, model);
    const before = await ask(config, stream, { tools: [weather] });
    const off = await ask(config, stream, { tools: [weather], webSearch: false });
    expect(off.url).toBe(before.url);
    expect(off.body).toEqual(before.body);
    expect(JSON.stringify(off.body)).not.toMatch(/web_search|googleSearch|include_server/i);
  });

  it('OpenAI Chat Completions keeps the original payload, field for field', async () => {
    const { url, body } = await ask(testConfigs.openai, openaiStream, { webSearch: false });
    expect(url).toBe('https://api.openai.com/v1/chat/completions');
    expect(body).toEqual({
      model: 'gpt-4o',
      messages: [{ role: 'system', content: 'You are a helpful assistant.' }, ...input],
      temperature: 0.7,
      max_tokens: 800,
      top_p: 0.95,
      frequency_penalty: 0.1,
      presence_penalty: -0.2,
      stream: true,
      stream_options: { include_usage: true },
    });
  });
});

describe('OpenAI: the Responses web_search tool', () => {
  it('takes a model that does not reason to the Responses API with its sampling settings, the tool and its sources', async () => {
    const { url, body, notices } = await ask(testConfigs.openai, openaiResponsesStream, { webSearch: true });
    expect(url).toBe('https://api.openai.com/v1/responses');
    expect(body).toEqual({
      model: 'gpt-4o',
      instructions: 'You are a helpful assistant.',
      input,
      max_output_tokens: 800,
      temperature: 0.7,
      top_p: 0.95,
      store: false,
      include: ['web_search_call.action.sources'],
      stream: true,
      tools: [{ type: 'web_search' }],
    });
    expect(notices).toEqual([]);
  });

  it('appends the tool to the function tools of a reasoning model, and asks for sources after its encrypted reasoning', async () => {
    const { body } = await ask(configFor('openai', 'gpt-5.4'), openaiResponsesStream, {
      webSearch: true,
      tools: [weather],
      effort: 'low',
    });
    expect(body).toEqual({
      model: 'gpt-5.4',
      instructions: 'You are a helpful assistant.',
      input,
      max_output_tokens: 800 + 2048,
      reasoning: { effort: 'low', summary: 'auto' },
      store: false,
      include: ['reasoning.encrypted_content', 'web_search_call.action.sources'],
      stream: true,
      tools: [
        {
          type: 'function',
          name: 'weather',
          description: 'Current weather for a place',
          parameters: weather.parameters,
          strict: false,
        },
        { type: 'web_search' },
      ],
    });
  });

  it("raises gpt-5's minimal effort to low, which web_search needs, and says so", async () => {
    const { body, notices } = await ask(configFor('openai', 'gpt-5'), openaiResponsesStream, {
      webSearch: true,
      effort: 'minimal',
    });
    expect(body.reasoning).toEqual({ effort: 'low', summary: 'auto' });
    expect(notices).toEqual([minimalSearchNotice]);
    const without = await ask(configFor('openai', 'gpt-5'), openaiResponsesStream, { effort: 'minimal' });
    expect(without.body.reasoning).toEqual({ effort: 'minimal', summary: 'auto' });
  });

  it.each([
    ['azure', azureStream, undefined],
    ['groq', groqStream, 'groq/compound'],
    ['custom', openaiStream, undefined],
  ] as const)(
    '%s has no Responses path: the Chat Completions body stays as it was',
    async (provider, stream, model) => {
      const config = configFor(provider, model);
      const on = await ask(config, stream, { webSearch: true });
      const off = await ask(config, stream);
      expect(on.url).toBe(off.url);
      expect(on.body).toEqual(off.body);
    },
  );
});

describe('Anthropic: the web_search server tool', () => {
  it('is the last tool, after the function tools, version 20250305 with no beta header', async () => {
    const { fetch, requests } = fakeFetch(() => streamResponse(anthropicStream));
    await drain(
      createChatProvider(testConfigs.claude, { fetch }).chat({
        messages: conversation,
        tools: [weather],
        webSearch: true,
      }),
    );
    const [request] = requests;
    expect(request?.headers).not.toHaveProperty('anthropic-beta');
    expect(request?.body).toEqual({
      model: 'claude-sonnet-4-5',
      max_tokens: 4096,
      temperature: 0.7,
      system: 'You are a helpful assistant.',
      messages: input,
      tools: [
        { name: 'weather', description: 'Current weather for a place', input_schema: weather.parameters },
        { type: 'web_search_20250305', name: 'web_search' },
      ],
      stream: true,
    });
  });

  it('is the only tool when no function tools are offered', async () => {
    const { body } = await ask(testConfigs.claude, anthropicStream, { webSearch: true });
    expect(body.tools).toEqual([{ type: 'web_search_20250305', name: 'web_search' }]);
  });
});

describe('Gemini: Google Search grounding', () => {
  it('adds googleSearch as a tool of its own', async () => {
    const { body, notices } = await ask(testConfigs.gemini, geminiStream, { webSearch: true });
    expect(body.tools).toEqual([{ googleSearch: {} }]);
    expect(body).not.toHaveProperty('toolConfig');
    expect(notices).toEqual([]);
  });

  it('puts it beside the function declarations on Gemini 3, which needs the server-side invocations included', async () => {
    const { body, notices } = await ask(configFor('gemini', 'gemini-3.5-flash'), geminiStream, {
      webSearch: true,
      tools: [weather],
    });
    expect(body.tools).toEqual([
      {
        functionDeclarations: [
          {
            name: 'weather',
            description: 'Current weather for a place',
            parametersJsonSchema: weather.parameters,
          },
        ],
      },
      { googleSearch: {} },
    ]);
    expect(body.toolConfig).toEqual({ includeServerSideToolInvocations: true });
    expect(notices).toEqual([]);
  });

  it('leaves it out on Gemini 2.x when tools are offered (a 400 there), and says so', async () => {
    const { body, notices } = await ask(testConfigs.gemini, geminiStream, {
      webSearch: true,
      tools: [weather],
    });
    const off = await ask(testConfigs.gemini, geminiStream, { tools: [weather] });
    expect(body).toEqual(off.body);
    expect(notices).toEqual([searchLeftOutNotice]);
  });
});
