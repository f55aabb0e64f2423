import type { Conversation } from './conversation.ts';

/**
 * Switches a tool source on or off in one conversation (Conversation.toolSwitches), stamped so
 * that of two copies the later switch wins a merge.
 */
export function setToolSwitch(
  conversation: Conversation,
  sourceId: string,
  on: boolean,
  now: Date,
): Conversation {
  if (conversation.toolSwitches?.[sourceId] === on) return conversation;
  return {
    ...conversation,
    toolSwitches: { ...conversation.toolSwitches, [sourceId]: on },
    toolSwitchesAt: now.toISOString(),
  };
}
