// @ts-check
/** The one prompt set every test server offers beside its tools (docs/prompts.md#mcp-prompts). */

import { fromJsonSchema } from '@modelcontextprotocol/server';
import { quadrantsPng } from '../png.mjs';

/**
 * @template T
 * @typedef {import('@modelcontextprotocol/server').StandardSchemaWithJSON<T, T>} Schema
 */

/** The prompt names, in the order prompts/list gives them. */
export const promptNames = /** @type {const} */ (['greeting', 'summarize', 'describe_picture']);

/** @param {string} text */
const userText = (text) => ({
  role: /** @type {const} */ ('user'),
  content: { type: /** @type {const} */ ('text'), text },
});

/**
 * Registers the test prompts on a server (before it connects: the `prompts` capability is
 * declared with the first one).
 * @param {import('@modelcontextprotocol/server').McpServer} server
 */
export function registerTestPrompts(server) {
  server.registerPrompt(
    'greeting',
    { title: 'Greeting', description: 'Asks the assistant to introduce itself. No arguments.' },
    () => ({ messages: [userText('Hello! Please introduce yourself in one sentence.')] }),
  );

  server.registerPrompt(
    'summarize',
    {
      title: 'Summarize a topic',
      description: 'Asks for a summary of a topic, in a style if one is given.',
      argsSchema: /** @type {Schema<{ topic: string, style?: string }>} */ (
        fromJsonSchema({
          type: 'object',
          properties: {
            topic: { type: 'string', description: 'What to summarize.' },
            style: { type: 'string', description: 'How: brief, detailed, for a child…' },
          },
          required: ['topic'],
        })
      ),
    },
    // Two messages, of both roles: the client joins their texts with a blank line. Whether
    // `style` was sent at all shows in the text ('style: (not sent)').
    ({ topic, style }) => ({
      description: `A summary of ${topic}`,
      messages: [
        userText(`Summarize ${topic}${style === undefined ? '' : ` in a ${style} style`}.`),
        {
          role: 'assistant',
          content: {
            type: 'text',
            text: `Of course: a summary of ${topic} follows (style: ${style ?? '(not sent)'}).`,
          },
        },
      ],
    }),
  );

  server.registerPrompt(
    'describe_picture',
    {
      title: 'Describe a picture',
      description: 'Text, a picture and an embedded resource: only the text can go in a message box.',
    },
    () => ({
      messages: [
        userText('Describe this picture.'),
        {
          role: 'user',
          content: { type: 'image', data: quadrantsPng(16).toString('base64'), mimeType: 'image/png' },
        },
        {
          role: 'user',
          content: {
            type: 'resource',
            resource: { uri: 'file:///notes.txt', mimeType: 'text/plain', text: 'Some notes.' },
          },
        },
      ],
    }),
  );
}
