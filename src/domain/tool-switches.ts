import type { Conversation } from './conversation.ts';
import type { ProviderTool } from './provider-definitions/capabilities.ts';

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
 * The keys of the providers' own tools among a conversation's switches ('Search the web', 'Run
 * code', 'Create images'): each off until turned on. Not tool sources' ids (those are 'builtin'
 * and 'mcp-…').
 */
export const providerToolSwitches: Record<ProviderTool, string> = {
  webSearch: 'web-search',
  codeExecution: 'run-code',
  imageOutput: 'create-images',
};

/** Whether one of the providers' own tools is switched on in this conversation. */
export function providerToolOn(
  conversation: Pick<Conversation, 'toolSwitches'>,
  tool: ProviderTool,
): boolean {
  return conversation.toolSwitches?.[providerToolSwitches[tool]] === true;
}
