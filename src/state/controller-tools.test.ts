import { describe, expect, it, vi } from 'vitest';
import { activePath } from '../domain/message-tree.ts';
import type { MessagePart } from '../domain/conversation.ts';
import type { StreamPart } from '../providers/types.ts';
import {
  active,
  databaseName,
  idle,
  localStorage,
  openTab,
  setUpTabs,
  stored,
  type Tab,
} from './controller-harness.ts';
import type { OfferedTool, ToolOutcome, ToolSource } from '../tools/tool-source.ts';

setUpTabs();

/** A tool source the test drives: each call waits until the test settles it, unless told otherwise. */
function testTools({ destructive = false } = {}) {
  const started: { name: string; args: Record<string, unknown>; signal: AbortSignal }[] = [];
  const pending: ((outcome: ToolOutcome) => void)[] = [];
  let immediate: ToolOutcome | null = null;
  const tool = (name: string, hints = {}): OfferedTool => ({
    server: 'test',
    definition: { name, description: `The ${name} tool`, parameters: { type: 'object', properties: {} } },
    hints,
  });
  const source: ToolSource = {
    id: 'test',
    label: 'Test tools',
    list: () => Promise.resolve([tool('weather'), tool('wipe', destructive ? { destructive: true } : {})]),
    call(name, args, signal) {
      started.push({ name, args, signal });
      if (immediate) return Promise.resolve(immediate);
      return new Promise((resolve) => pending.push(resolve));
    },
  };
  return {
    source,
    started,
    /** Every call from now on returns this at once. */
    answerAll(outcome: ToolOutcome) {
      immediate = outcome;
      for (const resolve of pending.splice(0)) resolve(outcome);
    },
  };
}

const call = (callId: string, name: string, args: string): StreamPart[] => [
  { type: 'tool-call-start', callId, name },
  { type: 'tool-call-delta', callId, delta: args.slice(0, 3) },
  { type: 'tool-call-delta', callId, delta: args.slice(3) },
  { type: 'tool-call-end', callId, arguments: args },
];

/** The next reply: the given calls, then the finish that asks for tools to run. */
function callsNext(tab: Tab, ...parts: StreamPart[]) {
  const reply = tab.provider.next();
  for (const part of parts) reply.push(part);
  reply.finish = { type: 'finish', reason: 'tool-calls' };
  reply.end();
}

async function toolTab(options?: { destructive?: boolean }) {
  const tools = testTools(options);
  const tab = await openTab(`${databaseName}-tools`, 'tools', { toolSources: [tools.source] });
  await tab.chat.newConversation();
  return { tab, tools };
}

const kinds = (parts: readonly MessagePart[]) =>
  parts.map((part) => (part.type === 'text' ? `text:${part.text}` : part.type));
const waitingFor = (tab: Tab) => tab.chat.store.getState().toolApproval;

describe('the tool loop', () => {
  it('asks before a call, runs it, and goes on in the same reply with the result sent back', async () => {
    const { tab, tools } = await toolTab();
    callsNext(tab, { type: 'text-delta', text: 'Let me look.' }, ...call('c1', 'weather', '{"city":"Oslo"}'));
    tab.provider.next('It is sunny in Oslo.');
    await tab.chat.send('Weather in Oslo?');
    await vi.waitFor(() => expect(waitingFor(tab)).toMatchObject({ callId: 'c1' }));
    expect(tab.provider.tools[0]?.map((tool) => tool.name)).toEqual(['weather', 'wipe']);
    expect(tools.started).toEqual([]);

    tab.chat.answerToolCall('once');
    await vi.waitFor(() => expect(tools.started).toHaveLength(1));
    expect(tools.started[0]).toMatchObject({ name: 'weather', args: { city: 'Oslo' } });
    tools.answerAll({ content: [{ type: 'text', text: 'Sunny, 21 °C' }] });
    await idle(tab);

    const reply = activePath(active(tab)).at(-1);
    expect(reply && kinds(reply.parts)).toEqual([
      'text:Let me look.',
      'tool-call',
      'tool-result',
      'text:It is sunny in Oslo.',
    ]);
    expect(reply?.parts[1]).toMatchObject({
      callId: 'c1',
      name: 'weather',
      server: 'test',
      arguments: '{"city":"Oslo"}',
    });
    expect(reply?.parts[2]).toMatchObject({
      callId: 'c1',
      content: [{ type: 'text', text: 'Sunny, 21 °C' }],
    });
    // The second request carries the call and its result, after the question.
    expect(tab.provider.sent[1]?.slice(-2)).toEqual([
      {
        role: 'assistant',
        content: 'Let me look.',
        toolCalls: [{ id: 'c1', name: 'weather', arguments: '{"city":"Oslo"}' }],
      },
      {
        role: 'tool',
        content: '',
        toolResults: [{ callId: 'c1', name: 'weather', content: 'Sunny, 21 °C' }],
      },
    ]);
    expect(activePath(await stored(tab)).at(-1)?.parts).toEqual(reply?.parts);
  });

  it("'Deny' tells the model the user declined; 'Always allow' is remembered and asks no more", async () => {
    const { tab, tools } = await toolTab();
    callsNext(tab, ...call('c1', 'weather', '{}'));
    tab.provider.next('Understood.');
    await tab.chat.send('Weather?');
    await vi.waitFor(() => expect(waitingFor(tab)).not.toBeNull());
    tab.chat.answerToolCall('deny');
    await idle(tab);
    expect(tools.started).toEqual([]);
    expect(tab.provider.sent[1]?.at(-1)?.toolResults).toEqual([
      { callId: 'c1', name: 'weather', content: 'The user declined this call.', isError: true },
    ]);

    tools.answerAll({ content: [{ type: 'text', text: 'Rain' }] });
    callsNext(tab, ...call('c2', 'weather', '{}'));
    tab.provider.next('Rain it is.');
    await tab.chat.send('And now?');
    await vi.waitFor(() => expect(waitingFor(tab)).not.toBeNull());
    tab.chat.answerToolCall('always');
    await idle(tab);
    expect(tab.chat.store.getState().toolSettings.alwaysAllowed).toEqual(['test/weather']);
    expect(JSON.parse(localStorage.getItem('ai-chat-tools') ?? '{}')).toMatchObject({
      alwaysAllowed: ['test/weather'],
    });

    callsNext(tab, ...call('c3', 'weather', '{}'));
    tab.provider.next('Still rain.');
    await tab.chat.send('Again?');
    await idle(tab);
    expect(tools.started).toHaveLength(2);
    tab.chat.revokeToolPermission('test/weather');
    expect(tab.chat.store.getState().toolSettings.alwaysAllowed).toEqual([]);
  });

  it('never remembers a tool its server marks destructive', async () => {
    const { tab, tools } = await toolTab({ destructive: true });
    tools.answerAll({ content: [{ type: 'text', text: 'Wiped' }] });
    callsNext(tab, ...call('c1', 'wipe', '{}'));
    tab.provider.next('Done.');
    await tab.chat.send('Wipe it');
    await vi.waitFor(() => expect(waitingFor(tab)).not.toBeNull());
    tab.chat.answerToolCall('always');
    await idle(tab);
    expect(tools.started).toHaveLength(1);
    expect(tab.chat.store.getState().toolSettings.alwaysAllowed).toEqual([]);
  });

  it('runs parallel calls together once each is allowed; unreadable arguments and unknown tools are answered without asking', async () => {
    const { tab, tools } = await toolTab();
    callsNext(
      tab,
      ...call('c1', 'weather', '{"city":"Oslo"}'),
      ...call('c2', 'weather', '{"city":"Rome"}'),
      ...call('c3', 'weather', '{"city":'),
      ...call('c4', 'teleport', '{}'),
    );
    tab.provider.next('Both done.');
    await tab.chat.send('Two cities');
    await vi.waitFor(() => expect(waitingFor(tab)).toMatchObject({ callId: 'c1' }));
    tab.chat.answerToolCall('once');
    await vi.waitFor(() => expect(waitingFor(tab)).toMatchObject({ callId: 'c2' }));
    // Nothing runs while a call waits for approval.
    expect(tools.started).toEqual([]);
    tab.chat.answerToolCall('once');
    await vi.waitFor(() => expect(tools.started).toHaveLength(2));
    tools.answerAll({ content: [{ type: 'text', text: 'Fine' }] });
    await idle(tab);
    const results = tab.provider.sent[1]?.at(-1)?.toolResults;
    expect(results?.map((result) => [result.callId, result.isError ?? false])).toEqual([
      ['c1', false],
      ['c2', false],
      ['c3', true],
      ['c4', true],
    ]);
    expect(results?.[2]?.content).toMatch(/^The arguments are not valid JSON/);
    expect(results?.[3]?.content).toBe('There is no tool named teleport here.');
  });

  it('stops at the step limit with every call answered', async () => {
    const { tab, tools } = await toolTab();
    tools.answerAll({ content: [{ type: 'text', text: 'again' }] });
    tab.chat.setToolStepLimit(2);
    expect(tab.chat.store.getState().toolSettings.stepLimit).toBe(2);
    // Allowed already (as another tab's 'Always allow' would have stored it).
    const saved = JSON.parse(localStorage.getItem('ai-chat-tools') ?? '{}') as object;
    localStorage.setItem('ai-chat-tools', JSON.stringify({ ...saved, alwaysAllowed: ['test/weather'] }));
    callsNext(tab, ...call('c1', 'weather', '{}'));
    callsNext(tab, ...call('c2', 'weather', '{}'));
    await tab.chat.send('Loop');
    await idle(tab);
    expect(tab.provider.sent).toHaveLength(2);
    expect(tools.started).toHaveLength(1);
    const reply = activePath(active(tab)).at(-1);
    expect(reply?.parts.filter((part) => part.type === 'tool-result').at(-1)).toMatchObject({
      callId: 'c2',
      isError: true,
      content: [{ type: 'text', text: 'Not run: this reply reached its limit of 2 tool steps.' }],
    });
    expect(reply?.notices).toEqual(['Stopped after 2 tool steps (the limit in Tools settings).']);
  });

  it('Stop while a call waits, or while a tool hangs, keeps what happened and answers every call', async () => {
    const { tab, tools } = await toolTab();
    callsNext(tab, ...call('c1', 'weather', '{}'));
    await tab.chat.send('Wait');
    await vi.waitFor(() => expect(waitingFor(tab)).not.toBeNull());
    tab.chat.stop();
    await idle(tab);
    expect(waitingFor(tab)).toBeNull();
    let reply = activePath(active(tab)).at(-1);
    expect(reply).toMatchObject({ status: 'stopped' });
    expect(reply?.parts.at(-2)).toMatchObject({
      type: 'tool-result',
      callId: 'c1',
      content: [{ type: 'text', text: 'Not run: the user stopped the reply.' }],
    });

    callsNext(tab, ...call('c2', 'weather', '{}'));
    await tab.chat.send('Hang');
    await vi.waitFor(() => expect(waitingFor(tab)).not.toBeNull());
    tab.chat.answerToolCall('once');
    await vi.waitFor(() => expect(tools.started).toHaveLength(1));
    tab.chat.stop();
    await idle(tab);
    expect(tools.started[0]?.signal.aborted).toBe(true);
    reply = activePath(active(tab)).at(-1);
    expect(reply?.parts.find((part) => part.type === 'tool-result')).toMatchObject({
      callId: 'c2',
      isError: true,
    });

    // The next message goes out with every earlier call answered.
    tab.provider.next('Hello again');
    await tab.chat.send('Next');
    await idle(tab);
    const sent = tab.provider.sent.at(-1) ?? [];
    const calls = sent.flatMap((message) => message.toolCalls ?? []).map((item) => item.id);
    const answered = sent.flatMap((message) => message.toolResults ?? []).map((item) => item.callId);
    expect(calls).toEqual(['c1', 'c2']);
    expect(answered).toEqual(calls);
  });

  it('offers no tools to a model that takes none, and none that are off in the conversation', async () => {
    const { tab } = await toolTab();
    await tab.chat.setConversationTools(active(tab).id, 'test', false);
    tab.provider.next('No tools.');
    await tab.chat.send('Hi');
    await idle(tab);
    expect(tab.provider.tools[0]).toBeUndefined();
    expect(active(tab).toolSwitches).toEqual({ test: false });
    const sources = await tab.chat.toolSources(active(tab).id);
    expect(sources.map(({ id, on, tools }) => [id, on, tools.length])).toEqual([['test', false, 2]]);
  });
});
