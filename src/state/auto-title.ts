import { cleanTitle, firstExchange, titlePrompt } from '../domain/auto-title.ts';
import { splitConfig } from '../domain/config.ts';
import { renameConversation } from '../domain/conversation-rules.ts';
import type { ChatContext } from './chat-context.ts';
import { modelCapabilities } from './chat-store.ts';
import type { ReplyTarget } from './config-commands.ts';
import type { OpenConversations } from './open-conversations.ts';

/** A title request that gets no answer in this time is given up. */
const titleTimeoutMs = 30_000;
/** Enough for a few words; a reasoning model keeps its own limit, its thinking counts against it. */
const titleMaxTokens = 40;

/**
 * Names a conversation after its first reply (when the 'Automatic titles'
 * preference is on): its own model is asked once, not streamed, for a title of a few words.
 * A user's rename, before or meanwhile, wins; any failure leaves the name as it is, silently.
 */
export function createAutoTitles(ctx: ChatContext, open: OpenConversations) {
  return async function nameAfterFirstReply(conversationId: string, target: ReplyTarget): Promise<void> {
    const conversation = ctx.get().loaded[conversationId];
    const exchange = conversation && firstExchange(conversation);
    if (!ctx.get().autoTitle || !exchange || !target.service) return;
    const { settings } = splitConfig(target.config);
    const reasons = modelCapabilities(ctx.get(), target.config).reasoning;
    try {
      let answer = '';
      const parts = target.service.chat({
        messages: titlePrompt(exchange),
        settings: reasons ? settings : { ...settings, maxTokens: titleMaxTokens },
        stream: false,
        signal: AbortSignal.timeout(titleTimeoutMs),
      });
      for await (const part of parts) if (part.type === 'text-delta') answer += part.text;
      const title = cleanTitle(answer);
      if (!title) return;
      await open.change(conversationId, (current) =>
        current.renamedAt ? current : renameConversation(current, title, ctx.now()),
      );
    } catch (error) {
      console.info('The conversation keeps its name: no title came back', error);
    }
  };
}
