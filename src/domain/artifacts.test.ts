import { describe, expect, it } from 'vitest';
import { message } from './__fixtures__/conversations.ts';
import {
  artifactFileName,
  artifactKind,
  artifactsOf,
  artifactTitle,
  findArtifactVersion,
} from './artifacts.ts';

const reply = (id: string, text: string) => message(id, 'q', 'assistant', text);
const lines = (count: number) => Array.from({ length: count }, (_, index) => `line ${index}`).join('\n');

describe('what is an artifact', () => {
  it('is a closed block of HTML, SVG, Mermaid, JSX/TSX or Markdown, or any block of 16 lines or more', () => {
    const fence = (language: string, code = 'x', closed = true) => ({ language, code, closed });
    expect(
      ['html', 'svg', 'mermaid', 'tsx', 'jsx', 'md'].map((language) => artifactKind(fence(language))),
    ).toEqual(['html', 'svg', 'mermaid', 'react', 'react', 'markdown']);
    expect(artifactKind(fence('python', lines(15)))).toBeNull();
    expect(artifactKind(fence('python', lines(16)))).toBe('code');
    expect(artifactKind(fence('', lines(20)))).toBe('code');
    expect(artifactKind(fence('html', '<p>', false))).toBeNull();
  });

  it('is named by its info string, else its heading, component or language', () => {
    const title = (info: string, code: string) =>
      artifactTitle({ info, language: info.split(' ')[0] ?? '', code });
    expect(title('tsx title="Budget tracker"', 'export default function App() {}')).toBe('Budget tracker');
    expect(title('tsx filename=App.tsx', '')).toBe('App.tsx');
    expect(title('tsx', 'const x = 1;\nexport default function BudgetTracker() {}')).toBe('BudgetTracker');
    expect(title('md', 'Intro\n\n## Release notes\n')).toBe('Release notes');
    expect(title('html', '<html><head><title>Landing page</title>')).toBe('Landing page');
    expect(title('svg', '<svg></svg>')).toBe('SVG image');
    expect(title('python', lines(20))).toBe('python code');
  });
});

describe('artifacts over a conversation', () => {
  const page = (text: string) => `\`\`\`html title="Landing"\n<h1>${text}</h1>\n\`\`\``;
  const path = [
    message('q', null, 'user', 'Make a landing page'),
    reply('r1', `Here:\n\n${page('One')}`),
    message('q2', 'r1', 'user', 'Bigger title'),
    reply('r2', `Done.\n\n${page('Two')}\n\nAnd a diagram:\n\n\`\`\`mermaid\ngraph TD; A-->B\n\`\`\``),
    reply('r3', page('Three')),
  ];

  it('keeps one artifact per name with a version per reply that rewrote it, in order', () => {
    const artifacts = artifactsOf(path);
    expect(artifacts.map((artifact) => [artifact.title, artifact.kind, artifact.versions.length])).toEqual([
      ['Landing', 'html', 3],
      ['Diagram', 'mermaid', 1],
    ]);
    expect(artifacts[0]?.versions.map((version) => [version.messageId, version.code])).toEqual([
      ['r1', '<h1>One</h1>'],
      ['r2', '<h1>Two</h1>'],
      ['r3', '<h1>Three</h1>'],
    ]);
    expect(findArtifactVersion(artifacts, '<h1>Two</h1>')).toMatchObject({ version: 1 });
    expect(findArtifactVersion(artifacts, 'nothing')).toBeNull();
  });

  it('shows the block a streaming reply is writing as a version being written', () => {
    const writing = reply('r4', 'Again:\n\n```html title="Landing"\n<h1>Fo');
    // Finished, a reply that ends inside a block has closed it.
    expect(artifactsOf([...path, writing])[0]?.versions.at(-1)).toEqual({
      messageId: 'r4',
      code: '<h1>Fo',
      language: 'html',
    });
    expect(artifactsOf([...path, writing], ['r4'])[0]?.versions.at(-1)).toEqual({
      messageId: 'r4',
      code: '<h1>Fo',
      language: 'html',
      streaming: true,
    });
  });

  it("places the user's saved versions after the reply they were made from, in the order saved", () => {
    const edit = (id: string, afterMessageId: string, savedAt: string) => ({
      id,
      key: 'landing',
      language: 'html',
      code: `<h1>${id}</h1>`,
      afterMessageId,
      savedAt,
    });
    const edits = [
      edit('late', 'r1', '2024-01-02T00:00:00.000Z'),
      edit('early', 'r1', '2024-01-01T00:00:00.000Z'),
      edit('lost', 'gone', '2024-01-01T00:00:00.000Z'),
    ];
    const versions = artifactsOf(path, undefined, edits)[0]?.versions ?? [];
    expect(versions.map((version) => version.editId ?? version.messageId)).toEqual([
      'r1',
      'early',
      'late',
      'r2',
      'r3',
    ]);
  });

  it('downloads with the extension of its language', () => {
    const [landing] = artifactsOf(path);
    const first = landing?.versions[0];
    expect(landing && first && artifactFileName(landing, first)).toBe('Landing.html');
    expect(
      artifactFileName({ title: 'App.tsx', kind: 'react' }, { messageId: 'r', code: '', language: 'tsx' }),
    ).toBe('App.tsx');
    expect(
      artifactFileName({ title: 'a/b:c', kind: 'code' }, { messageId: 'r', code: '', language: 'python' }),
    ).toBe('a b c.py');
  });
});
