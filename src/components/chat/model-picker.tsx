import { ChevronDown } from 'lucide-react';
import { connectionLabel, modelOf } from '../../domain/provider-catalog.ts';
import { useChatState, useChatStateShallow, useViewState } from '../../hooks/use-chat-state.ts';
import { chat } from '../../state/chat.ts';
import { targetConfig } from '../../state/chat-store.ts';
import { PopoverButton } from '../ui/popover-button.tsx';
import { LazyModelList } from './lazy-model-list.tsx';

/**
 * 'Model: {id}': the model this conversation's next message goes to. Choosing one pins that
 * provider and model to the conversation; 'Follow the saved configuration' removes the pin.
 */
export function ModelPicker({ conversationId }: { conversationId: string }) {
  // One reading of where the next message goes, per store change (a streamed reply changes it often).
  const { model, provider, endpointId } = useChatStateShallow((state) => {
    const target = targetConfig(state, conversationId);
    return { model: modelOf(target), provider: target.provider, endpointId: target.endpointId };
  });
  const pin = useChatState((state) => state.loaded[conversationId]?.pin);
  const saved = useChatState((state) => `${connectionLabel(state.config)} · ${modelOf(state.config)}`);
  // Opened by its button or by the 'Choose a model' action.
  const open = useViewState((state) => state.overlay === 'model-picker');
  const setOpen = (next: boolean) => chat.setOverlay(next ? 'model-picker' : null);

  return (
    <PopoverButton
      open={open}
      onOpenChange={setOpen}
      aria-label={model ? `Model: ${model}` : 'Choose a model'}
      title={model ? `Model: ${model}` : 'Choose a model'}
      className="inline-flex h-8 max-w-48 items-center gap-1 rounded-md border border-gray-300 px-2 text-xs font-medium hover:bg-gray-100 focus-visible:ring-2 focus-visible:ring-indigo-500 focus-visible:outline-none dark:border-gray-700 dark:hover:bg-gray-800"
      align="start"
      contentClassName="w-80"
      contentLabel="Choose a model"
      content={
        <>
          {pin && (
            <button
              type="button"
              onClick={() => {
                void chat.pinModel(conversationId, null);
                setOpen(false);
              }}
              className="mb-2 w-full rounded border border-gray-200 px-2 py-1 text-left text-xs hover:bg-gray-100 dark:border-gray-700 dark:hover:bg-gray-800"
            >
              Follow the saved configuration ({saved})
            </button>
          )}
          <LazyModelList
            current={endpointId ? { provider, model, endpointId } : { provider, model }}
            onChoose={(choice) => {
              void chat.pinModel(conversationId, choice);
              setOpen(false);
            }}
          />
        </>
      }
    >
      <span className="truncate">{model || 'Choose a model'}</span>
      <ChevronDown className="size-3.5 shrink-0" aria-hidden />
    </PopoverButton>
  );
}
