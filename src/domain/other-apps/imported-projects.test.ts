import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { projectLimits, type Project } from '../projects.ts';
import { readProject } from '../project-validation.ts';
import { placeImportedProjects } from './imported-projects.ts';
import type { ImportedProject, OtherAppExport } from './imported-chat.ts';
import { readOtherAppExport } from './read-other-app.ts';

const fixture = (name: string): unknown[] =>
  JSON.parse(readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url), 'utf8')) as unknown[];
const now = new Date('2026-11-25T12:00:00.000Z');

function must(value: OtherAppExport | null): OtherAppExport {
  if (!value) throw new Error('not recognised');
  return value;
}

/** Each chat's name and the id of the project it is in. */
const placed = (result: OtherAppExport) => result.chats.map((chat) => [chat.name, chat.project ?? null]);

/** A chat of Claude.ai's export, in the project named when given. */
const claudeChat = (uuid: string, project?: unknown) => ({
  uuid,
  name: `Chat ${uuid}`,
  created_at: '2026-01-15T10:30:00Z',
  chat_messages: [{ uuid: `${uuid}-m`, sender: 'human', text: 'Hi' }],
  ...(project !== undefined && { project_uuid: project }),
});

const chatGptChat = (id: string, gizmo: unknown) => ({
  id,
  title: `Chat ${id}`,
  create_time: 1756000000,
  mapping: {
    q: {
      parent: null,
      message: { author: { role: 'user' }, content: { content_type: 'text', parts: ['Hi'] } },
    },
  },
  gizmo_id: gizmo,
});

describe('ChatGPT projects', () => {
  it('a conversation in a project (gizmo_id g-p-…) is in it; a custom GPT’s (g-…) and none are in none', () => {
    const result = must(readOtherAppExport(fixture('chatgpt-projects.json'), now));
    const project = 'chatgpt-project-g-p-676071f578e48191bb71c4c1757ce2ec';
    expect(placed(result)).toEqual([
      ['Budget draft', project],
      ['Budget review', project],
      ['Asked a custom GPT', null],
      ['No project', null],
    ]);
    // The export names no project: each is named by its id.
    expect(result.projects).toEqual([{ id: project, name: 'ChatGPT project 676071f5' }]);
  });

  it('an export without projects has none', () => {
    expect(must(readOtherAppExport(fixture('chatgpt-tools.json'), now))).not.toHaveProperty('projects');
  });

  it('reads hostile gizmo ids bounded: wrong types and overlong ids are no project; at most the limit of projects', () => {
    const odd = [7, {}, 'g-p-' + 'x'.repeat(500), 'g-p-', ' '].map((gizmo, index) =>
      chatGptChat(`odd${index}`, gizmo),
    );
    const result = must(readOtherAppExport(odd, now));
    expect(result.chats.map((chat) => chat.project ?? null)).toEqual([
      null,
      null,
      null,
      'chatgpt-project-g-p-',
      null,
    ]);

    const many = Array.from({ length: 10_000 }, (_, index) => chatGptChat(`c${index}`, `g-p-${index}`));
    const bounded = must(readOtherAppExport(many, now));
    expect(bounded.projects).toHaveLength(projectLimits.projects);
    expect(bounded.chats.filter((chat) => chat.project !== undefined)).toHaveLength(projectLimits.projects);
    expect(bounded.chats).toHaveLength(10_000);
  });
});

describe('Claude.ai projects', () => {
  it('every project its projects file lists, with its prompt as instructions and its docs as text files; the example project left out', () => {
    const result = must(
      readOtherAppExport(fixture('claude-conversations.json'), now, {
        projects: fixture('claude-projects.json'),
      }),
    );
    const thesis = 'claude-project-f1e2d3c4-0000-4000-8000-000000000001';
    expect(result.projects).toEqual([
      {
        id: thesis,
        name: 'Thesis',
        instructions: 'Cite every source in APA style.',
        files: [
          {
            id: `${thesis}:d0000000-0000-4000-8000-000000000001`,
            name: 'outline.md',
            text: '# Outline\n\n1. Introduction',
          },
        ],
        createdAt: '2025-09-01T08:00:00.000Z',
      },
      {
        id: 'claude-project-f1e2d3c4-0000-4000-8000-000000000003',
        name: 'Recipes',
        createdAt: '2025-09-02T08:00:00.000Z',
      },
    ]);
    // Claude.ai's export does not say which project a conversation was in.
    expect(result.chats.every((chat) => chat.project === undefined)).toBe(true);
  });

  it('a conversation naming its project (project_uuid) is in it, an unlisted one named by its id; the example project kept when used', () => {
    const chats = [
      claudeChat('a', 'f1e2d3c4-0000-4000-8000-000000000001'),
      claudeChat('b', 'f1e2d3c4-0000-4000-8000-000000000002'),
      claudeChat('c', '9999aaaa-0000-4000-8000-000000000000'),
      claudeChat('d', 42),
      claudeChat('e'),
    ];
    const result = must(readOtherAppExport(chats, now, { projects: fixture('claude-projects.json') }));
    expect(placed(result)).toEqual([
      ['Chat a', 'claude-project-f1e2d3c4-0000-4000-8000-000000000001'],
      ['Chat b', 'claude-project-f1e2d3c4-0000-4000-8000-000000000002'],
      ['Chat c', 'claude-project-9999aaaa-0000-4000-8000-000000000000'],
      ['Chat d', null],
      ['Chat e', null],
    ]);
    expect(result.projects?.map((project) => project.name)).toEqual([
      'Thesis',
      'How to use Claude',
      'Recipes',
      'Claude.ai project 9999aaaa',
    ]);
  });

  it('reads a hostile projects file bounded: junk left out, names and prompts cut, at most 20 docs of at most 1 MB', () => {
    const huge = {
      uuid: 'big',
      name: `  Big\n${'n'.repeat(1000)}`,
      prompt_template: 'p'.repeat(1_000_000),
      docs: [
        { uuid: 'too-large', filename: 'big.txt', content: 'x'.repeat(2 * 1024 * 1024) },
        'junk',
        { uuid: 'no-content', filename: 'a.txt' },
        ...Array.from({ length: 100 }, (_, index) => ({
          uuid: `d${index}`,
          filename: `${index}.txt`,
          content: 'text',
        })),
      ],
    };
    const projects = ['junk', null, { name: 'no id' }, { uuid: 7, name: 'n' }, huge];
    const result = must(readOtherAppExport([claudeChat('a')], now, { projects }));
    expect(result.projects).toHaveLength(1);
    const [big] = result.projects ?? [];
    expect(big?.name.startsWith('Big n')).toBe(true);
    expect(big?.name).toHaveLength(projectLimits.nameLength);
    expect(big?.instructions).toHaveLength(projectLimits.instructionsLength);
    expect(big?.files).toHaveLength(projectLimits.files);
    expect(big?.files?.[0]?.id).toBe('claude-project-big:d0');

    const many = Array.from({ length: 10_000 }, (_, index) => ({ uuid: `p${index}`, name: `P${index}` }));
    expect(must(readOtherAppExport([claudeChat('a')], now, { projects: many })).projects).toHaveLength(
      projectLimits.projects,
    );
  });
});

describe('placing imported projects', () => {
  const existing = (id: string, name: string): Project => ({
    id,
    name,
    instructions: 'Mine',
    files: [],
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
  });
  const thesis: ImportedProject = {
    id: 'claude-project-t',
    name: 'Thesis',
    instructions: 'Cite.',
    files: [{ id: 'claude-project-t:d1', name: 'outline.md', text: 'é' }],
    createdAt: '2025-09-01T08:00:00.000Z',
  };

  it('creates a project for each, with its instructions and files; a project of the same id or name takes the conversations as it is', () => {
    const { create, texts, placement } = placeImportedProjects(
      [thesis, { id: 'chatgpt-project-g-p-1', name: 'work' }, { id: 'claude-project-x', name: 'X' }],
      [existing('mine', 'Work'), existing('claude-project-x', 'Renamed by me')],
      now,
    );
    expect(create).toEqual([
      {
        id: 'claude-project-t',
        name: 'Thesis',
        instructions: 'Cite.',
        files: [
          {
            type: 'attachment',
            id: 'claude-project-t:d1',
            kind: 'text',
            name: 'outline.md',
            mimeType: 'text/plain',
            size: 2,
          },
        ],
        createdAt: '2025-09-01T08:00:00.000Z',
        updatedAt: now.toISOString(),
      },
    ]);
    // What the app stores reads back as it is.
    expect(readProject(create[0])).toEqual(create[0]);
    expect(texts).toEqual(new Map([['claude-project-t:d1', 'é']]));
    expect(placement).toEqual(
      new Map([
        ['claude-project-t', 'claude-project-t'],
        ['chatgpt-project-g-p-1', 'mine'],
        ['claude-project-x', 'claude-project-x'],
      ]),
    );
  });

  it('two of the same name become one; past the limit of projects, their conversations are in none', () => {
    const { create, placement } = placeImportedProjects(
      [
        { id: 'a', name: 'Same' },
        { id: 'b', name: 'same' },
      ],
      [],
      now,
    );
    expect(create.map((project) => project.id)).toEqual(['a']);
    expect(placement.get('b')).toBe('a');

    const full = Array.from({ length: projectLimits.projects }, (_, index) =>
      existing(`e${index}`, `E${index}`),
    );
    const past = placeImportedProjects([thesis], full, now);
    expect(past.create).toEqual([]);
    expect(past.placement.size).toBe(0);
  });
});
