import { beforeEach, describe, expect, it } from 'vitest';
import type { Config, ProviderId } from '../domain/config.ts';
import type { ToolDefinition } from '../domain/tools.ts';
import { conversation, testConfigs } from './__fixtures__/configs.ts';
import { drain, fakeFetch, streamResponse } from './__fixtures__/fake-fetch.ts';
import { openaiResponsesStream } from './__fixtures__/reasoning-streams.ts';
import {
  anthropicStream,
  azureStream,
  geminiStream,
  groqStream,
  openaiStream,
} from './__fixtures__/streams.ts';
import { codeLeftOutNotice, searchLeftOutNotice } from './gemini.ts';
import { forgetUnverifiedKeys } from './openai-responses.ts';
import { forgetRefusedFields } from './parameter-retry.ts';
import { createChatProvider } from './registry.ts';
import type { ChatMessage, ChatRequest, DrawnImage } from './types.ts';

/**
 * What each API is sent when the conversation runs code or draws (docs/providers.md#code-execution,
 * docs/providers.md#images-out), how pictures an earlier turn drew go back, and that a request
 * without either is exactly what it was.
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

async function ask(config: Config, stream: string, request: Partial<ChatRequest> = {}) {
  const { fetch, requests } = fakeFetch(() => streamResponse(stream));
  const result = await drain(
    createChatProvider(config, { fetch }).chat({ messages: conversation, ...request }),
  );
  const [sent] = requests;
  const notices = result.parts.flatMap((part) => (part.type === 'notice' ? [part.text] : []));
  return {
    url: sent?.url,
    headers: sent?.headers ?? {},
    body: sent?.body as Record<string, unknown>,
    notices,
    error: result.error,
  };
}

function configFor(provider: ProviderId, model?: string): Config {
  return { ...testConfigs[provider], ...(model && { model }) };
}

const input = [
  { role: 'user', content: 'Hi' },
  { role: 'assistant', content: 'Hello! How can I help?' },
  { role: 'user', content: 'Tell me a joke' },
];

const picture = (providerData?: DrawnImage['providerData']): DrawnImage => ({
  kind: 'image',
  name: 'image-1.png',
  mimeType: 'image/png',
  data: 'iVBORw0KGgo=',
  ...(providerData && { providerData }),
});

/** A conversation whose assistant turn drew pictures, then asks for an edit. */
const withDrawn = (drawnImages: DrawnImage[], content = 'Here it is.'): ChatMessage[] => [
  { role: 'user', content: 'Draw a rainbow' },
  { role: 'assistant', content, drawnImages },
  { role: 'user', content: 'Make it brighter' },
];

describe('off, every request is the one sent before code execution and pictures existed', () => {
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
    const off = await ask(config, stream, { tools: [weather], codeExecution: false, imageOutput: false });
    expect(off.url).toBe(before.url);
    expect(off.headers).toEqual(before.headers);
    // Byte for byte: the same fields in the same order.
    expect(JSON.stringify(off.body)).toBe(JSON.stringify(before.body));
    expect(JSON.stringify(off.body)).not.toMatch(
      /code_interpreter|image_generation|codeExecution|code_execution|responseModalities/,
    );
  });

  it('OpenAI Chat Completions keeps the original payload, drawn pictures left out', async () => {
    const { url, body } = await ask(testConfigs.openai, openaiStream, {
      messages: withDrawn([picture({ provider: 'openai', data: { imageCallId: 'ig_1' } })]),
    });
    expect(url).toBe('https://api.openai.com/v1/chat/completions');
    expect(body).toEqual({
      model: 'gpt-4o',
      messages: [
        { role: 'user', content: 'Draw a rainbow' },
        { role: 'assistant', content: 'Here it is.' },
        { role: 'user', content: 'Make it brighter' },
      ],
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

describe('OpenAI: the Responses code_interpreter and image_generation tools', () => {
  it('takes a model that does not reason to the Responses API with code_interpreter and its outputs', async () => {
    const { url, body } = await ask(testConfigs.openai, openaiResponsesStream, { codeExecution: true });
    expect(url).toBe('https://api.openai.com/v1/responses');
    expect(body).toEqual({
      model: 'gpt-4o',
      instructions: 'You are a helpful assistant.',
      input,
      max_output_tokens: 800,
      temperature: 0.7,
      top_p: 0.95,
      store: false,
      include: ['code_interpreter_call.outputs'],
      stream: true,
      tools: [{ type: 'code_interpreter', container: { type: 'auto' } }],
    });
  });

  it('takes it there to draw, with two previews', async () => {
    const { url, body } = await ask(testConfigs.openai, openaiResponsesStream, { imageOutput: true });
    expect(url).toBe('https://api.openai.com/v1/responses');
    expect(body.tools).toEqual([{ type: 'image_generation', partial_images: 2 }]);
    expect(body).not.toHaveProperty('include');
  });

  it('offers every tool in order after the function tools: search, code, pictures', async () => {
    const { body } = await ask(configFor('openai', 'gpt-5.4'), openaiResponsesStream, {
      tools: [weather],
      webSearch: true,
      codeExecution: true,
      imageOutput: true,
      effort: 'low',
    });
    expect(body.include).toEqual([
      'reasoning.encrypted_content',
      'web_search_call.action.sources',
      'code_interpreter_call.outputs',
    ]);
    expect(body.tools).toEqual([
      {
        type: 'function',
        name: 'weather',
        description: 'Current weather for a place',
        parameters: weather.parameters,
        strict: false,
      },
      { type: 'web_search' },
      { type: 'code_interpreter', container: { type: 'auto' } },
      { type: 'image_generation', partial_images: 2 },
    ]);
  });

  it('sends a picture OpenAI drew back as its image_generation_call item, before the turn’s text', async () => {
    const { body } = await ask(testConfigs.openai, openaiResponsesStream, {
      imageOutput: true,
      messages: withDrawn([
        picture({ provider: 'openai', model: 'gpt-4o', data: { imageCallId: 'ig_1' } }),
        picture({ provider: 'gemini', model: 'gemini-3-pro-image', data: { thoughtSignature: 'sig' } }),
        picture(),
      ]),
    });
    expect(body.input).toEqual([
      { role: 'user', content: 'Draw a rainbow' },
      { type: 'image_generation_call', id: 'ig_1', status: 'completed', result: 'iVBORw0KGgo=' },
      { role: 'assistant', content: 'Here it is.' },
      { role: 'user', content: 'Make it brighter' },
    ]);
  });

  it('keeps a turn that only drew, with its encrypted reasoning before the picture', async () => {
    const messages = withDrawn([picture({ provider: 'openai', data: { imageCallId: 'ig_2' } })], '');
    const drawn = messages[1];
    if (drawn) drawn.reasoning = [{ type: 'reasoning', text: 'Drawing.', signature: 'gAAA-enc' }];
    const { body } = await ask(configFor('openai', 'gpt-5.4'), openaiResponsesStream, {
      imageOutput: true,
      messages,
    });
    expect(body.input).toEqual([
      { role: 'user', content: 'Draw a rainbow' },
      {
        type: 'reasoning',
        encrypted_content: 'gAAA-enc',
        summary: [{ type: 'summary_text', text: 'Drawing.' }],
      },
      { type: 'image_generation_call', id: 'ig_2', status: 'completed', result: 'iVBORw0KGgo=' },
      { role: 'user', content: 'Make it brighter' },
    ]);
  });

  it.each([
    ['azure', azureStream, undefined],
    ['groq', groqStream, 'groq/compound'],
    ['custom', openaiStream, undefined],
  ] as const)(
    '%s has no Responses path: the Chat Completions body stays as it was',
    async (provider, stream, model) => {
      const config = configFor(provider, model);
      const on = await ask(config, stream, { codeExecution: true, imageOutput: true });
      const off = await ask(config, stream);
      expect(on.url).toBe(off.url);
      expect(on.body).toEqual(off.body);
    },
  );
});

describe('Anthropic: the code execution server tool', () => {
  it('comes after the function tools and web search, with its beta header', async () => {
    const { headers, body } = await ask(testConfigs.claude, anthropicStream, {
      tools: [weather],
      webSearch: true,
      codeExecution: true,
    });
    expect(headers['anthropic-beta']).toBe('code-execution-2025-08-25');
    expect(body.tools).toEqual([
      { name: 'weather', description: 'Current weather for a place', input_schema: weather.parameters },
      { type: 'web_search_20250305', name: 'web_search' },
      { type: 'code_execution_20250825', name: 'code_execution' },
    ]);
  });

  it('is the only tool when nothing else is offered; drawn pictures never go back', async () => {
    const { body } = await ask(testConfigs.claude, anthropicStream, {
      codeExecution: true,
      messages: withDrawn([picture({ provider: 'claude', data: { id: 'x' } })]),
    });
    expect(body.tools).toEqual([{ type: 'code_execution_20250825', name: 'code_execution' }]);
    expect(body.messages).toEqual([
      { role: 'user', content: 'Draw a rainbow' },
      { role: 'assistant', content: 'Here it is.' },
      { role: 'user', content: 'Make it brighter' },
    ]);
  });
});

describe('Gemini: codeExecution, and image models', () => {
  it('adds codeExecution as a tool of its own, beside Google Search', async () => {
    const { body, notices } = await ask(testConfigs.gemini, geminiStream, {
      codeExecution: true,
      webSearch: true,
    });
    expect(body.tools).toEqual([{ googleSearch: {} }, { codeExecution: {} }]);
    expect(body).not.toHaveProperty('toolConfig');
    expect(notices).toEqual([]);
  });

  it('puts it beside the function declarations on Gemini 3, with the server-side invocations included', async () => {
    const { body, notices } = await ask(configFor('gemini', 'gemini-3.5-flash'), geminiStream, {
      codeExecution: true,
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
      { codeExecution: {} },
    ]);
    expect(body.toolConfig).toEqual({ includeServerSideToolInvocations: true });
    expect(notices).toEqual([]);
  });

  it('leaves it out on Gemini 2.x when tools are offered, and says so (with the search, each once)', async () => {
    const { body, notices } = await ask(testConfigs.gemini, geminiStream, {
      codeExecution: true,
      webSearch: true,
      tools: [weather],
    });
    const off = await ask(testConfigs.gemini, geminiStream, { tools: [weather] });
    expect(body).toEqual(off.body);
    expect(notices).toEqual([searchLeftOutNotice, codeLeftOutNotice]);
  });

  it('always asks an image model for text and pictures; never another model', async () => {
    const image = await ask(configFor('gemini', 'gemini-3-pro-image'), geminiStream);
    expect((image.body.generationConfig as Record<string, unknown>).responseModalities).toEqual([
      'TEXT',
      'IMAGE',
    ]);
    const flashImage = await ask(configFor('gemini', 'gemini-2.5-flash-image'), geminiStream, {
      imageOutput: false,
    });
    expect(flashImage.body.generationConfig).toHaveProperty('responseModalities', ['TEXT', 'IMAGE']);
    const text = await ask(testConfigs.gemini, geminiStream, { imageOutput: true });
    expect(text.body.generationConfig).not.toHaveProperty('responseModalities');
  });

  it('sends drawn pictures back as inline data before the text, signed only for the model that drew them', async () => {
    const model = 'gemini-3-pro-image';
    const { body } = await ask(configFor('gemini', model), geminiStream, {
      messages: withDrawn([
        picture({ provider: 'gemini', model, data: { thoughtSignature: 'own-sig' } }),
        picture({ provider: 'gemini', model: 'gemini-2.5-flash-image', data: { thoughtSignature: 'other' } }),
        picture({ provider: 'openai', data: { imageCallId: 'ig_1' } }),
        picture(),
      ]),
    });
    const inline = { inlineData: { mimeType: 'image/png', data: 'iVBORw0KGgo=' } };
    expect(body.contents).toEqual([
      { role: 'user', parts: [{ text: 'Draw a rainbow' }] },
      {
        role: 'model',
        parts: [{ ...inline, thoughtSignature: 'own-sig' }, inline, inline, inline, { text: 'Here it is.' }],
      },
      { role: 'user', parts: [{ text: 'Make it brighter' }] },
    ]);
  });

  it('keeps a model turn that only drew', async () => {
    const { body } = await ask(configFor('gemini', 'gemini-2.5-flash-image'), geminiStream, {
      messages: withDrawn([picture()], ''),
    });
    expect(body.contents).toEqual([
      { role: 'user', parts: [{ text: 'Draw a rainbow' }] },
      { role: 'model', parts: [{ inlineData: { mimeType: 'image/png', data: 'iVBORw0KGgo=' } }] },
      { role: 'user', parts: [{ text: 'Make it brighter' }] },
    ]);
  });
});
