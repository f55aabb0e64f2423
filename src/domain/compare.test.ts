import { describe, expect, it } from 'vitest';
import { normalized, treeConversation } from './__fixtures__/conversations.ts';
import {
  addCompared,
  chooseCompared,
  comparedReplies,
  compareSize,
  distinctPins,
  fuseRequest,
  openComparison,
  pinOfReply,
  samePin,
  setCompare,
} from './compare.ts';
import { defaultConfig } from './config.ts';
import type { Conversation, Message, ModelPin } from './conversation.ts';
import { conversationRecord } from './conversation-record.ts';
import { setModelPin } from './conversation-rules.ts';
import { validateConversation } from './conversation-validation.ts';
import { buildExport, parseImport } from './export-format.ts';
import { findMessage, mergeConversations } from './message-tree.ts';

const gpt: ModelPin = { provider: 'openai', model: 'gpt-4.1' };
const sonnet: ModelPin = { provider: 'claude', model: 'claude-sonnet-4-5' };
const gemini: ModelPin = { provider: 'gemini', model: 'gemini-2.5-pro' };
const haiku: ModelPin = { provider: 'claude', model: 'claude-haiku-4-5' };
const groq: ModelPin = { provider: 'groq', model: 'llama-3.3-70b-versatile' };
const local: ModelPin = { provider: 'custom', model: 'llama3', endpointId: 'ep-1' };

const at = (day: number) => new Date(Date.UTC(2026, 1, day));
const now = new Date('2026-03-01T00:00:00.000Z');
const options = { now, fallbackProvider: 'openai' as const };

/**
 * root
 * └ u1 "Which is best?"      compared: a1, a2, a3, f1
 *   ├ a1 "Answer A"          (gpt-4.1, shown)
 *   │ └ u2 "Why?"
 *   │   └ a4 "Because"
 *   ├ a2 "Answer B"          (claude-sonnet-4-5)
 *   ├ a3 ""                  (gemini, failed: interrupted with its reason)
 *   └ f1 "Fused"             (claude-sonnet-4-5, fused from a1 and a2)
 */
const compared: Conversation = {
  ...treeConversation(
    'c',
    [
      ['root', null, 'system', 'Be brief.'],
      ['u1', 'root', 'user', 'Which is best?', { compared: { replyIds: ['a1', 'a2', 'a3', 'f1'] } }],
      ['a1', 'u1', 'assistant', 'Answer A', { ...gpt }],
      ['a2', 'u1', 'assistant', 'Answer B', { ...sonnet }],
      ['a3', 'u1', 'assistant', '', { ...gemini, status: 'interrupted', error: '503 · Overloaded' }],
      ['f1', 'u1', 'assistant', 'Fused', { ...sonnet, fusedFrom: ['a1', 'a2'] }],
      ['u2', 'a1', 'user', 'Why?'],
      ['a4', 'u2', 'assistant', 'Because'],
    ],
    { activeLeafId: 'a4' },
  ),
  compare: [gpt, sonnet, gemini],
  pinnedAt: at(1).toISOString(),
};

const messageOf = (conversation: Conversation, id: string): Message => {
  const message = findMessage(conversation, id);
  if (!message) throw new Error(`no message ${id}`);
  return message;
};

/** The record as JSON text and back: what storage (structured clone) and a file both keep. */
function written(value: unknown): Record<string, unknown> {
  return JSON.parse(JSON.stringify(value)) as Record<string, unknown>;
}

function read(value: unknown): Conversation {
  const result = validateConversation(value, 'record', options);
  if (!result.ok) throw new Error(result.problem);
  return result.value;
}

/** The written record with one message's fields replaced (found by id, on the path or off it). */
function withMessageFields(id: string, fields: Record<string, unknown>): Record<string, unknown> {
  const record = written(conversationRecord(compared));
  const edit = (list: unknown) =>
    (list as Record<string, unknown>[]).map((item) => (item.id === id ? { ...item, ...fields } : item));
  return { ...record, messages: edit(record.messages), otherMessages: edit(record.otherMessages) };
}

describe('the compare set', () => {
  it('asks 2 to 4 models', () => {
    expect(compareSize).toEqual({ min: 2, max: 4 });
  });

  it('tells one model from another by provider, model and endpoint (no endpoint and an empty one are the same)', () => {
    expect(samePin(gpt, { provider: 'openai', model: 'gpt-4.1' })).toBe(true);
    expect(samePin(gpt, { provider: 'azure', model: 'gpt-4.1' })).toBe(false);
    expect(samePin(gpt, { provider: 'openai', model: 'gpt-4o' })).toBe(false);
    expect(samePin(local, { ...local, endpointId: 'ep-2' })).toBe(false);
    expect(samePin({ ...gpt, endpointId: '' }, gpt)).toBe(true);
  });

  it('keeps each model once, in order, at most four, as copies', () => {
    const pins = [gpt, sonnet, { ...gpt }, gemini, sonnet, haiku, groq, local];
    const kept = distinctPins(pins);
    expect(kept).toEqual([gpt, sonnet, gemini, haiku]);
    expect(kept[0]).not.toBe(gpt);
    expect(distinctPins([local, { ...local, endpointId: 'ep-2' }])).toHaveLength(2);
    expect(distinctPins([])).toEqual([]);
  });

  it('is chosen with a time, like the model picker; fewer than two distinct models is no compare set', () => {
    const plain = treeConversation('p', [['root', null, 'system', '']]);
    const chosen = setCompare(plain, [gpt, sonnet, gpt, gemini], at(2));
    expect(chosen.compare).toEqual([gpt, sonnet, gemini]);
    expect(chosen.pinnedAt).toBe(at(2).toISOString());
    expect(plain.compare).toBeUndefined();

    expect(setCompare(plain, [gpt, sonnet, gemini, haiku, groq, local], at(2)).compare).toEqual([
      gpt,
      sonnet,
      gemini,
      haiku,
    ]);
    for (const pins of [null, [], [gpt], [gpt, { ...gpt }]]) {
      const none = setCompare(chosen, pins, at(3));
      expect(none).not.toHaveProperty('compare');
      expect(none.pinnedAt).toBe(at(3).toISOString());
    }
    // The conversation's own model stays for when it asks one model again.
    const pinned = setModelPin(plain, haiku, at(1));
    expect(setCompare(pinned, [gpt, sonnet], at(2)).pin).toEqual(haiku);
  });

  it('is cleared when one model is chosen, or the saved configuration followed again', () => {
    const chosen = setCompare(treeConversation('p', [['root', null, 'system', '']]), [gpt, sonnet], at(2));
    const one = setModelPin(chosen, gemini, at(3));
    expect(one).not.toHaveProperty('compare');
    expect([one.pin, one.pinnedAt]).toEqual([gemini, at(3).toISOString()]);
    expect(setModelPin(chosen, null, at(3))).not.toHaveProperty('compare');
  });
});

describe('a compared question', () => {
  it('lists its replies that still exist, in column order; an id naming no reply of its own is skipped', () => {
    const question = messageOf(compared, 'u1');
    expect(comparedReplies(compared, question).map(({ id }) => id)).toEqual(['a1', 'a2', 'a3', 'f1']);
    // A hostile list: a missing id, a message under another parent, the question itself.
    const odd = { ...question, compared: { replyIds: ['gone', 'a4', 'a2', 'u1', 'a1'] } };
    expect(comparedReplies(compared, odd).map(({ id }) => id)).toEqual(['a2', 'a1']);
    expect(comparedReplies(compared, messageOf(compared, 'u2'))).toEqual([]);
  });

  it('is open until a reply is chosen, and while any of its replies is left', () => {
    const question = messageOf(compared, 'u1');
    expect(openComparison(compared, question)?.map(({ id }) => id)).toEqual(['a1', 'a2', 'a3', 'f1']);
    expect(openComparison(compared, messageOf(compared, 'u2'))).toBeNull();
    expect(openComparison(compared, messageOf(compared, 'a1'))).toBeNull();
    expect(
      openComparison(compared, { ...question, compared: { replyIds: ['a1'], chosen: true } }),
    ).toBeNull();
    expect(openComparison(compared, { ...question, compared: { replyIds: ['gone'] } })).toBeNull();
  });

  it('takes a new column after the others, or in the place of the one asked again, and is marked edited', () => {
    const added = addCompared(compared, 'u1', 'a5', at(5));
    expect(messageOf(added, 'u1').compared).toEqual({ replyIds: ['a1', 'a2', 'a3', 'f1', 'a5'] });
    expect(messageOf(added, 'u1').editedAt).toBe(at(5).toISOString());

    const replaced = addCompared(compared, 'u1', 'a6', at(6), 'a3');
    expect(messageOf(replaced, 'u1').compared?.replyIds).toEqual(['a1', 'a2', 'a6', 'f1']);
    // Replacing an id it does not list: the column joins at the end.
    expect(messageOf(addCompared(compared, 'u1', 'a7', at(7), 'nope'), 'u1').compared?.replyIds).toEqual([
      'a1',
      'a2',
      'a3',
      'f1',
      'a7',
    ]);
    // A question asked of one model gets its first column.
    expect(messageOf(addCompared(compared, 'u2', 'a8', at(8)), 'u2').compared).toEqual({ replyIds: ['a8'] });
    expect(addCompared(compared, 'missing', 'a9', at(9))).toBe(compared);
  });

  it('keeps a chosen question chosen when a column joins it or replaces one', () => {
    const chosen = chooseCompared(compared, 'a2', at(4));
    const added = addCompared(chosen, 'u1', 'a5', at(5));
    expect(messageOf(added, 'u1').compared).toEqual({
      replyIds: ['a1', 'a2', 'a3', 'f1', 'a5'],
      chosen: true,
    });
    const replaced = addCompared(chosen, 'u1', 'a6', at(6), 'a3');
    expect(messageOf(replaced, 'u1').compared).toEqual({ replyIds: ['a1', 'a2', 'a6', 'f1'], chosen: true });
    expect(openComparison(replaced, messageOf(replaced, 'u1'))).toBeNull();
  });

  it('Continue with one: the question is chosen, its columns kept, and the branch goes to the newest leaf under the reply', () => {
    const second = chooseCompared(compared, 'a2', at(4));
    expect(messageOf(second, 'u1').compared).toEqual({ replyIds: ['a1', 'a2', 'a3', 'f1'], chosen: true });
    expect(messageOf(second, 'u1').editedAt).toBe(at(4).toISOString());
    expect(second.activeLeafId).toBe('a2');
    expect(chooseCompared(compared, 'a1', at(4)).activeLeafId).toBe('a4');
    // Not a compared reply, or no reply at all: nothing changes.
    expect(chooseCompared(compared, 'a4', at(4))).toBe(compared);
    expect(chooseCompared(compared, 'gone', at(4))).toBe(compared);
    expect(chooseCompared(compared, 'root', at(4))).toBe(compared);
  });

  it("names a reply's model as the compare set does, with its endpoint", () => {
    const custom = {
      ...compared,
      compare: [gpt, local],
    };
    const reply = messageOf(compared, 'a1');
    expect(pinOfReply(compared, reply)).toEqual(gpt);
    expect(pinOfReply(custom, { ...reply, provider: 'custom', model: 'llama3' })).toEqual(local);
    // Outside the compare set: its provider and model.
    expect(pinOfReply(compared, { ...reply, ...haiku })).toEqual(haiku);
    expect(pinOfReply({ ...compared, compare: undefined }, messageOf(compared, 'a2'))).toEqual(sonnet);
    expect(pinOfReply(compared, messageOf(compared, 'u1'))).toBeNull();
    expect(pinOfReply(compared, { ...reply, model: undefined })).toBeNull();
  });

  it('Fuse asks with every answer numbered and labelled with its model, then how to merge them', () => {
    const text = fuseRequest([
      { label: 'gpt-4.1', text: 'Answer A' },
      { label: 'claude-sonnet-4-5', text: 'Answer B\nwith a second line' },
    ]);
    expect(text).toContain(
      '<answer number="1" model="gpt-4.1">\nAnswer A\n</answer>\n\n' +
        '<answer number="2" model="claude-sonnet-4-5">\nAnswer B\nwith a second line\n</answer>',
    );
    expect(text.startsWith('Several models answered my last message.')).toBe(true);
    expect(text).toMatch(/combines the best of them/);
    expect(text.indexOf('Answer B')).toBeGreaterThan(text.indexOf('Answer A'));
  });
});

describe('compare in the written form', () => {
  it('round-trips the compare set, the columns of a question, the chosen mark and a fused reply', () => {
    const chosen = chooseCompared(compared, 'a2', at(4));
    for (const conversation of [compared, chosen]) {
      const back = read(written(conversationRecord(conversation)));
      expect(normalized(back)).toEqual(normalized(conversation));
    }
    const back = read(written(conversationRecord(chosen)));
    expect(back.compare).toEqual([gpt, sonnet, gemini]);
    expect(messageOf(back, 'u1').compared).toEqual({ replyIds: ['a1', 'a2', 'a3', 'f1'], chosen: true });
    expect(messageOf(back, 'f1').fusedFrom).toEqual(['a1', 'a2']);
    // A failed column with nothing in it is kept, with its reason.
    expect(messageOf(back, 'a3')).toMatchObject({ status: 'interrupted', error: '503 · Overloaded' });
  });

  it('writes copies: changing the record does not change the conversation', () => {
    const record = conversationRecord(compared);
    record.compare?.push(haiku);
    const question = [...record.messages, ...(record.otherMessages ?? [])].find(({ id }) => id === 'u1');
    question?.compared?.replyIds.push('x');
    expect(compared.compare).toHaveLength(3);
    expect(messageOf(compared, 'u1').compared?.replyIds).toHaveLength(4);
  });

  it('keeps all of it through an exported file', () => {
    const text = buildExport({
      config: defaultConfig,
      conversations: [compared],
      activeConversationId: 'c',
      includeApiKey: false,
      now,
    });
    const result = parseImport(text, { now });
    if (!result.ok) throw new Error(result.problem);
    const [back] = result.data.conversations ?? [];
    expect(back && normalized(back)).toEqual(normalized({ ...compared, order: 0 }));
  });

  it('reads a hostile compare set as 2 to 4 usable models, each once, or as none', () => {
    const record = written(conversationRecord(compared));
    const compareOf = (value: unknown) => read({ ...record, compare: value }).compare;
    expect(compareOf([gpt])).toBeUndefined();
    expect(compareOf([gpt, { ...gpt }])).toBeUndefined();
    expect(compareOf([gpt, sonnet, gpt, sonnet])).toEqual([gpt, sonnet]);
    const twenty = Array.from({ length: 20 }, (_, index) => ({ provider: 'openai', model: `m-${index}` }));
    expect(compareOf(twenty)).toEqual(twenty.slice(0, 4));
    // Only the first 16 entries are looked at: repeats there leave too few.
    expect(compareOf([...Array.from({ length: 16 }, () => gpt), sonnet, gemini])).toBeUndefined();
    expect(
      compareOf([
        { provider: 'mistral', model: 'large' },
        { provider: 'claude', model: '  ' },
        { provider: 'openai' },
        'gpt-4.1',
        null,
        7,
        gpt,
        sonnet,
      ]),
    ).toEqual([gpt, sonnet]);
    expect(compareOf([{ provider: 'mistral', model: 'large' }, gpt])).toBeUndefined();
    expect(compareOf([{ ...local, endpointId: 7 }, local])).toEqual([
      { provider: 'custom', model: 'llama3' },
      local,
    ]);
    for (const junk of ['gpt-4.1', { 0: gpt, 1: sonnet }, null, 42, []])
      expect(compareOf(junk)).toBeUndefined();
    // The rest of the conversation reads as before.
    expect(normalized({ ...read({ ...record, compare: 'x' }), compare: compared.compare })).toEqual(
      normalized(compared),
    );
  });

  it("reads a hostile question's columns within bounds: only non-empty string ids, each once, at most 64", () => {
    const comparedOf = (value: unknown) =>
      messageOf(read(withMessageFields('u1', { compared: value })), 'u1').compared;
    expect(
      comparedOf({ replyIds: [1, null, 'a1', '', { id: 'a2' }, ['a2'], 'x'.repeat(257), 'a1', 'a2'] }),
    ).toEqual({ replyIds: ['a1', 'a2'] });
    expect(comparedOf({ replyIds: ['y'.repeat(256)] })).toEqual({ replyIds: ['y'.repeat(256)] });
    const huge = Array.from({ length: 100_000 }, (_, index) => `r${index}`);
    expect(comparedOf({ replyIds: huge })?.replyIds).toEqual(huge.slice(0, 64));
    expect(comparedOf({ replyIds: [...Array.from({ length: 50 }, () => 'a1'), 'a2'] })).toEqual({
      replyIds: ['a1', 'a2'],
    });
    // Chosen only when it says true.
    expect(comparedOf({ replyIds: ['a1'], chosen: 'yes' })).toEqual({ replyIds: ['a1'] });
    expect(comparedOf({ replyIds: ['a1'], chosen: 1 })).toEqual({ replyIds: ['a1'] });
    expect(comparedOf({ replyIds: ['a1'], chosen: true })).toEqual({ replyIds: ['a1'], chosen: true });
    for (const junk of [
      { replyIds: [] },
      { replyIds: [1, 2, null] },
      { replyIds: 'a1' },
      { chosen: true },
      ['a1', 'a2'],
      'a1',
      null,
      7,
    ])
      expect(comparedOf(junk)).toBeUndefined();
    // An inherited field is not read.
    expect(comparedOf(Object.create({ replyIds: ['a1'] }))).toBeUndefined();
    // Only a question is compared.
    expect(
      messageOf(read(withMessageFields('a1', { compared: { replyIds: ['a2'] } })), 'a1'),
    ).not.toHaveProperty('compared');
  });

  it('reads hostile fused-from ids the same way, on replies only', () => {
    const fusedOf = (value: unknown, id = 'f1') =>
      messageOf(read(withMessageFields(id, { fusedFrom: value })), id).fusedFrom;
    expect(fusedOf(['a1', 3, '', null, 'a2', 'a1', { id: 'a3' }])).toEqual(['a1', 'a2']);
    expect(fusedOf(Array.from({ length: 100 }, (_, index) => `r${index}`))).toHaveLength(64);
    for (const junk of ['a1', { 0: 'a1' }, [], [1, false], null, true]) expect(fusedOf(junk)).toBeUndefined();
    expect(fusedOf(['a1', 'a2'], 'u1')).toBeUndefined();
    // The rest of the reply reads as before.
    expect(messageOf(read(withMessageFields('f1', { fusedFrom: 'junk' })), 'f1')).toMatchObject({
      ...sonnet,
      parts: [{ type: 'text', text: 'Fused' }],
    });
  });
});

describe('compare and a merge of two copies', () => {
  const plain = treeConversation('m', [
    ['root', null, 'system', ''],
    ['u1', 'root', 'user', 'Hi'],
  ]);

  it('takes the compare set of the copy that chose later, with its pin', () => {
    const comparing = setCompare(setModelPin(plain, haiku, at(1)), [gpt, sonnet], at(2));
    const pinnedLater = setModelPin(comparing, gemini, at(3));
    for (const merged of [
      mergeConversations(comparing, pinnedLater),
      mergeConversations(pinnedLater, comparing),
    ]) {
      expect(merged.pin).toEqual(gemini);
      expect(merged).not.toHaveProperty('compare');
      expect(merged.pinnedAt).toBe(at(3).toISOString());
    }
    const comparingLater = setCompare(pinnedLater, [gemini, groq, haiku], at(4));
    for (const merged of [
      mergeConversations(pinnedLater, comparingLater),
      mergeConversations(comparingLater, pinnedLater),
    ]) {
      expect(merged.compare).toEqual([gemini, groq, haiku]);
      expect(merged.pin).toEqual(gemini);
      expect(merged.pinnedAt).toBe(at(4).toISOString());
    }
    // Stopping comparing later wins too.
    const stopped = setCompare(comparingLater, null, at(5));
    expect(mergeConversations(comparingLater, stopped)).not.toHaveProperty('compare');
    expect(mergeConversations(stopped, comparingLater)).not.toHaveProperty('compare');
    // A copy that never chose keeps the other's set.
    expect(mergeConversations(plain, comparing).compare).toEqual([gpt, sonnet]);
  });

  it('returns the same copy when nothing changed, and a new one when only the compare set did', () => {
    const comparing = setCompare(plain, [gpt, sonnet], at(2));
    expect(mergeConversations(comparing, plain)).toBe(comparing);
    expect(mergeConversations(comparing, { ...comparing })).toBe(comparing);
    const merged = mergeConversations(plain, comparing);
    expect(merged).not.toBe(plain);
    expect(merged.compare).toEqual([gpt, sonnet]);
  });

  it("keeps the question's later columns: each new column marks it edited", () => {
    const two = addCompared(addCompared(compared, 'u2', 'b1', at(5)), 'u2', 'b2', at(6));
    const three = addCompared(two, 'u2', 'b3', at(7));
    for (const merged of [mergeConversations(two, three), mergeConversations(three, two)])
      expect(messageOf(merged, 'u2').compared?.replyIds).toEqual(['b1', 'b2', 'b3']);
    // Continue with one, in one copy: the chosen mark is the later change.
    const chosen = chooseCompared(three, 'a4', at(8));
    for (const merged of [mergeConversations(three, chosen), mergeConversations(chosen, three)])
      expect(messageOf(merged, 'u2').compared).toEqual({ replyIds: ['b1', 'b2', 'b3'], chosen: true });
  });
});
