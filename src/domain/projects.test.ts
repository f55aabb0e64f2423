import { describe, expect, it } from 'vitest';
import { sidebarSections } from './conversation-order.ts';
import { mergeConversations } from './message-tree.ts';
import { moveToProject } from './conversation-rules.ts';
import { readProject, readProjects } from './project-validation.ts';
import { orderProjects, projectLimits } from './projects.ts';
import { changeProject, createProject } from './project-rules.ts';
import { validateConversation } from './conversation-validation.ts';
import { conversationRecord } from './conversation-record.ts';
import { createConversation } from './conversation-rules.ts';

const now = new Date('2026-11-26T10:00:00.000Z');
const project = createProject({ id: 'p1', existingCount: 2, now });

describe('projects', () => {
  it("are named 'Project n' unless named, on one trimmed line", () => {
    expect(project.name).toBe('Project 3');
    expect(createProject({ id: 'p', existingCount: 0, now, name: ' a\n\tb ' }).name).toBe('a b');
  });

  it('change field by field, keep their name when given an empty one, and are bounded', () => {
    const later = new Date('2026-11-26T11:00:00.000Z');
    const changed = changeProject(
      project,
      { name: '  ', instructions: 'x'.repeat(200_000), emoji: '🧪' },
      later,
    );
    expect(changed.name).toBe('Project 3');
    expect(changed.instructions).toHaveLength(projectLimits.instructionsLength);
    expect(changed.emoji).toBe('🧪');
    expect(changed.updatedAt).toBe(later.toISOString());
    expect('emoji' in changeProject(changed, { emoji: undefined }, later)).toBe(false);
  });

  it('order by name as people read them', () => {
    const named = (name: string, id: string) => ({ ...project, id, name });
    expect(
      orderProjects([named('b', '1'), named('A 10', '2'), named('a 9', '3')]).map((p) => p.name),
    ).toEqual(['a 9', 'A 10', 'b']);
  });

  it('read back only what they are, bounded', () => {
    expect(readProject(JSON.parse(JSON.stringify(project)))).toEqual(project);
    expect(readProject({ ...project, id: '' })).toBeNull();
    expect(readProject({ ...project, createdAt: 'yesterday' })).toBeNull();
    const hostile = readProject({
      ...project,
      name: 'n'.repeat(10_000),
      instructions: 42,
      files: [{ id: 'f', kind: 'image', name: 'x.svg', mimeType: 'image/svg+xml', size: 1 }, 'junk'],
      color: 'url(javascript:1)',
      emoji: 'e'.repeat(100),
      pin: { provider: 'nowhere', model: 'm' },
      personaId: 'x'.repeat(101),
      measured: { tokens: -1, provider: 'openai', model: 'gpt-5', of: 'abc', at: '2026-01-01T00:00:00.000Z' },
      extra: { nested: true },
    });
    expect(hostile).toEqual({
      ...project,
      name: 'n'.repeat(projectLimits.nameLength),
      instructions: '',
      files: [],
    });
    const measured = {
      tokens: 1234,
      provider: 'claude',
      model: 'claude-sonnet-4-6',
      of: 'abc',
      at: now.toISOString(),
    };
    expect(readProject({ ...project, personaId: 'p1', measured })).toEqual({
      ...project,
      personaId: 'p1',
      measured,
    });
    const many = Array.from({ length: 5_000 }, (_, index) => ({ ...project, id: `p${index}` }));
    expect(readProjects(many)).toHaveLength(projectLimits.projects);
    // The later copy of an id wins.
    expect(
      readProjects([project, { ...project, name: 'New', updatedAt: '2027-01-01T00:00:00.000Z' }]),
    ).toEqual([expect.objectContaining({ name: 'New' })]);
  });
});

describe('conversations in projects', () => {
  const conversation = createConversation({
    existingCount: 0,
    provider: 'openai',
    now,
    id: 'c1',
    rootId: 'r1',
  });

  it('keep their project through a record and back', () => {
    const moved = moveToProject(conversation, 'p1', now);
    const read = validateConversation(JSON.parse(JSON.stringify(conversationRecord(moved))), 'c', {
      now,
      fallbackProvider: 'openai',
    });
    expect(read.ok && read.value.projectId).toBe('p1');
    expect(moveToProject(moved, null, now).projectId).toBeUndefined();
  });

  it('take the later move when two copies merge', () => {
    const early = moveToProject(conversation, 'p1', new Date('2026-11-26T10:00:01.000Z'));
    const late = moveToProject(conversation, 'p2', new Date('2026-11-26T10:00:02.000Z'));
    expect(mergeConversations(early, late).projectId).toBe('p2');
    expect(mergeConversations(late, early).projectId).toBe('p2');
    const out = moveToProject(early, null, new Date('2026-11-26T10:00:03.000Z'));
    expect(mergeConversations(late, out).projectId).toBeUndefined();
  });

  it('are listed under their project; those of an unknown one with the rest', () => {
    const row = (id: string, projectId?: string, place?: 'archived') => ({
      id,
      createdAt: now.toISOString(),
      updatedAt: now.toISOString(),
      ...(projectId && { projectId }),
      ...(place && { place }),
    });
    const { projects, groups } = sidebarSections(
      [row('a', 'p1'), row('b'), row('c', 'gone'), row('d', 'p1', 'archived')],
      ['p1', 'p2'],
      now,
    );
    expect(projects.map((section) => [section.id, section.items.map((item) => item.id)])).toEqual([
      ['p1', ['a']],
      ['p2', []],
    ]);
    expect(groups.flatMap((group) => group.items.map((item) => item.id))).toEqual(['b', 'c']);
  });
});
