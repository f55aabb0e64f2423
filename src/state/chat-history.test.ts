import { describe, expect, it } from 'vitest';
import { codeAndPictureReply, linearConversation, message } from '../domain/__fixtures__/conversations.ts';
import { artifactInstruction } from '../domain/artifact-instruction.ts';
import { defaultConfig, type Config } from '../domain/config.ts';
import { historyFor, plainReply, replyTurns, type HistoryFiles } from './chat-history.ts';

const stored = new Map([['drawn-1', new Blob(['png'], { type: 'image/png' })]]);
const files: HistoryFiles = {
  capabilities: { images: true, pdfs: true },
  read: (id) => Promise.resolve(stored.get(id)),
};
const openai: Config = { ...defaultConfig, provider: 'openai', model: 'gpt-5' };

describe('a reply that ran code and drew, sent back', () => {
  it('to its provider: the answer, and the picture with what the provider needs to edit it', async () => {
    const turns = await replyTurns(codeAndPictureReply('r', 'q'), openai, files);
    expect(turns).toEqual([
      {
        role: 'assistant',
        content: 'Let me compute.\n\nThe sum is 55.',
        drawnImages: [
          {
            kind: 'image',
            name: 'image-1.png',
            mimeType: 'image/png',
            data: 'cG5n',
            providerData: { provider: 'openai', model: 'gpt-5', data: { imageCallId: 'ig_1' } },
          },
        ],
      },
    ]);
  });

  it('leaves out a picture no longer stored', async () => {
    const none: HistoryFiles = { ...files, read: () => Promise.resolve(undefined) };
    const turns = await replyTurns(codeAndPictureReply('r', 'q'), openai, none);
    expect(turns[0]?.drawnImages).toBeUndefined();
  });

  it('to another provider: as text, its runs written out and its picture named', async () => {
    const claude: Config = { ...defaultConfig, provider: 'claude', model: 'claude-sonnet-4-5' };
    const [turn] = await replyTurns(codeAndPictureReply('r', 'q'), claude, files);
    expect(turn?.drawnImages).toBeUndefined();
    expect(turn?.content).toBe(plainReply(codeAndPictureReply('r', 'q')));
    expect(turn?.content).toContain(
      '[Ran python code:\n```python\nprint(sum(i*i for i in range(6)))\n```\nOutput:\n```\n55\n\n```\nFiles: plot.png, squares.csv]',
    );
    expect(turn?.content).toContain('[Ran python code (failed: failed):');
    expect(turn?.content).toContain('[Drew an image: image-1.png]');
    expect(plainReply(message('m', null, 'assistant', 'plain'))).toBe('plain');
  });
});

describe("the conversation setting 'Artifacts'", () => {
  const conversation = (toolSwitches?: Record<string, boolean>, prompt = 'You are a helpful assistant.') => ({
    ...linearConversation('c', ['Make a page', 'Here.'], { system: prompt }),
    ...(toolSwitches && { toolSwitches }),
  });
  const system = async (value: ReturnType<typeof conversation>) =>
    (await historyFor(value, value.activeLeafId, openai, files))[0];

  it('off (the default), sends the system prompt exactly as written', async () => {
    expect(await system(conversation())).toEqual({ role: 'system', content: 'You are a helpful assistant.' });
  });

  it('on, ends the system prompt with its instruction, or sends it alone', async () => {
    expect((await system(conversation({ artifacts: true })))?.content).toBe(
      `You are a helpful assistant.\n\n${artifactInstruction}`,
    );
    expect(await system(conversation({ artifacts: true }, ''))).toEqual({
      role: 'system',
      content: artifactInstruction,
    });
  });
});
