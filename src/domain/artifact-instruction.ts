import type { Conversation } from './conversation.ts';

/**
 * The conversation setting 'Artifacts' (Conversation settings): on, the system prompt ends with
 * this instruction, so the model writes what the panel can show and version (docs/artifacts.md).
 * Off by default: an untouched conversation sends its system prompt exactly as written.
 */
export const artifactsSwitch = 'artifacts';

export const artifactInstruction =
  'When you write a self-contained page, SVG image, Mermaid diagram, React component or document ' +
  'that the user may want to view or reuse, write it as one complete fenced code block whose info ' +
  'string names it, for example ```tsx title="Budget tracker"```. A React component has a default ' +
  'export, imports only from react, lucide-react or recharts, and is styled with Tailwind classes. ' +
  'When you revise one, write the whole block again under the same title.';

export function artifactsOn(conversation: Pick<Conversation, 'toolSwitches'>): boolean {
  return conversation.toolSwitches?.[artifactsSwitch] === true;
}

/** The system prompt as sent: with the instruction after it when 'Artifacts' is on. */
export function sentSystemPrompt(conversation: Pick<Conversation, 'toolSwitches'>, prompt: string): string {
  if (!artifactsOn(conversation)) return prompt;
  return prompt === '' ? artifactInstruction : `${prompt}\n\n${artifactInstruction}`;
}
