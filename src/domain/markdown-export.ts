import { formatBytes } from './attachments.ts';
import {
  attachmentParts,
  defaultSystemPrompt,
  messageText,
  reasoningParts,
  type Conversation,
  type Message,
} from './conversation.ts';
import { activePath } from './message-tree.ts';

/**
 * 'Download as Markdown': one conversation's shown path as a Markdown document. Message texts go
 * in as they are (they are Markdown already, code fences included); a reply's thinking goes in a
 * collapsible <details> block before it; files are named, not embedded.
 */

/** Text that closes the <details> block would end it early: written as an entity instead. */
const inDetails = (text: string) => text.replace(/<\/details>/gi, '&lt;/details>');

function heading(message: Message): string {
  if (message.role === 'user') return '## User';
  return message.model ? `## Assistant (${message.model})` : '## Assistant';
}

function messageMarkdown(message: Message): string {
  const blocks = [heading(message)];
  const files = attachmentParts(message);
  if (files.length > 0)
    blocks.push(
      files
        .map((file) => `- Attached: ${file.name} (${file.mimeType}, ${formatBytes(file.size)})`)
        .join('\n'),
    );
  const thinking = reasoningParts(message)
    .map((part) => part.text.trim())
    .filter(Boolean)
    .join('\n\n');
  if (thinking) blocks.push(`<details>\n<summary>Thinking</summary>\n\n${inDetails(thinking)}\n\n</details>`);
  const text = messageText(message).trim();
  if (text) blocks.push(text);
  if (message.status === 'stopped') blocks.push('_(Stopped before the end.)_');
  if (message.status === 'interrupted')
    blocks.push(`_(Interrupted: ${message.error ?? 'the reply did not finish'}.)_`);
  return blocks.join('\n\n');
}

export function conversationMarkdown(conversation: Conversation): string {
  const path = activePath(conversation);
  const system = path.find((message) => message.role === 'system');
  const prompt = system ? messageText(system).trim() : '';
  const blocks = [`# ${conversation.name.replace(/\s+/g, ' ').trim() || 'Conversation'}`];
  if (prompt && prompt !== defaultSystemPrompt)
    blocks.push(
      `**System prompt**\n\n${prompt
        .split('\n')
        .map((line) => `> ${line}`)
        .join('\n')}`,
    );
  for (const message of path) if (message.role !== 'system') blocks.push(messageMarkdown(message));
  return `${blocks.join('\n\n')}\n`;
}

/** '2026-11-25 Trip to Lisbon.md': the date and the name, without characters file systems refuse. */
export function markdownFileName(conversation: Conversation, now: Date): string {
  const name = conversation.name
    .replace(/[\\/:*?"<>|]+/g, '-')
    .replace(/\p{Cc}+/gu, '')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 80);
  return `${now.toISOString().slice(0, 10)} ${name || 'Conversation'}.md`;
}
