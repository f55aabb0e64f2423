import { attachmentLimits, type AttachmentPart } from '../attachments.ts';
import { cleanProjectName, isProjectId, projectLimits, type Project } from '../projects.ts';
import type { ImportedChat, ImportedProject, ImportedProjectFile, OtherAppExport } from './imported-chat.ts';

/**
 * Other apps' projects (ChatGPT's and Claude.ai's) as ours: read bounded (an export is hostile
 * input), then created beside the user's projects, or merged into one of the same name, when the
 * conversations are added (docs/behaviour.md#importing-other-apps).
 */

/** Our id for an app's project (`prefix` names the app), or null when its id cannot be kept. */
export function importedProjectId(prefix: string, sourceId: unknown): string | null {
  if (typeof sourceId !== 'string' || sourceId.trim() === '') return null;
  const id = `${prefix}${sourceId}`;
  return isProjectId(id) ? id : null;
}

const utf8 = new TextEncoder();

/**
 * A text an app keeps with a project as a file, or null when it is empty or larger than a text
 * file may be (attachmentLimits.textMaxBytes).
 */
export function importedProjectFile(id: string, name: string, text: string): ImportedProjectFile | null {
  if (text.trim() === '' || text.length > attachmentLimits.textMaxBytes) return null;
  if (utf8.encode(text).length > attachmentLimits.textMaxBytes) return null;
  return { id, name: name.trim() || 'Document.txt', text };
}

/**
 * The export with at most `projectLimits.projects` projects (the first ones), each with at most
 * `projectLimits.files` files and bounded instructions; a chat whose project was left out (or is
 * not listed) belongs to none.
 */
export function withProjects(result: OtherAppExport, projects: readonly ImportedProject[]): OtherAppExport {
  const kept = new Map<string, ImportedProject>();
  for (const project of projects) {
    if (kept.size >= projectLimits.projects) break;
    if (kept.has(project.id) || !isProjectId(project.id)) continue;
    const bounded: ImportedProject = { ...project, name: cleanProjectName(project.name) };
    if (project.instructions !== undefined)
      bounded.instructions = project.instructions.slice(0, projectLimits.instructionsLength);
    if (project.files) bounded.files = project.files.slice(0, projectLimits.files);
    kept.set(project.id, bounded);
  }
  const chats = result.chats.map((chat): ImportedChat => {
    if (chat.project === undefined || kept.has(chat.project)) return chat;
    const without = { ...chat };
    delete without.project;
    return without;
  });
  return kept.size === 0 ? { ...result, chats } : { ...result, chats, projects: [...kept.values()] };
}

/** What adding an export's projects comes to, beside the projects already here. */
export interface ProjectPlacement {
  /** Projects to create, in order. */
  create: Project[];
  /** The text of each file of the projects to create, by attachment id. */
  texts: Map<string, string>;
  /** The project each of the export's projects' conversations go into, by the export's project id. */
  placement: Map<string, string>;
}

const nameKey = (name: string) => cleanProjectName(name).toLowerCase();

/**
 * Where the export's projects go: a project already here with the same id (the same export added
 * again) or the same name (case aside) takes its conversations, and is left as it is; any other is
 * created, while there is room (projectLimits.projects in all): past it, its conversations belong
 * to none. A created project is stamped `now` (its creation time from the export when it has one).
 */
export function placeImportedProjects(
  imported: readonly ImportedProject[],
  existing: readonly Project[],
  now: Date,
): ProjectPlacement {
  const at = now.toISOString();
  const ids = new Set(existing.map((project) => project.id));
  const byName = new Map<string, string>();
  for (const project of existing)
    if (!byName.has(nameKey(project.name))) byName.set(nameKey(project.name), project.id);
  const placement = new Map<string, string>();
  const texts = new Map<string, string>();
  const create: Project[] = [];
  let count = existing.length;
  for (const source of imported) {
    if (ids.has(source.id)) {
      placement.set(source.id, source.id);
      continue;
    }
    const name = cleanProjectName(source.name) || 'Imported project';
    const same = byName.get(nameKey(name));
    if (same !== undefined) {
      placement.set(source.id, same);
      continue;
    }
    if (count >= projectLimits.projects) continue;
    const files = (source.files ?? []).slice(0, projectLimits.files).map((file): AttachmentPart => {
      texts.set(file.id, file.text);
      return {
        type: 'attachment',
        id: file.id,
        kind: 'text',
        name: file.name,
        mimeType: 'text/plain',
        size: utf8.encode(file.text).length,
      };
    });
    create.push({
      id: source.id,
      name,
      instructions: (source.instructions ?? '').slice(0, projectLimits.instructionsLength),
      files,
      createdAt: source.createdAt ?? at,
      updatedAt: at,
    });
    count++;
    ids.add(source.id);
    byName.set(nameKey(name), source.id);
    placement.set(source.id, source.id);
  }
  return { create, texts, placement };
}
