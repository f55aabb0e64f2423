import { RotateCcw } from 'lucide-react';
import { connectionIdOf } from '../../domain/config.ts';
import { connectionLabel } from '../../domain/provider-catalog.ts';
import { dayOf } from '../../domain/provider-definitions/retirement.ts';
import { useChatStateShallow } from '../../hooks/use-chat-state.ts';
import { useRetirements } from '../../hooks/use-retirements.ts';
import { chat } from '../../state/chat.ts';
import { liveModelsOf, targetConfig } from '../../state/chat-store.ts';

/**
 * Under a question whose request failed because its model does not exist or was retired: says so,
 * and offers the provider's recommended model; nothing changes until the user clicks.
 */
export function ModelGoneNotice({
  conversationId,
  questionId,
}: {
  conversationId: string;
  questionId: string;
}) {
  const { recommendedModel } = useRetirements();
  const gone = useChatStateShallow((state) => {
    const turn = state.failedTurn;
    if (turn?.conversationId !== conversationId || turn.questionId !== questionId || !turn.modelGone)
      return null;
    const live = liveModelsOf(state, connectionIdOf(turn.pin));
    return {
      pin: turn.pin,
      label: connectionLabel(targetConfig(state, conversationId, turn.pin)),
      recommended: recommendedModel(turn.pin.provider, dayOf(new Date()), live),
    };
  });
  if (!gone) return null;
  const { pin, label, recommended } = gone;
  return (
    <>
      <span>
        {label} has no model {pin.model}: it does not exist or was retired.
      </span>
      {recommended && recommended !== pin.model && (
        <button
          type="button"
          onClick={() => void chat.switchModelAndRetry(conversationId, { ...pin, model: recommended })}
          className="inline-flex items-center gap-1 rounded border border-gray-300 px-2 py-0.5 hover:bg-gray-100 dark:border-gray-700 dark:hover:bg-gray-800"
        >
          <RotateCcw className="size-3" /> Switch to {recommended} and retry
        </button>
      )}
    </>
  );
}
