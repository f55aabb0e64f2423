import type { Project } from '../domain/projects.ts';
import type { ChatMessage } from '../providers/types.ts';
import { filesForModel } from './attachment-files.ts';
import type { HistoryFiles } from './chat-history.ts';

/**
 * A project's part of every request of its conversations (docs/projects.md): its instructions,
 * and its files that go as text, start the system message (before the conversation's own
 * prompt); its files the model takes as files start the first question's. Each place says where
 * the shared part ends (`sharedPrefix`), for the providers' prompt caching.
 */
export async function withProject(
  turns: ChatMessage[],
  project: Pick<Project, 'instructions' | 'files'>,
  files: HistoryFiles,
): Promise<ChatMessage[]> {
  const delivered = await filesForModel(project.files, files.capabilities, files.read);
  const shared = [project.instructions.trim(), ...delivered.texts].filter((text) => text !== '').join('\n\n');
  const sent = [...turns];
  if (shared !== '') {
    const first = sent[0];
    if (first?.role === 'system')
      sent[0] = {
        ...first,
        content: first.content === '' ? shared : `${shared}\n\n${first.content}`,
        sharedPrefix: { text: shared.length },
      };
    else sent.unshift({ role: 'system', content: shared, sharedPrefix: { text: shared.length } });
  }
  const question = sent.findIndex((message) => message.role === 'user');
  const asked = sent[question];
  if (asked && delivered.files.length > 0)
    sent[question] = {
      ...asked,
      files: [...delivered.files, ...(asked.files ?? [])],
      sharedPrefix: { files: delivered.files.length },
    };
  return sent;
}
