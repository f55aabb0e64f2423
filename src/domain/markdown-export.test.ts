import { describe, expect, it } from 'vitest';
import {
  attachment,
  linearConversation,
  toolCall,
  toolReply,
  toolResult,
  treeConversation,
  withFiles,
} from './__fixtures__/conversations.ts';
import type { Message } from './conversation.ts';
import { conversationMarkdown, markdownFileName } from './markdown-export.ts';

describe('Markdown export', () => {
  it('lists the sources of an answer that cites none in its text', () => {
    const conversation = treeConversation('c', [
      ['root', null, 'system', 'You are a helpful assistant.'],
      ['u', 'root', 'user', 'Tallest?'],
      ['a1', 'u', 'assistant', 'Everest.'],
    ]);
    const reply = conversation.messages[2] as Message;
    conversation.messages[2] = {
      ...reply,
      web: { searches: [], sources: [{ url: 'https://a.example/everest', title: 'Everest' }], citations: [] },
    };
    expect(conversationMarkdown({ ...conversation, name: 'Peaks' })).toContain(
      'Everest.\n\n1. [Everest](<https://a.example/everest>)\n',
    );
  });

  it('writes a searched answer with its citations as footnotes, and the searches', () => {
    const conversation = treeConversation('c', [
      ['root', null, 'system', 'You are a helpful assistant.'],
      ['u', 'root', 'user', 'Tallest mountain?'],
      ['a1', 'u', 'assistant', 'Everest is the tallest. K2 is second.'],
    ]);
    const reply = conversation.messages[2] as Message;
    conversation.messages[2] = {
      ...reply,
      web: {
        searches: [{ query: 'tallest mountain' }],
        sources: [
          { url: 'https://a.example/everest', title: 'Everest [peak]' },
          { url: 'https://b.example/k2 x' },
        ],
        citations: [
          { at: 23, source: 0 },
          { at: 37, source: 1 },
        ],
      },
    };
    expect(conversationMarkdown({ ...conversation, name: 'Peaks' })).toBe(
      [
        '# Peaks',
        '## User',
        'Tallest mountain?',
        '## Assistant',
        'Everest is the tallest.[^a1-1] K2 is second.[^a1-2]',
        '_Searched the web: `tallest mountain`_',
        '[^a1-1]: [Everest  peak ](<https://a.example/everest>)\n[^a1-2]: [https://b.example/k2 x](<https://b.example/k2%20x>)',
      ].join('\n\n') + '\n',
    );
  });

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

  it('writes a reply that used tools in order: each tool with its arguments and its result', () => {
    const base = linearConversation('c', ['Weather in Lisbon?']);
    const conversation = { ...base, messages: [...base.messages, toolReply('r', 'c:1')], activeLeafId: 'r' };
    const text = conversationMarkdown(conversation);
    expect(text).toContain(
      [
        '## Assistant (gemini-2.5-pro)',
        '<details>\n<summary>Thinking</summary>\n\nI need the weather.\n\n</details>',
        'Let me look that up.',
        'Used `get_weather`',
        '```json\n{\n  "city": "Lisbon"\n}\n```',
        'Result:',
        '```\n18 °C and sunny\n```',
        'Used `get_map`',
        // Arguments that are not JSON go as written.
        '```\n{"city":"Lisbon", oops\n```',
        'Failed:',
        '```\nArguments were not JSON\n```',
        '- Image (image/png)',
        '<details>\n<summary>Thinking</summary>\n\nNow answer.\n\n</details>',
        'It is 18 °C and sunny in Lisbon.',
      ].join('\n\n'),
    );
  });

  it("fences a tool's text so that nothing in it can close the block, and names a call left without result", () => {
    const base = linearConversation('c', ['Go']);
    const hostile = '```\n# Not a heading\n````';
    const reply = {
      ...(base.messages[1] as Message),
      id: 'r',
      parentId: 'c:1',
      role: 'assistant' as const,
      parts: [
        toolCall('a', 'read `file`', '"```"'),
        toolResult('a', 'read `file`', hostile),
        toolCall('b', '`tick', '{}'),
      ],
    };
    const text = conversationMarkdown({ ...base, messages: [...base.messages, reply], activeLeafId: 'r' });
    expect(text).toContain('Used `` read `file` ``');
    expect(text).toContain('````json\n"```"\n````');
    expect(text).toContain(`\`\`\`\`\`\n${hostile}\n\`\`\`\`\``);
    expect(text).toContain('Used `` `tick ``\n\n```json\n{}\n```\n\n_(No result.)_');
  });

  it('names the file by date and conversation, without characters file systems refuse', () => {
    const conversation = { ...linearConversation('c'), name: 'What is a/b? <test>: "x"' };
    expect(markdownFileName(conversation, new Date('2026-11-25T10:00:00Z'))).toBe(
      '2026-11-25 What is a-b- -test- -x-.md',
    );
  });
});
