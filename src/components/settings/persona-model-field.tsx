import { ChevronDown } from 'lucide-react';
import { useState } from 'react';
import type { ModelPin } from '../../domain/conversation.ts';
import { connectionLabel, modelOf } from '../../domain/provider-catalog.ts';
import { useChatState } from '../../hooks/use-chat-state.ts';
import { targetConfig } from '../../state/chat-store.ts';
import { LazyModelList } from '../chat/lazy-model-list.tsx';
import { Popover, PopoverContent, PopoverTrigger } from '../ui/popover.tsx';

/** 'gpt-5 (OpenAI)': a model as the model list names it. */
function useModelName(pin: ModelPin | undefined): string {
  return useChatState((state) => {
    if (!pin) return '';
    const config = targetConfig(state, null, pin);
    return `${modelOf(config)} (${connectionLabel(config)})`;
  });
}

/** 'Model': none (the conversation keeps its own) or one from the model list. */
export function PersonaModelField({
  model,
  onChange,
}: {
  model: ModelPin | undefined;
  onChange(model?: ModelPin): void;
}) {
  const [open, setOpen] = useState(false);
  const name = useModelName(model);
  const shown = model ? name : "The conversation's own";
  const choose = (pin?: ModelPin) => {
    onChange(pin);
    setOpen(false);
  };
  return (
    <div className="flex flex-col gap-1.5">
      <span className="text-sm font-medium text-gray-700 dark:text-gray-300">Model</span>
      <Popover open={open} onOpenChange={setOpen}>
        <PopoverTrigger
          aria-label={`Model: ${shown}`}
          className="inline-flex h-9 w-full items-center justify-between gap-2 rounded-md border border-gray-300 bg-white px-3 text-left text-sm hover:bg-gray-100 focus-visible:ring-2 focus-visible:ring-indigo-500 focus-visible:outline-none dark:border-gray-700 dark:bg-gray-900 dark:hover:bg-gray-800"
        >
          <span className="truncate">{shown}</span>
          <ChevronDown className="size-4 shrink-0 text-gray-500" aria-hidden />
        </PopoverTrigger>
        <PopoverContent align="start" className="w-80" aria-label="Choose the persona's model">
          {model && (
            <button
              type="button"
              onClick={() => choose()}
              className="mb-2 w-full rounded border border-gray-200 px-2 py-1 text-left text-xs hover:bg-gray-100 dark:border-gray-700 dark:hover:bg-gray-800"
            >
              No model of its own: the conversation keeps its model
            </button>
          )}
          <LazyModelList current={model} onChoose={choose} />
        </PopoverContent>
      </Popover>
      <p className="text-xs text-faint-foreground">
        Conversations started with this persona, or given it, are set to this model.
      </p>
    </div>
  );
}
