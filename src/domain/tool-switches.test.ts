import { describe, expect, it } from 'vitest';
import { linearConversation } from './__fixtures__/conversations.ts';
import { conversationRecord } from './conversation-record.ts';
import { validateConversation } from './conversation-validation.ts';
import { mergeConversations } from './message-tree.ts';
import { setToolSwitch } from './tool-switches.ts';

const at = (minute: number) => new Date(Date.UTC(2026, 10, 26, 10, minute));

function readBack(value: unknown) {
  const read = validateConversation(JSON.parse(JSON.stringify(value)), 'conversation', {
    now: at(0),
    fallbackProvider: 'openai',
  });
  if (!read.ok) throw new Error(read.problem);
  return read.value;
}

describe('tool switches of a conversation', () => {
  it('are set with a time, and setting the same again changes nothing', () => {
    const base = linearConversation('c', ['Hi', 'Hello']);
    const on = setToolSwitch(base, 'builtin', true, at(1));
    expect(on).toMatchObject({ toolSwitches: { builtin: true }, toolSwitchesAt: at(1).toISOString() });
    expect(setToolSwitch(on, 'builtin', true, at(2))).toBe(on);
    expect(setToolSwitch(on, 'server-1', false, at(3)).toolSwitches).toEqual({
      builtin: true,
      'server-1': false,
    });
  });

  it('are written and read back, and a damaged or hostile value is dropped', () => {
    const on = setToolSwitch(linearConversation('c', ['Hi']), 'builtin', true, at(1));
    expect(readBack(conversationRecord(on))).toMatchObject({
      toolSwitches: { builtin: true },
      toolSwitchesAt: at(1).toISOString(),
    });
    const record = conversationRecord(linearConversation('c', ['Hi']));
    const hostile = readBack({
      ...record,
      toolSwitches: JSON.parse('{"__proto__": true, "a": "yes", "b": false}'),
    });
    expect(hostile.toolSwitches).toEqual({ b: false });
    expect(Object.getPrototypeOf(hostile.toolSwitches)).toBe(Object.prototype);
    expect(readBack({ ...record, toolSwitches: [true] }).toolSwitches).toBeUndefined();
  });

  it('merge: the later switch wins, whichever copy holds it', () => {
    const base = linearConversation('c', ['Hi']);
    const first = setToolSwitch(base, 'builtin', true, at(1));
    const later = setToolSwitch(base, 'builtin', false, at(2));
    expect(mergeConversations(first, later).toolSwitches).toEqual({ builtin: false });
    expect(mergeConversations(later, first).toolSwitches).toEqual({ builtin: false });
  });
});
