import { byName, oneLineName } from './named-items.ts';
import type { AttachmentPart } from './attachments.ts';
import type { ModelPin } from './conversation.ts';
import type { ProviderId } from './config.ts';
import type { ReasoningEffort } from './provider-definitions/capabilities.ts';

/**
 * A project: conversations grouped with what they share (docs/projects.md). Its instructions
 * come before each of its conversations' own system prompt and its files go with every request
 * of them, resolved when a request is built (never copied into the conversations). A
 * conversation belongs to at most one project (Conversation.projectId).
 */
export interface Project {
  id: string;
  name: string;
  /** Sent before each of its conversations' own system prompt; '' sends nothing. */
  instructions: string;
  /** Sent with every request of its conversations, as attachments are; bytes in the file store under their ids. */
  files: AttachmentPart[];
  /** New conversations in it start pinned to this model (absent: the saved configuration's). */
  pin?: ModelPin;
  /** ... with this reasoning effort ... */
  effort?: ReasoningEffort;
  /** ... and these switches (tools, web search, artifacts). */
  toolSwitches?: Record<string, boolean>;
  /** What a conversation here costs before its own words, as a provider counted it. */
  measured?: ProjectMeasure;
  /** ... and this persona's system prompt (and its model, when the project sets none). */
  personaId?: string;
  /** Shown before its name in the sidebar: one emoji, or a colour's dot. */
  emoji?: string;
  color?: ProjectColor;
  /** Its conversations are folded away in the sidebar. */
  folded?: true;
  createdAt: string;
  /** Of two copies (two tabs), the later change wins whole. */
  updatedAt: string;
}

/**
 * The input tokens of the first request of a conversation in the project (its instructions and
 * files, the conversation's system prompt and first question, the tools offered), from the usage
 * the provider reported, with the model that counted them (docs/projects.md#files-in-tokens).
 */
export interface ProjectMeasure {
  tokens: number;
  provider: ProviderId;
  model: string;
  /** The instructions and files measured (projectFingerprint): changed since, the figure is stale. */
  of: string;
  at: string;
}

export const projectColors = [
  'gray',
  'red',
  'orange',
  'amber',
  'green',
  'teal',
  'blue',
  'violet',
  'pink',
] as const;
export type ProjectColor = (typeof projectColors)[number];

/** Bounds on what is kept and read back (an import is hostile input). */
export const projectLimits = {
  projects: 1_000,
  nameLength: 200,
  instructionsLength: 100_000,
  files: 20,
  emojiLength: 16,
  idLength: 100,
} as const;

export const isProjectId = (value: unknown): value is string =>
  typeof value === 'string' && value !== '' && value.length <= projectLimits.idLength;

/** A name as kept: one line, trimmed, bounded. */
export function cleanProjectName(name: string): string {
  return oneLineName(name, projectLimits.nameLength);
}

/** What the project settings change; each change stamps `updatedAt`. */
export type ProjectChange = Partial<
  Pick<
    Project,
    | 'name'
    | 'instructions'
    | 'files'
    | 'pin'
    | 'effort'
    | 'toolSwitches'
    | 'personaId'
    | 'measured'
    | 'emoji'
    | 'color'
    | 'folded'
  >
>;

/** Of two copies of a project, the one changed last (the first on a tie). */
export function laterProject(a: Project, b: Project): Project {
  return b.updatedAt > a.updatedAt ? b : a;
}

/** Projects in the sidebar's order: by name, as the user reads them, then by creation. */
export function orderProjects(projects: readonly Project[]): Project[] {
  return byName(projects, (project) => project.name);
}
