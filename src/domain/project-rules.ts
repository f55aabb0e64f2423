import { cleanProjectName, projectLimits, type Project, type ProjectChange } from './projects.ts';

// What the project commands do to a project (loaded with them, not with the first screen).

/** A new project, named 'Project n' after the count of those there are. */
export function createProject({
  id,
  existingCount,
  now,
  name,
}: {
  id: string;
  existingCount: number;
  now: Date;
  name?: string;
}): Project {
  const at = now.toISOString();
  return {
    id,
    name: cleanProjectName(name ?? '') || `Project ${existingCount + 1}`,
    instructions: '',
    files: [],
    createdAt: at,
    updatedAt: at,
  };
}

/** `change` applied: a field set to undefined is removed; the name is cleaned and may not be empty. */
export function changeProject(project: Project, change: ProjectChange, now: Date): Project {
  const merged: Record<string, unknown> = { ...project, ...change };
  const next = Object.fromEntries(Object.entries(merged).filter(([, value]) => value !== undefined));
  const changed = next as unknown as Project;
  changed.name = cleanProjectName(changed.name) || project.name;
  changed.instructions = changed.instructions.slice(0, projectLimits.instructionsLength);
  changed.files = changed.files.slice(0, projectLimits.files);
  changed.updatedAt = now.toISOString();
  return changed;
}

/**
 * What a measure was taken of: the instructions and the files (their ids; a file's bytes never
 * change under its id), as a 32-bit FNV-1a hash. Another value: the figure no longer applies.
 */
export function projectFingerprint({ instructions, files }: Pick<Project, 'instructions' | 'files'>): string {
  const text = `${instructions}\u0000${files.map((file) => file.id).join('\u0000')}`;
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index += 1) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(16).padStart(8, '0');
}
