import { describe, expect, it } from 'vitest';
import { attachment, linearConversation, treeConversation, withFiles } from './__fixtures__/conversations.ts';
import type { Message } from './conversation.ts';
import { conversationMarkdown, markdownFileName } from './markdown-export.ts';

describe('Markdown export', () => {
  it('writes the shown path: headings per turn, code fences as they are, thinking in <details>', () => {
    const conversation = treeConversation('c', [
      ['root', null, 'system', 'You are a helpful assistant.'],
      ['u', 'root', 'user', 'Sort a list in Python?'],
      ['old', 'u', 'assistant', 'An older version, not shown'],
      ['a', 'u', 'assistant', 'Use `sorted`:\n\n```python\nsorted(xs)\n```', { model: 'gpt-4o' }],
    ]);
    const reply = conversation.messages[3] as Message;
    conversation.messages[3] = {
      ...reply,
      parts: [
        { type: 'reasoning', text: 'They want a one-liner. </details><script>x</script>' },
        ...reply.parts,
      ],
    };
    expect(conversationMarkdown({ ...conversation, name: 'Sorting' })).toBe(
      [
        '# Sorting',
        '## User',
        'Sort a list in Python?',
        '## Assistant (gpt-4o)',
        '<details>\n<summary>Thinking</summary>\n\nThey want a one-liner. &lt;/details><script>x</script>\n\n</details>',
        'Use `sorted`:\n\n```python\nsorted(xs)\n```',
      ].join('\n\n') + '\n',
    );
  });

  it('quotes a system prompt of its own, names files, and says when a reply did not finish', () => {
    const conversation = linearConversation(
      'c',
      ['Read this', { text: 'Half an ans', status: 'interrupted', error: 'Network error' }],
      { system: 'Be brief.\nAnswer in French.' },
    );
    conversation.messages[1] = withFiles(
      conversation.messages[1] as Message,
      attachment('f1', { name: 'notes.pdf', mimeType: 'application/pdf', size: 2048 }),
    );
    const text = conversationMarkdown(conversation);
    expect(text).toContain('**System prompt**\n\n> Be brief.\n> Answer in French.');
    expect(text).toContain('## User\n\n- Attached: notes.pdf (application/pdf, 2 KB)\n\nRead this');
    expect(text).toContain('Half an ans\n\n_(Interrupted: Network error.)_');
  });

  it('names the file by date and conversation, without characters file systems refuse', () => {
    const conversation = { ...linearConversation('c'), name: 'What is a/b? <test>: "x"' };
    expect(markdownFileName(conversation, new Date('2026-11-25T10:00:00Z'))).toBe(
      '2026-11-25 What is a-b- -test- -x-.md',
    );
  });
});
