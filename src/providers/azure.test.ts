import { describe, expect, it } from 'vitest';
import { conversation, testConfigs } from './__fixtures__/configs.ts';
import { chunkSizes, drain, fakeFetch, jsonResponse, streamResponse } from './__fixtures__/fake-fetch.ts';
import { azureStream } from './__fixtures__/streams.ts';
import { isProviderError } from './provider-error.ts';
import { createChatProvider } from './registry.ts';

const config = testConfigs.azure;

describe('azure requests', () => {
  it('posts to the deployment path with api-version and the api-key header, model = deployment, no stream_options', async () => {
    const { fetch, requests } = fakeFetch(() => streamResponse(azureStream));
    await drain(createChatProvider(config, { fetch }).chat({ messages: conversation.slice(0, 2) }));
    expect(requests).toEqual([
      {
        url: 'https://my-resource.openai.azure.com/openai/deployments/gpt4o%20prod/chat/completions?api-version=2023-05-15',
        method: 'POST',
        headers: { 'api-key': 'azure-key', 'content-type': 'application/json' },
        body: {
          model: 'gpt4o prod',
          messages: [
            { role: 'system', content: 'You are a helpful assistant.' },
            { role: 'user', content: 'Hi' },
          ],
          temperature: 0.7,
          max_tokens: 800,
          top_p: 0.95,
          frequency_penalty: 0,
          presence_penalty: 0,
          stream: true,
        },
      },
    ]);
  });

  it('uses the base URL instead of the endpoint and defaults the api-version', async () => {
    const { fetch, requests } = fakeFetch(() => streamResponse(azureStream));
    const provider = createChatProvider(
      { ...config, apiVersion: '', baseUrl: 'http://127.0.0.1:4319' },
      { fetch },
    );
    await drain(provider.chat({ messages: conversation }));
    expect(requests[0]?.url).toBe(
      'http://127.0.0.1:4319/openai/deployments/gpt4o%20prod/chat/completions?api-version=2023-05-15',
    );
  });

  it('lists deployments from GET /openai/deployments?api-version=2022-12-01', async () => {
    const { fetch, requests } = fakeFetch(() =>
      jsonResponse({
        data: [{ id: 'gpt-4o-mini', model: 'gpt-4o-mini', object: 'deployment' }],
        object: 'list',
      }),
    );
    expect(await createChatProvider(config, { fetch }).listModels()).toEqual([
      { id: 'gpt-4o-mini', capabilities: {} },
    ]);
    expect(requests[0]).toMatchObject({
      url: 'https://my-resource.openai.azure.com/openai/deployments?api-version=2022-12-01',
      method: 'GET',
      headers: { 'api-key': 'azure-key' },
    });
  });

  it('rejects an endpoint that is not a full URL before sending anything', async () => {
    const { fetch, requests } = fakeFetch(() => jsonResponse({}));
    const provider = createChatProvider({ ...config, endpoint: 'my-resource.openai.azure.com' }, { fetch });
    const { error } = await drain(provider.chat({ messages: conversation }));
    expect(isProviderError(error) && error.kind).toBe('invalid-request');
    expect(requests).toHaveLength(0);
  });
});

describe('azure streams', () => {
  it.each(chunkSizes)('skips the prompt-filter chunk with empty choices at %s-byte chunks', async (size) => {
    const { fetch } = fakeFetch(() => streamResponse(azureStream, size));
    const result = await drain(createChatProvider(config, { fetch }).chat({ messages: conversation }));
    expect(result.parts).toEqual([
      { type: 'text-delta', text: 'Grüße' },
      { type: 'text-delta', text: ' aus Azure' },
      { type: 'finish', reason: 'stop', rawReason: 'stop', usage: undefined },
    ]);
  });

  it('reports finish_reason content_filter as a content-filter finish, keeping the text', async () => {
    const stream =
      'data: {"choices":[],"created":0,"id":"","model":"","object":"","prompt_filter_results":[]}\n\n' +
      'data: {"choices":[{"content_filter_results":{},"delta":{"content":"Before"},"finish_reason":null,"index":0}]}\n\n' +
      'data: {"choices":[{"content_filter_results":{"violence":{"filtered":true,"severity":"medium"}},"delta":{},"finish_reason":"content_filter","index":0}]}\n\n' +
      'data: [DONE]\n\n';
    const { fetch } = fakeFetch(() => streamResponse(stream));
    const result = await drain(createChatProvider(config, { fetch }).chat({ messages: conversation }));
    expect([result.text, result.finish?.reason]).toEqual(['Before', 'content-filter']);
  });

  it('ignores trailing asynchronous-filter chunks that carry no delta', async () => {
    const stream =
      'data: {"choices":[{"delta":{"content":"Done"},"finish_reason":"stop","index":0}]}\n\n' +
      'data: {"choices":[{"content_filter_offsets":{"check_offset":0,"start_offset":0,"end_offset":4},"content_filter_results":{},"finish_reason":null,"index":0}]}\n\n' +
      'data: [DONE]\n\n';
    const { fetch } = fakeFetch(() => streamResponse(stream));
    const result = await drain(createChatProvider(config, { fetch }).chat({ messages: conversation }));
    expect([result.text, result.finish?.reason, result.error]).toEqual(['Done', 'stop', undefined]);
  });
});
