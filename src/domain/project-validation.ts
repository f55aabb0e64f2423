import { promptLimits } from './prompts.ts';
import { readAttachment, readPin, readToolSwitches } from './conversation-validation.ts';
import { isIsoTimestamp, isRecord, ownField } from './json-guards.ts';
import { reasoningEfforts, type ReasoningEffort } from './provider-definitions/capabilities.ts';
import {
  cleanProjectName,
  isProjectId,
  projectColors,
  projectLimits,
  type Project,
  type ProjectColor,
  type ProjectMeasure,
} from './projects.ts';
import { isProviderId } from './config.ts';

/**
 * A project as read back from storage, a tab or an imported file (hostile input): a fresh object
 * of exactly the known fields, bounded; null when it is not one (no id, no name, no times).
 */
export function readProject(value: unknown): Project | null {
  if (!isRecord(value)) return null;
  const id = ownField(value, 'id');
  const name = ownField(value, 'name');
  const createdAt = ownField(value, 'createdAt');
  const updatedAt = ownField(value, 'updatedAt');
  if (!isProjectId(id) || typeof name !== 'string') return null;
  if (!isIsoTimestamp(createdAt) || !isIsoTimestamp(updatedAt)) return null;
  const instructions = ownField(value, 'instructions');
  const rawFiles = ownField(value, 'files');
  const files = Array.isArray(rawFiles)
    ? rawFiles.slice(0, projectLimits.files).flatMap((entry: unknown) => {
        const file = isRecord(entry) ? readAttachment(entry) : null;
        return file ? [file] : [];
      })
    : [];
  const project: Project = {
    id,
    name: cleanProjectName(name) || 'Project',
    instructions:
      typeof instructions === 'string' ? instructions.slice(0, projectLimits.instructionsLength) : '',
    files,
    createdAt,
    updatedAt,
  };
  const pin = readPin(ownField(value, 'pin'));
  if (pin) project.pin = pin;
  const effort = ownField(value, 'effort');
  if ((reasoningEfforts as readonly unknown[]).includes(effort)) project.effort = effort as ReasoningEffort;
  const toolSwitches = readToolSwitches(ownField(value, 'toolSwitches'));
  if (toolSwitches) project.toolSwitches = toolSwitches;
  const measured = readMeasure(ownField(value, 'measured'));
  if (measured) project.measured = measured;
  const personaId = ownField(value, 'personaId');
  if (typeof personaId === 'string' && personaId !== '' && personaId.length <= promptLimits.idLength)
    project.personaId = personaId;
  const emoji = ownField(value, 'emoji');
  if (typeof emoji === 'string' && emoji.trim() !== '' && emoji.length <= projectLimits.emojiLength)
    project.emoji = emoji.trim();
  const color = ownField(value, 'color');
  if ((projectColors as readonly unknown[]).includes(color)) project.color = color as ProjectColor;
  if (ownField(value, 'folded') === true) project.folded = true;
  return project;
}

function readMeasure(value: unknown): ProjectMeasure | undefined {
  if (!isRecord(value)) return undefined;
  const tokens = ownField(value, 'tokens');
  const provider = ownField(value, 'provider');
  const model = ownField(value, 'model');
  const of = ownField(value, 'of');
  const at = ownField(value, 'at');
  if (typeof tokens !== 'number' || !Number.isSafeInteger(tokens) || tokens <= 0) return undefined;
  if (!isProviderId(provider) || typeof model !== 'string' || model === '' || model.length > 200)
    return undefined;
  if (typeof of !== 'string' || of.length > 100 || !isIsoTimestamp(at)) return undefined;
  return { tokens, provider, model, of, at };
}

/** Projects as read from a list: each valid one once (the later copy of an id), at most the limit. */
export function readProjects(value: unknown): Project[] {
  if (!Array.isArray(value)) return [];
  const byId = new Map<string, Project>();
  for (const entry of value.slice(0, projectLimits.projects * 2)) {
    const project = readProject(entry);
    if (!project) continue;
    const known = byId.get(project.id);
    byId.set(project.id, known && known.updatedAt > project.updatedAt ? known : project);
  }
  return [...byId.values()].slice(0, projectLimits.projects);
}
