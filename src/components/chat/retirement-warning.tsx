import { TriangleAlert } from 'lucide-react';
import { connectionIdOf } from '../../domain/config.ts';
import { modelOf } from '../../domain/provider-catalog.ts';
import { dayOf, retiresSoon } from '../../domain/provider-definitions/retirement.ts';
import { useChatState } from '../../hooks/use-chat-state.ts';
import { useRetirements } from '../../hooks/use-retirements.ts';
import { liveModelsOf, targetConfig } from '../../state/chat-store.ts';

/**
 * In the header (loaded apart from the first screen), when the conversation's model shuts down
 * within the warning period: 'o3 retires on 2026-12-11'.
 */
export function RetirementWarning({ conversationId }: { conversationId: string }) {
  const { modelEntry } = useRetirements();
  const warning = useChatState((state) => {
    const target = targetConfig(state, conversationId);
    const model = modelOf(target);
    const live = liveModelsOf(state, connectionIdOf(target)) ?? [];
    const today = dayOf(new Date());
    const { shutdown } = modelEntry(target.provider, model, today, live);
    return retiresSoon(shutdown, today) ? `${model} retires on ${shutdown}` : null;
  });
  if (!warning) return null;
  return (
    <span
      role="status"
      className="inline-flex shrink-0 items-center gap-1 rounded-full bg-amber-100 px-2 py-0.5 text-xs font-medium text-amber-900 dark:bg-amber-900/50 dark:text-amber-200"
    >
      <TriangleAlert className="size-3" aria-hidden />
      {warning}
    </span>
  );
}
