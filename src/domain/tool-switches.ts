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

/**
 * The key of 'Search the web' among a conversation's switches: the provider's own search, off
 * until turned on. Not a tool source's id (those are 'builtin' and 'mcp-…').
 */
export const webSearchSwitch = 'web-search';

/** Whether 'Search the web' is on in this conversation. */
export function webSearchOn(conversation: Pick<Conversation, 'toolSwitches'>): boolean {
  return conversation.toolSwitches?.[webSearchSwitch] === true;
}
