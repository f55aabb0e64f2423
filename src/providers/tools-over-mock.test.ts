import { describe, expect, it } from 'vitest';
import type { Config } from '../domain/config.ts';
import type { ReasoningPart } from '../domain/conversation.ts';
import type { ToolDefinition } from '../domain/tools.ts';
import { mockProvidersForThisFile } from '../../tools/mock-providers/use-mock.ts';
import { mockConfigs, httpProviderIds, type HttpProviderId } from './__fixtures__/configs.ts';
import { drain } from './__fixtures__/fake-fetch.ts';
import { createChatProvider } from './registry.ts';
import type { ChatMessage, ChatRequest, ChatToolCall, StreamPart } from './types.ts';

/** Tool calling over real HTTP against the loopback mock: what each client sends, the mock (and each API) accepts. */

const mock = mockProvidersForThisFile();
const configFor = mockConfigs(() => mock().url);

const weather: ToolDefinition = {
  name: 'weather',
  description: 'The weather in a city',
  parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
};

/** A turn as the app keeps it: its reasoning (to send back) and its calls, from the stream. */
function turnOf(parts: readonly StreamPart[]): ChatMessage {
  const reasoning: ReasoningPart[] = [];
  const calls = new Map<string, ChatToolCall>();
  let text = '';
  for (const part of parts) {
    if (part.type === 'text-delta') text += part.text;
    if (part.type === 'reasoning-delta') {
      const last = reasoning.at(-1);
      if (last && !last.signature) last.text += part.text;
      else reasoning.push({ type: 'reasoning', text: part.text });
    }
    if (part.type === 'reasoning-end' && part.signature) {
      const last = reasoning.at(-1);
      if (last && !last.signature) last.signature = part.signature;
      else reasoning.push({ type: 'reasoning', text: '', signature: part.signature });
    }
    if (part.type === 'reasoning-redacted')
      reasoning.push({ type: 'reasoning', text: '', signature: part.data, redacted: true });
    if (part.type === 'tool-call-start')
      calls.set(part.callId, { id: part.callId, name: part.name, arguments: '' });
    if (part.type === 'tool-call-end') {
      const call = calls.get(part.callId);
      if (call) {
        call.arguments = part.arguments;
        if (part.providerData) call.providerData = part.providerData;
      }
    }
  }
  return {
    role: 'assistant',
    content: text,
    ...(reasoning.length > 0 && { reasoning }),
    toolCalls: [...calls.values()],
  };
}

/** Asks with the weather tool, runs its call(s) here, and asks again with the results. */
async function roundTrip(config: Config, question: string, request: Partial<ChatRequest> = {}) {
  const client = createChatProvider(config);
  const history: ChatMessage[] = [{ role: 'user', content: question }];
  const first = await drain(client.chat({ messages: history, tools: [weather], ...request }));
  expect(first.error).toBeUndefined();
  expect(first.finish).toMatchObject({ reason: 'tool-calls' });
  const turn = turnOf(first.parts);
  const results = (turn.toolCalls ?? []).map((call) => ({
    callId: call.id,
    name: call.name,
    content: `Sunny in ${(JSON.parse(call.arguments) as { city: string }).city}`,
  }));
  const second = await drain(
    client.chat({
      messages: [...history, turn, { role: 'tool', content: '', toolResults: results }],
      tools: [weather],
      ...request,
    }),
  );
  return { first, turn, second };
}

// The browser's own model takes no tools and makes no HTTP request.
const hosted = httpProviderIds.filter((id): id is Exclude<HttpProviderId, 'custom'> => id !== 'custom');
const recipe = (...cities: string[]) =>
  JSON.stringify({ call: cities.map((city) => ({ name: 'weather', arguments: { city } })) });

describe.each(hosted)('%s: tools over HTTP', (id) => {
  it.each([true, false])('a call, its result sent back, then the answer (stream %s)', async (stream) => {
    const { turn, second } = await roundTrip(configFor(id, 'tools'), recipe('Oslo'), { stream });
    expect(turn.toolCalls).toMatchObject([{ name: 'weather', arguments: JSON.stringify({ city: 'Oslo' }) }]);
    expect(second.error).toBeUndefined();
    expect(second.text).toBe('Tool results: weather: Sunny in Oslo');
  });

  it('parallel calls, answered together', async () => {
    const { turn, second } = await roundTrip(configFor(id, 'tools'), recipe('Oslo', 'Rome'));
    expect(turn.toolCalls?.map((call) => call.arguments)).toEqual([
      JSON.stringify({ city: 'Oslo' }),
      JSON.stringify({ city: 'Rome' }),
    ]);
    expect(second.error).toBeUndefined();
    expect(second.text).toBe('Tool results: weather: Sunny in Oslo; weather: Sunny in Rome');
  });
});

describe('tools with thinking: what must go back unchanged does', () => {
  it("Claude: the signed thinking goes back before tool_use, and the mock's check passes", async () => {
    const config = configFor('claude', 'tools-thinking', { model: 'claude-sonnet-4-5' });
    const { turn, second } = await roundTrip(config, recipe('Oslo'), { effort: 'medium' });
    expect(turn.reasoning?.some((part) => part.signature)).toBe(true);
    expect(second.error).toBeUndefined();
    expect(second.text).toBe('Tool results: weather: Sunny in Oslo');
  });

  it("Gemini 3: the first call's signature goes back to the model that wrote it", async () => {
    const config = configFor('gemini', 'tools-thinking', { model: 'gemini-3-pro-preview' });
    const { turn, second } = await roundTrip(config, recipe('Oslo', 'Rome'));
    expect(turn.toolCalls?.[0]?.providerData?.data.thoughtSignature).toBeTruthy();
    expect(turn.toolCalls?.[1]?.providerData).toBeUndefined();
    expect(second.error).toBeUndefined();
    expect(second.text).toBe('Tool results: weather: Sunny in Oslo; weather: Sunny in Rome');
  });

  it('OpenAI Responses: the reasoning items of the turn go back with the calls', async () => {
    const config = configFor('openai', 'tools-thinking', { model: 'o3' });
    const { turn, second } = await roundTrip(config, recipe('Oslo'), { effort: 'low' });
    expect(turn.reasoning?.length).toBeGreaterThan(0);
    expect(second.error).toBeUndefined();
    expect(second.text).toBe('Tool results: weather: Sunny in Oslo');
  });

  it("Groq: a failed tool call is the provider's refusal, explained", async () => {
    const client = createChatProvider(configFor('groq', 'tools-failed'));
    const result = await drain(
      client.chat({ messages: [{ role: 'user', content: 'Oslo' }], tools: [weather] }),
    );
    expect(result.error).toMatchObject({ kind: 'invalid-request' });
    expect(String((result.error as Error).message)).toMatch(/tool_use_failed/);
  });
});
