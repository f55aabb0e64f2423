import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { comparedReplies, fuseRequest } from '../domain/compare.ts';
import type { Config } from '../domain/config.ts';
import { messageText, type Conversation, type Message, type ModelPin } from '../domain/conversation.ts';
import { activePath, findMessage } from '../domain/message-tree.ts';
import { ProviderError } from '../providers/provider-error.ts';
import { streamingIdsIn } from './chat-store.ts';
import {
  active,
  config,
  idle,
  sendAndWait,
  setUpTabs,
  shown,
  stored,
  tab,
  type ScriptedReply,
} from './controller-harness.ts';

setUpTabs();

// A failed request is logged as well as shown: kept out of the test output.
beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
});
afterEach(() => {
  vi.restoreAllMocks();
});

const claude: Config = {
  provider: 'claude',
  apiKey: 'sk-ant-test',
  model: 'claude-haiku-4-5',
  temperature: 0.5,
  maxTokens: 2048,
};
const gemini: Config = {
  provider: 'gemini',
  apiKey: 'gemini-test-key',
  model: 'gemini-2.5-flash',
  temperature: 0.7,
  maxTokens: 1024,
};

const gptPin: ModelPin = { provider: 'openai', model: 'gpt-4.1' };
const sonnetPin: ModelPin = { provider: 'claude', model: 'claude-sonnet-4-5' };
const geminiPin: ModelPin = { provider: 'gemini', model: 'gemini-2.5-pro' };
const threeModels = [gptPin, sonnetPin, geminiPin];

/** Claude and Gemini connections saved beside OpenAI's (still the saved one), and the compare set chosen. */
async function compareThree(pins: readonly ModelPin[] = threeModels): Promise<string> {
  expect(tab.chat.saveConfiguration(claude)).toBeNull();
  expect(tab.chat.saveConfiguration(gemini)).toBeNull();
  expect(tab.chat.saveConfiguration(config)).toBeNull();
  const id = active(tab).id;
  await tab.chat.compareModels(id, pins);
  expect(active(tab).compare).toEqual(pins);
  return id;
}

function message(id: string): Message {
  const found = findMessage(active(tab), id);
  if (!found) throw new Error(`no message ${id}`);
  return found;
}

const textOf = (id: string) => messageText(message(id));

interface Round {
  question: Message;
  /** The replies' ids, in column order (gpt, sonnet, gemini). */
  ids: string[];
  /** Each model's scripted reply, by model. */
  scripted: Map<string, ScriptedReply>;
  /** Each model's request, by model. */
  requests: Map<string, (typeof tab.provider.requests)[number]>;
}

/**
 * Sends `text` to every model of the compare set, each reply left open for the test to drive:
 * resolves once every model was asked.
 */
async function sendCompared(text: string, models = threeModels.length): Promise<Round> {
  const before = tab.provider.requests.length;
  const open = Array.from({ length: models }, () => tab.provider.next());
  expect(await tab.chat.send(text)).toBe(true);
  await vi.waitFor(() => expect(tab.provider.requests).toHaveLength(before + models));
  const asked = tab.provider.requests.slice(before);
  // The fake hands its replies out in the order the models were asked: each request got the reply
  // scripted at its place.
  const scripted = new Map(
    asked.map((request, index) => [request.settings?.model ?? '', open[index] as ScriptedReply]),
  );
  const requests = new Map(asked.map((request) => [request.settings?.model ?? '', request]));
  const question = activePath(active(tab)).find(
    (item) => item.role === 'user' && messageText(item) === text && item.compared,
  );
  if (!question?.compared) throw new Error('no compared question');
  return { question, ids: [...question.compared.replyIds], scripted, requests };
}

function reply(round: Round, model: string): ScriptedReply {
  const scripted = round.scripted.get(model);
  if (!scripted) throw new Error(`${model} was not asked`);
  return scripted;
}

/** Each model answers "From {model}" and ends. */
async function answerAll(round: Round) {
  for (const [model, scripted] of round.scripted) {
    scripted.push(`From ${model}`);
    scripted.end();
  }
  await idle(tab);
}

const streamingIds = () => tab.chat.store.getState().streaming?.messageIds ?? [];

const columnsOf = (conversation: Conversation, questionId: string) => {
  const question = findMessage(conversation, questionId);
  return question ? comparedReplies(conversation, question) : [];
};

describe('comparing models', () => {
  it('asks every model of the compare set at once: one column each, in the set’s order, streaming together, the branch on the first', async () => {
    const id = await compareThree();
    const round = await sendCompared('Which sort is fastest?');
    expect(round.ids).toHaveLength(3);
    const [gptId, sonnetId, geminiId] = round.ids as [string, string, string];
    // Streaming together, into this conversation.
    expect(tab.chat.store.getState().streaming).toEqual({ conversationId: id, messageIds: round.ids });
    expect(streamingIdsIn(tab.chat.store.getState(), id)).toEqual(round.ids);
    // Each column is its model's, under the one question.
    expect(
      columnsOf(active(tab), round.question.id).map(({ provider, model, parentId }) => ({
        provider,
        model,
        parentId,
      })),
    ).toEqual(threeModels.map((pin) => ({ ...pin, parentId: round.question.id })));
    expect(active(tab).activeLeafId).toBe(gptId);
    // Each model was asked with its own connection's settings and the same history.
    expect([...round.requests.keys()].sort()).toEqual(['claude-sonnet-4-5', 'gemini-2.5-pro', 'gpt-4.1']);
    expect(round.requests.get('claude-sonnet-4-5')?.settings).toMatchObject({
      temperature: 0.5,
      maxTokens: 2048,
    });
    for (const request of round.requests.values())
      expect(request.messages.map(({ role, content }) => `${role}: ${String(content)}`)).toEqual([
        'system: You are a helpful assistant.',
        'user: Which sort is fastest?',
      ]);
    expect(tab.provider.built.map(({ provider }) => provider)).toEqual(
      expect.arrayContaining(['openai', 'claude', 'gemini']),
    );

    // One ends: the others still stream.
    reply(round, 'gemini-2.5-pro').push('Timsort');
    reply(round, 'gemini-2.5-pro').end();
    await vi.waitFor(() => expect(streamingIds()).toEqual([gptId, sonnetId]));
    expect(textOf(geminiId)).toBe('Timsort');
    reply(round, 'claude-sonnet-4-5').push('Quicksort, ');
    await vi.waitFor(() => expect(textOf(sonnetId)).toBe('Quicksort, '));
    reply(round, 'claude-sonnet-4-5').push('mostly');
    reply(round, 'claude-sonnet-4-5').end();
    reply(round, 'gpt-4.1').push('It depends');
    reply(round, 'gpt-4.1').end();
    await idle(tab);

    expect(
      columnsOf(active(tab), round.question.id).map((column) => [column.id, messageText(column)]),
    ).toEqual([
      [gptId, 'It depends'],
      [sonnetId, 'Quicksort, mostly'],
      [geminiId, 'Timsort'],
    ]);
    for (const columnId of round.ids) expect(message(columnId).status).toBeUndefined();
    expect(shown(tab)).toEqual(['user: Which sort is fastest?', 'assistant: It depends']);
    expect(tab.chat.store.getState().failedTurn).toBeNull();
    // Kept as it is over a reload.
    await vi.waitFor(async () => {
      const copy = await stored(tab);
      expect(findMessage(copy, round.question.id)?.compared).toEqual({ replyIds: round.ids });
      expect(columnsOf(copy, round.question.id).map(messageText)).toEqual([
        'It depends',
        'Quicksort, mostly',
        'Timsort',
      ]);
      expect(copy.activeLeafId).toBe(gptId);
      expect(copy.compare).toEqual(threeModels);
    });
  });

  it('a model that fails keeps its column, with the reason; the others complete and the question is not failed', async () => {
    const id = await compareThree();
    const round = await sendCompared('Hello all');
    const [gptId, sonnetId, geminiId] = round.ids as [string, string, string];
    reply(round, 'claude-sonnet-4-5').push(
      new ProviderError({ provider: 'claude', kind: 'server', status: 503, message: 'Overloaded' }),
    );
    // Failed with nothing received: still a column, while the others stream on.
    await vi.waitFor(() => expect(message(sonnetId).status).toBe('interrupted'));
    expect(streamingIds()).toEqual([gptId, geminiId]);
    expect(message(sonnetId)).toMatchObject({ ...sonnetPin, error: '503 · Overloaded' });
    expect(textOf(sonnetId)).toBe('');
    reply(round, 'gpt-4.1').push('Hi from GPT');
    reply(round, 'gpt-4.1').end();
    reply(round, 'gemini-2.5-pro').push('Hi from Gemini');
    reply(round, 'gemini-2.5-pro').end();
    await idle(tab);

    expect(message(round.question.id).compared?.replyIds).toEqual(round.ids);
    expect(message(round.question.id).error).toBeUndefined();
    expect(tab.chat.store.getState().failedTurn).toBeNull();
    expect([gptId, geminiId].map((column) => [textOf(column), message(column).status])).toEqual([
      ['Hi from GPT', undefined],
      ['Hi from Gemini', undefined],
    ]);
    expect(active(tab).activeLeafId).toBe(gptId);
    expect(tab.calls.filter((call) => call.kind === 'error').map((call) => call.message)).toEqual([
      'Error calling Claude API',
    ]);
    // The failed column is kept over a reload, with its reason.
    await vi.waitFor(async () =>
      expect(findMessage(await stored(tab), sonnetId)).toMatchObject({
        status: 'interrupted',
        error: '503 · Overloaded',
      }),
    );

    // The toast's Retry asks that model again, in the column's place.
    tab.provider.next('Hi from Claude');
    tab.calls.find((call) => call.message === 'Error calling Claude API')?.action?.onClick();
    await vi.waitFor(() => expect(message(round.question.id).compared?.replyIds[1]).not.toBe(sonnetId));
    await idle(tab);
    const replyIds = message(round.question.id).compared?.replyIds ?? [];
    expect(replyIds).toHaveLength(3);
    expect([replyIds[0], replyIds[2]]).toEqual([gptId, geminiId]);
    const retriedId = replyIds[1] as string;
    expect(message(retriedId)).toMatchObject(sonnetPin);
    expect(textOf(retriedId)).toBe('Hi from Claude');
    expect(findMessage(active(tab), sonnetId)).toBeUndefined();
    expect(tab.provider.settings.at(-1)).toMatchObject({ model: 'claude-sonnet-4-5' });
    expect(active(tab).id).toBe(id);
  });

  it('Stop on one column stops that reply only; the others go on', async () => {
    await compareThree();
    const round = await sendCompared('Tell me a story');
    const [gptId, sonnetId, geminiId] = round.ids as [string, string, string];
    for (const model of round.scripted.keys()) reply(round, model).push(`Once, ${model}`);
    await vi.waitFor(() => expect(round.ids.map(textOf).every((text) => text.startsWith('Once'))).toBe(true));

    tab.chat.stop(sonnetId);
    await vi.waitFor(() => expect(streamingIds()).toEqual([gptId, geminiId]));
    expect(message(sonnetId)).toMatchObject({ status: 'stopped' });
    expect(textOf(sonnetId)).toBe('Once, claude-sonnet-4-5');
    expect(round.requests.get('claude-sonnet-4-5')?.signal?.aborted).toBe(true);
    expect(round.requests.get('gpt-4.1')?.signal?.aborted).toBe(false);
    expect(round.requests.get('gemini-2.5-pro')?.signal?.aborted).toBe(false);

    reply(round, 'gpt-4.1').push(' the end.');
    reply(round, 'gpt-4.1').end();
    reply(round, 'gemini-2.5-pro').push(' fin.');
    reply(round, 'gemini-2.5-pro').end();
    await idle(tab);
    expect([textOf(gptId), textOf(geminiId)]).toEqual([
      'Once, gpt-4.1 the end.',
      'Once, gemini-2.5-pro fin.',
    ]);
    expect([message(gptId).status, message(geminiId).status]).toEqual([undefined, undefined]);
    expect(message(sonnetId).status).toBe('stopped');
    // A stop is no failure.
    expect(tab.calls.filter((call) => call.kind === 'error')).toEqual([]);
  });

  it('Stop without a column stops every one', async () => {
    await compareThree();
    const round = await sendCompared('Go');
    for (const model of round.scripted.keys()) reply(round, model).push(`Part of ${model}`);
    await vi.waitFor(() => expect(round.ids.map(textOf).every((text) => text.startsWith('Part'))).toBe(true));
    tab.chat.stop();
    await idle(tab);
    expect(round.ids.map((columnId) => message(columnId).status)).toEqual(['stopped', 'stopped', 'stopped']);
  });

  it('a failed column is asked again in its place while the others still stream, and the branch stays', async () => {
    const id = await compareThree();
    const round = await sendCompared('Explain monads');
    const [gptId, sonnetId, geminiId] = round.ids as [string, string, string];
    reply(round, 'gpt-4.1').push('A monad is');
    await vi.waitFor(() => expect(textOf(gptId)).toBe('A monad is'));
    reply(round, 'claude-sonnet-4-5').push(
      new ProviderError({ provider: 'claude', kind: 'network', message: 'Connection lost' }),
    );
    await vi.waitFor(() => expect(message(sonnetId).status).toBe('interrupted'));
    expect(streamingIds()).toEqual([gptId, geminiId]);

    const again = tab.provider.next();
    const retried = tab.chat.retryCompared(id, sonnetId);
    await vi.waitFor(() => expect(streamingIds()).toHaveLength(3));
    const replyIds = message(round.question.id).compared?.replyIds ?? [];
    const newId = replyIds[1] as string;
    expect(replyIds).toEqual([gptId, newId, geminiId]);
    expect(newId).not.toBe(sonnetId);
    expect(streamingIds()).toEqual([gptId, geminiId, newId]);
    expect(findMessage(active(tab), sonnetId)).toBeUndefined();
    expect(message(newId)).toMatchObject({ ...sonnetPin, parentId: round.question.id });
    expect(active(tab).activeLeafId).toBe(gptId);
    // Asked the question again, without the other columns.
    expect(tab.provider.requests.at(-1)?.settings).toMatchObject({ model: 'claude-sonnet-4-5' });
    expect(tab.provider.sent.at(-1)?.map(({ role }) => role)).toEqual(['system', 'user']);

    again.push('Claude, again');
    again.end();
    reply(round, 'gpt-4.1').push(' a burrito.');
    reply(round, 'gpt-4.1').end();
    reply(round, 'gemini-2.5-pro').push('Gemini says');
    reply(round, 'gemini-2.5-pro').end();
    await retried;
    await idle(tab);
    expect(columnsOf(active(tab), round.question.id).map(messageText)).toEqual([
      'A monad is a burrito.',
      'Claude, again',
      'Gemini says',
    ]);
    expect(message(newId).status).toBeUndefined();
    expect(shown(tab).at(-1)).toBe('assistant: A monad is a burrito.');
    await vi.waitFor(async () => {
      const copy = await stored(tab);
      expect(findMessage(copy, sonnetId)).toBeUndefined();
      expect(findMessage(copy, round.question.id)?.compared?.replyIds).toEqual([gptId, newId, geminiId]);
    });
  });

  it('Continue with one: the question is chosen, the branch goes to it, its model is pinned and the next message asks it alone', async () => {
    const id = await compareThree();
    const round = await sendCompared('Pick a number');
    const geminiId = round.ids[2] as string;
    await answerAll(round);

    await tab.chat.continueWith(id, geminiId);
    expect(message(round.question.id).compared).toEqual({ replyIds: round.ids, chosen: true });
    expect(active(tab).activeLeafId).toBe(geminiId);
    expect(active(tab).pin).toEqual(geminiPin);
    expect(active(tab)).not.toHaveProperty('compare');
    expect(shown(tab)).toEqual(['user: Pick a number', 'assistant: From gemini-2.5-pro']);

    const before = tab.provider.requests.length;
    await sendAndWait(tab, 'Why that one?', 'Because');
    expect(tab.provider.requests).toHaveLength(before + 1);
    expect(tab.provider.settings.at(-1)).toMatchObject({ model: 'gemini-2.5-pro' });
    expect(tab.provider.sent.at(-1)?.map(({ role, content }) => `${role}: ${String(content)}`)).toEqual([
      'system: You are a helpful assistant.',
      'user: Pick a number',
      'assistant: From gemini-2.5-pro',
      'user: Why that one?',
    ]);
    const [question, answer] = activePath(active(tab)).slice(-2);
    expect(question).not.toHaveProperty('compared');
    expect(question?.parentId).toBe(geminiId);
    expect(answer).toMatchObject(geminiPin);
    await vi.waitFor(async () => {
      const copy = await stored(tab);
      expect(copy.pin).toEqual(geminiPin);
      expect(copy).not.toHaveProperty('compare');
      expect(findMessage(copy, round.question.id)?.compared?.chosen).toBe(true);
    });
  });

  it('Continue with one is refused while a column still streams', async () => {
    const id = await compareThree();
    const round = await sendCompared('Wait for it');
    reply(round, 'gpt-4.1').push('Done');
    reply(round, 'gpt-4.1').end();
    await vi.waitFor(() => expect(streamingIds()).toHaveLength(2));
    await tab.chat.continueWith(id, round.ids[0] as string);
    expect(message(round.question.id).compared).toEqual({ replyIds: round.ids });
    expect(active(tab).compare).toEqual(threeModels);
    expect(active(tab).pin).toBeUndefined();
    await answerAll(round);
  });

  it('the next message, while still comparing, asks every model again under the branch’s reply', async () => {
    await compareThree();
    const first = await sendCompared('First question');
    await answerAll(first);
    const branch = first.ids[0] as string;

    const second = await sendCompared('Second question');
    expect(second.question.parentId).toBe(branch);
    expect(second.ids).toHaveLength(3);
    expect(streamingIds()).toEqual(second.ids);
    expect(
      columnsOf(active(tab), second.question.id).map(({ provider, model }) => ({ provider, model })),
    ).toEqual(threeModels);
    // Every model is asked with the branch's history: the first column's answer, not the others'.
    for (const request of second.requests.values())
      expect(request.messages.map(({ role, content }) => `${role}: ${String(content)}`)).toEqual([
        'system: You are a helpful assistant.',
        'user: First question',
        'assistant: From gpt-4.1',
        'user: Second question',
      ]);
    await answerAll(second);
    expect(shown(tab)).toEqual([
      'user: First question',
      'assistant: From gpt-4.1',
      'user: Second question',
      'assistant: From gpt-4.1',
    ]);
    expect(active(tab).activeLeafId).toBe(second.ids[0]);
    // The first turn's columns are unchanged.
    expect(message(first.question.id).compared).toEqual({ replyIds: first.ids });
  });

  it('editing a compared question asks every model again for the new version', async () => {
    const id = await compareThree();
    const first = await sendCompared('Capital of Frnace?');
    await answerAll(first);
    const open = threeModels.map(() => tab.provider.next());
    expect(await tab.chat.edit(id, first.question.id, 'Capital of France?')).toBe(true);
    await vi.waitFor(() => expect(streamingIds()).toHaveLength(3));
    const edited = activePath(active(tab)).find((item) => messageText(item) === 'Capital of France?');
    expect(edited?.id).not.toBe(first.question.id);
    expect(edited?.parentId).toBe(first.question.parentId);
    expect(edited?.compared?.replyIds).toEqual(streamingIds());
    for (const scripted of open) {
      scripted.push('Paris');
      scripted.end();
    }
    await idle(tab);
    expect(columnsOf(active(tab), edited?.id ?? '').map(({ model }) => model)).toEqual(
      threeModels.map(({ model }) => model),
    );
    expect(message(first.question.id).compared).toEqual({ replyIds: first.ids });
  });

  it('Fuse asks one model with every compared answer labelled by its model, and adds its reply as the last column', async () => {
    const id = await compareThree();
    const round = await sendCompared('Best pizza topping?');
    const [gptId, sonnetId, geminiId] = round.ids as [string, string, string];
    reply(round, 'gpt-4.1').push('Basil');
    reply(round, 'gpt-4.1').end();
    reply(round, 'claude-sonnet-4-5').push('Mushrooms');
    reply(round, 'claude-sonnet-4-5').end();
    // Gemini fails with nothing: no answer to merge.
    reply(round, 'gemini-2.5-pro').push(
      new ProviderError({ provider: 'gemini', kind: 'server', status: 500, message: 'Internal' }),
    );
    await idle(tab);

    tab.provider.next('Basil and mushrooms');
    await tab.chat.fuse(id, round.question.id, sonnetPin);
    await idle(tab);
    const request = tab.provider.requests.at(-1);
    expect(request?.settings).toMatchObject({ model: 'claude-sonnet-4-5' });
    const turns = request?.messages ?? [];
    expect(turns.slice(0, -1).map(({ role, content }) => `${role}: ${String(content)}`)).toEqual([
      'system: You are a helpful assistant.',
      'user: Best pizza topping?',
    ]);
    expect(turns.at(-1)).toEqual({
      role: 'user',
      content: fuseRequest([
        { label: 'gpt-4.1', text: 'Basil' },
        { label: 'claude-sonnet-4-5', text: 'Mushrooms' },
      ]),
    });
    expect(String(turns.at(-1)?.content)).not.toContain('gemini');

    const replyIds = message(round.question.id).compared?.replyIds ?? [];
    expect(replyIds.slice(0, 3)).toEqual([gptId, sonnetId, geminiId]);
    expect(replyIds).toHaveLength(4);
    const fusedId = replyIds[3] as string;
    expect(message(fusedId)).toMatchObject({
      ...sonnetPin,
      parentId: round.question.id,
      fusedFrom: [gptId, sonnetId],
    });
    expect(textOf(fusedId)).toBe('Basil and mushrooms');
    // The branch stays where it was: the fused reply is one more column to look at.
    expect(active(tab).activeLeafId).toBe(gptId);
    // The request's extra turn is not kept.
    expect(active(tab).messages.filter(({ role }) => role === 'user')).toHaveLength(1);

    // Fused again: a fused reply is no source.
    tab.provider.next('Basil, mushrooms, and a verdict');
    await tab.chat.fuse(id, round.question.id, gptPin);
    await idle(tab);
    expect(tab.provider.requests.at(-1)?.messages.at(-1)?.content).toBe(
      fuseRequest([
        { label: 'gpt-4.1', text: 'Basil' },
        { label: 'claude-sonnet-4-5', text: 'Mushrooms' },
      ]),
    );
    const after = message(round.question.id).compared?.replyIds ?? [];
    expect(after).toHaveLength(5);
    expect(message(after[4] as string)).toMatchObject({ ...gptPin, fusedFrom: [gptId, sonnetId] });
    await vi.waitFor(async () =>
      expect(findMessage(await stored(tab), fusedId)?.fusedFrom).toEqual([gptId, sonnetId]),
    );

    // Continue with the fused reply: the model that fused it is the conversation's.
    await tab.chat.continueWith(id, fusedId);
    expect(active(tab).pin).toEqual(sonnetPin);
    expect(active(tab).activeLeafId).toBe(fusedId);
  });

  it('Fuse asks nothing with fewer than two answers to merge', async () => {
    const id = await compareThree();
    const round = await sendCompared('Only one answers');
    reply(round, 'gpt-4.1').push('Me');
    reply(round, 'gpt-4.1').end();
    for (const model of ['claude-sonnet-4-5', 'gemini-2.5-pro'])
      reply(round, model).push(new ProviderError({ provider: 'openai', kind: 'server', message: 'no' }));
    await idle(tab);
    const before = tab.provider.requests.length;
    await tab.chat.fuse(id, round.question.id, gptPin);
    expect(tab.provider.requests).toHaveLength(before);
    expect(message(round.question.id).compared?.replyIds).toEqual(round.ids);
  });

  it('what storage holds mid-stream: each reply with text so far as interrupted, one with nothing yet left out', async () => {
    tab.chat.watchBrowser();
    await compareThree();
    const round = await sendCompared('Stream slowly');
    const [gptId, sonnetId, geminiId] = round.ids as [string, string, string];
    reply(round, 'claude-sonnet-4-5').push('Claude so far');
    await vi.waitFor(() => expect(textOf(sonnetId)).toBe('Claude so far'));
    tab.page.fire('hidden');
    await vi.waitFor(async () => {
      const copy = await stored(tab);
      expect(findMessage(copy, sonnetId)).toMatchObject({ status: 'interrupted' });
      expect(messageText(findMessage(copy, sonnetId) as Message)).toBe('Claude so far');
      expect(findMessage(copy, gptId)).toBeUndefined();
      expect(findMessage(copy, geminiId)).toBeUndefined();
      // The branch's reply is not there yet: the stored copy shows the question.
      expect(copy.activeLeafId).toBe(round.question.id);
      expect(findMessage(copy, round.question.id)?.compared?.replyIds).toEqual(round.ids);
    });
    // In memory, the replies stream on unmarked.
    expect(message(sonnetId).status).toBeUndefined();

    reply(round, 'gpt-4.1').push('GPT so far');
    await vi.waitFor(() => expect(textOf(gptId)).toBe('GPT so far'));
    tab.page.fire('hidden');
    await vi.waitFor(async () => {
      const copy = await stored(tab);
      expect(findMessage(copy, gptId)).toMatchObject({ status: 'interrupted' });
      expect(findMessage(copy, sonnetId)).toMatchObject({ status: 'interrupted' });
      expect(findMessage(copy, geminiId)).toBeUndefined();
      expect(copy.activeLeafId).toBe(gptId);
    });

    await answerAll(round);
    await vi.waitFor(async () => {
      const copy = await stored(tab);
      expect(round.ids.map((columnId) => findMessage(copy, columnId)?.status)).toEqual([
        undefined,
        undefined,
        undefined,
      ]);
      expect(columnsOf(copy, round.question.id).map(messageText)).toEqual([
        'GPT so farFrom gpt-4.1',
        'Claude so farFrom claude-sonnet-4-5',
        'From gemini-2.5-pro',
      ]);
    });
  });

  it('the compare set: at least two distinct models, each once; choosing one model stops comparing', async () => {
    const id = await compareThree();
    await tab.chat.compareModels(id, [gptPin, gptPin]);
    expect(active(tab)).not.toHaveProperty('compare');
    await tab.chat.compareModels(id, [gptPin, sonnetPin, gptPin, geminiPin, { ...sonnetPin }]);
    expect(active(tab).compare).toEqual(threeModels);
    await vi.waitFor(async () => expect((await stored(tab)).compare).toEqual(threeModels));
    await tab.chat.pinModel(id, sonnetPin);
    expect(active(tab)).not.toHaveProperty('compare');
    expect(active(tab).pin).toEqual(sonnetPin);
    await vi.waitFor(async () => expect(await stored(tab)).not.toHaveProperty('compare'));
    await sendAndWait(tab, 'Just you', 'Only Claude');
    expect(tab.provider.requests).toHaveLength(1);
    expect(tab.provider.settings.at(-1)).toMatchObject({ model: 'claude-sonnet-4-5' });
    await tab.chat.compareModels(id, null);
    expect(active(tab).pin).toEqual(sonnetPin);
  });

  it('a compare set naming a provider never configured asks to configure it and sends nothing', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const id = await compareThree([gptPin, { provider: 'groq', model: 'llama-3.3-70b-versatile' }]);
    const before = active(tab).messages.length;
    expect(await tab.chat.send('Anyone?')).toBe(false);
    expect(tab.calls.at(-1)).toMatchObject({
      kind: 'error',
      message: 'Please configure Groq settings first',
    });
    expect(tab.provider.requests).toHaveLength(0);
    expect(active(tab).messages).toHaveLength(before);
    expect(tab.chat.store.getState().streaming).toBeNull();
    expect(active(tab).id).toBe(id);
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('Groq'));
  });
});

describe('comparing models: retries, toasts and stops', () => {
  /** Lets whatever a toast's action started run its course. */
  const settle = () => new Promise<void>((resolve) => setTimeout(resolve, 50));

  const errorToasts = (message: string) =>
    tab.calls.filter((call) => call.kind === 'error' && call.message === message);

  /** Every model answered; then Claude fused them and failed with nothing received. */
  async function failedFusion() {
    const id = await compareThree();
    const round = await sendCompared('Best pizza topping?');
    for (const [model, text] of [
      ['gpt-4.1', 'Basil'],
      ['claude-sonnet-4-5', 'Mushrooms'],
      ['gemini-2.5-pro', 'Olives'],
    ] as const) {
      reply(round, model).push(text);
      reply(round, model).end();
    }
    await idle(tab);
    tab.provider
      .next()
      .push(new ProviderError({ provider: 'claude', kind: 'server', status: 503, message: 'Overloaded' }));
    await tab.chat.fuse(id, round.question.id, sonnetPin);
    await idle(tab);
    const replyIds = message(round.question.id).compared?.replyIds ?? [];
    expect(replyIds).toHaveLength(4);
    const fusedId = replyIds[3] as string;
    expect(message(fusedId)).toMatchObject({
      ...sonnetPin,
      status: 'interrupted',
      fusedFrom: round.ids,
    });
    return { id, round, fusedId };
  }

  const fusionOfAll = () =>
    fuseRequest([
      { label: 'gpt-4.1', text: 'Basil' },
      { label: 'claude-sonnet-4-5', text: 'Mushrooms' },
      { label: 'gemini-2.5-pro', text: 'Olives' },
    ]);

  it('Retry on a failed fused column fuses the same answers again, in its place', async () => {
    const { id, round, fusedId } = await failedFusion();
    const before = tab.provider.requests.length;
    tab.provider.next('Basil, mushrooms and olives');
    await tab.chat.retryCompared(id, fusedId);
    await idle(tab);

    expect(tab.provider.requests).toHaveLength(before + 1);
    const request = tab.provider.requests.at(-1);
    expect(request?.settings).toMatchObject({ model: 'claude-sonnet-4-5' });
    expect(request?.messages.map(({ role, content }) => `${role}: ${String(content)}`)).toEqual([
      'system: You are a helpful assistant.',
      'user: Best pizza topping?',
      `user: ${fusionOfAll()}`,
    ]);
    const replyIds = message(round.question.id).compared?.replyIds ?? [];
    expect(replyIds).toHaveLength(4);
    expect(replyIds.slice(0, 3)).toEqual(round.ids);
    const againId = replyIds[3] as string;
    expect(againId).not.toBe(fusedId);
    expect(findMessage(active(tab), fusedId)).toBeUndefined();
    expect(message(againId)).toMatchObject({
      ...sonnetPin,
      parentId: round.question.id,
      fusedFrom: round.ids,
    });
    expect(message(againId).status).toBeUndefined();
    expect(textOf(againId)).toBe('Basil, mushrooms and olives');
    // The branch stays on the first column.
    expect(active(tab).activeLeafId).toBe(round.ids[0]);
  });

  it('a failed fusion’s toast Retry fuses again in the failed column’s place, leaving no extra column', async () => {
    const { round, fusedId } = await failedFusion();
    const [toast] = errorToasts('Error calling Claude API');
    expect(toast?.action?.label).toBe('Retry');
    const before = tab.provider.requests.length;
    tab.provider.next('Fused at last');
    toast?.action?.onClick();
    await vi.waitFor(() => expect(tab.provider.requests).toHaveLength(before + 1));
    await idle(tab);

    expect(tab.provider.requests.at(-1)?.messages.at(-1)).toEqual({ role: 'user', content: fusionOfAll() });
    const replyIds = message(round.question.id).compared?.replyIds ?? [];
    expect(replyIds).toHaveLength(4);
    expect(replyIds.slice(0, 3)).toEqual(round.ids);
    expect(findMessage(active(tab), fusedId)).toBeUndefined();
    expect(columnsOf(active(tab), round.question.id)).toHaveLength(4);
    expect(message(replyIds[3] as string)).toMatchObject({ ...sonnetPin, fusedFrom: round.ids });
    expect(textOf(replyIds[3] as string)).toBe('Fused at last');
  });

  it('a failed column’s toast Retry does nothing once the column was asked again and answered', async () => {
    const id = await compareThree();
    const round = await sendCompared('Hello all');
    const [gptId, sonnetId, geminiId] = round.ids as [string, string, string];
    reply(round, 'claude-sonnet-4-5').push(
      new ProviderError({ provider: 'claude', kind: 'server', status: 503, message: 'Overloaded' }),
    );
    await vi.waitFor(() => expect(message(sonnetId).status).toBe('interrupted'));
    await answerAll(round);
    // The column's own Retry answers.
    tab.provider.next('Hi from Claude');
    await tab.chat.retryCompared(id, sonnetId);
    await idle(tab);
    const replyIds = message(round.question.id).compared?.replyIds ?? [];
    const answeredId = replyIds[1] as string;
    expect(replyIds).toEqual([gptId, answeredId, geminiId]);
    expect(textOf(answeredId)).toBe('Hi from Claude');

    // Then the old toast's Retry: nothing is asked, nothing changes.
    const [toast] = errorToasts('Error calling Claude API');
    const before = tab.provider.requests.length;
    const columns = columnsOf(active(tab), round.question.id);
    tab.provider.next('Claude, once more');
    toast?.action?.onClick();
    await settle();
    expect(tab.provider.requests).toHaveLength(before);
    expect(tab.chat.store.getState().streaming).toBeNull();
    expect(message(round.question.id).compared?.replyIds).toEqual([gptId, answeredId, geminiId]);
    expect(columnsOf(active(tab), round.question.id)).toEqual(columns);
    expect(message(answeredId).status).toBeUndefined();
  });

  it('Retry on a column still streaming does nothing: the column streams on', async () => {
    const id = await compareThree();
    const round = await sendCompared('Keep going');
    const [gptId] = round.ids as [string, string, string];
    reply(round, 'gpt-4.1').push('Still ');
    await vi.waitFor(() => expect(textOf(gptId)).toBe('Still '));
    const before = tab.provider.requests.length;
    tab.provider.next('Replaced');
    const retried = tab.chat.retryCompared(id, gptId);
    await settle();
    expect(tab.provider.requests).toHaveLength(before);
    expect(streamingIds()).toEqual(round.ids);
    expect(message(round.question.id).compared?.replyIds).toEqual(round.ids);
    expect(round.requests.get('gpt-4.1')?.signal?.aborted).toBe(false);

    reply(round, 'gpt-4.1').push('here');
    await answerAll(round);
    await retried;
    expect(textOf(gptId)).toBe('Still hereFrom gpt-4.1');
    expect(message(gptId).status).toBeUndefined();
    expect(message(round.question.id).compared?.replyIds).toEqual(round.ids);
  });

  it('Retry on a column that answered does nothing', async () => {
    const id = await compareThree();
    const round = await sendCompared('Answer me');
    await answerAll(round);
    const before = tab.provider.requests.length;
    const columns = columnsOf(active(tab), round.question.id);
    tab.provider.next('Asked again');
    const retried = tab.chat.retryCompared(id, round.ids[1] as string);
    await settle();
    expect(tab.provider.requests).toHaveLength(before);
    expect(tab.chat.store.getState().streaming).toBeNull();
    await retried;
    expect(message(round.question.id).compared?.replyIds).toEqual(round.ids);
    expect(columnsOf(active(tab), round.question.id)).toEqual(columns);
  });

  it('Retry of the conversation, with a failed column as the branch’s last reply, asks that column again in its place', async () => {
    const id = await compareThree();
    const round = await sendCompared('Explain monads');
    const [gptId, sonnetId, geminiId] = round.ids as [string, string, string];
    reply(round, 'gpt-4.1').push(
      new ProviderError({ provider: 'openai', kind: 'network', message: 'Connection lost' }),
    );
    await vi.waitFor(() => expect(message(gptId).status).toBe('interrupted'));
    reply(round, 'claude-sonnet-4-5').push('Claude explains');
    reply(round, 'claude-sonnet-4-5').end();
    reply(round, 'gemini-2.5-pro').push('Gemini explains');
    reply(round, 'gemini-2.5-pro').end();
    await idle(tab);
    expect(activePath(active(tab)).at(-1)?.id).toBe(gptId);

    const before = tab.provider.requests.length;
    tab.provider.next('GPT explains');
    await tab.chat.retry(id);
    await idle(tab);
    expect(tab.provider.requests).toHaveLength(before + 1);
    expect(tab.provider.settings.at(-1)).toMatchObject({ model: 'gpt-4.1' });
    expect(tab.provider.sent.at(-1)?.map(({ role, content }) => `${role}: ${String(content)}`)).toEqual([
      'system: You are a helpful assistant.',
      'user: Explain monads',
    ]);
    const replyIds = message(round.question.id).compared?.replyIds ?? [];
    const newId = replyIds[0] as string;
    expect(replyIds).toEqual([newId, sonnetId, geminiId]);
    expect(newId).not.toBe(gptId);
    expect(findMessage(active(tab), gptId)).toBeUndefined();
    expect(message(newId)).toMatchObject({ ...gptPin, parentId: round.question.id });
    expect(message(newId).status).toBeUndefined();
    expect(columnsOf(active(tab), round.question.id).map(messageText)).toEqual([
      'GPT explains',
      'Claude explains',
      'Gemini explains',
    ]);
    // Every reply under the question is one of its columns.
    expect(
      active(tab)
        .messages.filter(({ parentId }) => parentId === round.question.id)
        .map(({ id: replyId }) => replyId)
        .sort(),
    ).toEqual([...replyIds].sort());
    expect(active(tab).activeLeafId).toBe(newId);
    // Still comparing.
    expect(active(tab).compare).toEqual(threeModels);
    expect(message(round.question.id).compared?.chosen).toBeUndefined();
  });

  it('a column stopped before anything arrived stays as its column, marked stopped, and the branch stays', async () => {
    const id = await compareThree();
    const round = await sendCompared('Take your time');
    const [gptId, sonnetId, geminiId] = round.ids as [string, string, string];
    expect(active(tab).activeLeafId).toBe(gptId);
    tab.chat.stop(gptId);
    await vi.waitFor(() => expect(streamingIds()).toEqual([sonnetId, geminiId]));
    expect(message(gptId)).toMatchObject({ ...gptPin, parentId: round.question.id, status: 'stopped' });
    expect(textOf(gptId)).toBe('');
    expect(message(round.question.id).compared?.replyIds).toEqual(round.ids);
    expect(active(tab).activeLeafId).toBe(gptId);

    reply(round, 'claude-sonnet-4-5').push('Claude');
    reply(round, 'claude-sonnet-4-5').end();
    reply(round, 'gemini-2.5-pro').push('Gemini');
    reply(round, 'gemini-2.5-pro').end();
    await idle(tab);
    expect(columnsOf(active(tab), round.question.id).map(({ id: columnId }) => columnId)).toEqual(round.ids);
    expect(message(gptId).status).toBe('stopped');
    expect(active(tab).activeLeafId).toBe(gptId);
    expect(message(round.question.id).error).toBeUndefined();
    expect(tab.chat.store.getState().failedTurn).toBeNull();
    // A stop is no failure.
    expect(tab.calls.filter((call) => call.kind === 'error')).toEqual([]);
    expect(active(tab).id).toBe(id);
    await vi.waitFor(async () => {
      const copy = await stored(tab);
      expect(findMessage(copy, gptId)).toMatchObject({ status: 'stopped' });
      expect(findMessage(copy, round.question.id)?.compared?.replyIds).toEqual(round.ids);
      expect(copy.activeLeafId).toBe(gptId);
    });
  });

  it('Continue with one does nothing for a reply whose question was not compared', async () => {
    await sendAndWait(tab, 'Hi', 'Hello');
    const single = activePath(active(tab)).at(-1) as Message;
    const id = await compareThree();
    const round = await sendCompared('Now all of you');
    await answerAll(round);
    const leaf = active(tab).activeLeafId;

    await tab.chat.continueWith(id, single.id);
    expect(active(tab).pin).toBeUndefined();
    expect(active(tab).compare).toEqual(threeModels);
    expect(active(tab).activeLeafId).toBe(leaf);
    expect(message(round.question.id).compared).toEqual({ replyIds: round.ids });
    expect(findMessage(active(tab), single.parentId ?? '')).not.toHaveProperty('compared');
    await settle();
    const copy = await stored(tab);
    expect(copy.compare).toEqual(threeModels);
    expect(copy.pin).toBeUndefined();
  });
});
