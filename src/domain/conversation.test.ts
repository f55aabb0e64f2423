import { describe, expect, it } from 'vitest';
import {
  attachment,
  message,
  toolCall,
  toolReply,
  toolResult,
  withFiles,
} from './__fixtures__/conversations.ts';
import {
  attachmentIds,
  hasContent,
  messageText,
  toolCallParts,
  toolResultParts,
  withFileIds,
  type Message,
} from './conversation.ts';

describe('a message’s parts', () => {
  const reply = toolReply('r', 'u');

  it('reads the answer from the text parts alone, a blank line between texts that tools came between', () => {
    expect(messageText(reply)).toBe('Let me look that up.\n\nIt is 18 °C and sunny in Lisbon.');
    // Texts side by side (a continued reply) join as they are, as before.
    const continued: Message = {
      ...message('a', 'u', 'assistant', ''),
      parts: [
        { type: 'reasoning', text: 'Hm' },
        { type: 'text', text: 'Half a ' },
        { type: 'text', text: 'sentence.' },
      ],
    };
    expect(messageText(continued)).toBe('Half a sentence.');
    // No text before the tools: nothing to set apart.
    expect(messageText({ parts: [toolCall('c', 'f'), { type: 'text', text: 'Done.' }] })).toBe('Done.');
  });

  it('counts a tool call or result as content, as it does a file or a signature', () => {
    expect(hasContent({ parts: [{ type: 'text', text: '' }] })).toBe(false);
    expect(hasContent({ parts: [{ type: 'reasoning', text: '' }] })).toBe(false);
    expect(hasContent({ parts: [{ type: 'reasoning', text: '', signature: 's' }] })).toBe(true);
    expect(hasContent({ parts: [{ type: 'text', text: '' }, toolCall('c', 'f')] })).toBe(true);
    expect(hasContent({ parts: [toolResult('c', 'f', [])] })).toBe(true);
  });

  it('lists the calls and the results in order', () => {
    expect(toolCallParts(reply).map((part) => part.callId)).toEqual(['call-1', 'call-2']);
    expect(toolResultParts(reply).map((part) => [part.callId, part.isError])).toEqual([
      ['call-1', undefined],
      ['call-2', true],
    ]);
  });

  it('names every stored file, a tool’s images with the user’s, so storage keeps them', () => {
    const user = withFiles(message('u', 'root', 'user', 'Look'), attachment('f1'));
    expect(attachmentIds({ messages: [user, reply] })).toEqual(new Set(['f1', 'tool-img-1']));
  });

  it('renames the files a message refers to, for a copy that stores its own', () => {
    const user = withFiles(message('u', 'root', 'user', 'Look'), attachment('f1'));
    const copies = new Map([
      ['f1', 'f1-copy'],
      ['tool-img-1', 'img-copy'],
    ]);
    expect(attachmentIds({ messages: [withFileIds(user, copies), withFileIds(reply, copies)] })).toEqual(
      new Set(['f1-copy', 'img-copy']),
    );
    const plain = message('a', 'u', 'assistant', 'No files');
    expect(withFileIds(plain, copies)).toBe(plain);
  });
});
