import { useState } from 'react';
import { compareSize, samePin } from '../../domain/compare.ts';
import type { ModelPin } from '../../domain/conversation.ts';
import { modelOf } from '../../domain/provider-catalog.ts';
import { useChatState, useChatStateShallow } from '../../hooks/use-chat-state.ts';
import { chat } from '../../state/chat.ts';
import { targetConfig } from '../../state/chat-store.ts';
import { Button } from '../ui/button.tsx';
import { LazyModelList } from './lazy-model-list.tsx';

export interface ComparePickerProps {
  conversationId: string;
  close(): void;
}

/**
 * The models to compare: the conversation's set, or its model to start from; each click in the
 * list adds or removes one (at most four), and 'Compare N models' sets them.
 */
export default function ComparePicker({ conversationId, close }: ComparePickerProps) {
  const set = useChatState((state) => state.loaded[conversationId]?.compare);
  // One reading per store change (a selector returning a new object would render without end).
  const current = useChatStateShallow((state) => {
    const config = targetConfig(state, conversationId);
    return { provider: config.provider, model: modelOf(config), endpointId: config.endpointId };
  });
  const [picked, setPicked] = useState<ModelPin[]>(() => {
    if (set) return set;
    const { provider, model, endpointId } = current;
    return model ? [endpointId ? { provider, model, endpointId } : { provider, model }] : [];
  });
  const full = picked.length >= compareSize.max;
  const toggle = (pin: ModelPin) =>
    setPicked((before) =>
      before.some((known) => samePin(known, pin))
        ? before.filter((known) => !samePin(known, pin))
        : before.length < compareSize.max
          ? [...before, pin]
          : before,
    );

  return (
    <div className="flex flex-col gap-2">
      <p className="text-xs text-muted-foreground">
        Each message goes to every model chosen here at once, and their replies show side by side. Choose{' '}
        {compareSize.min} to {compareSize.max}.
      </p>
      <LazyModelList current={picked} onChoose={toggle} />
      <p role="status" className="text-xs text-muted-foreground">
        {picked.length === 0
          ? 'No model chosen.'
          : `${picked.length} chosen: ${picked.map((pin) => pin.model).join(', ')}${full ? ' (the most at once).' : '.'}`}
      </p>
      <div className="flex flex-wrap justify-end gap-2">
        {set && (
          <Button
            size="sm"
            variant="outline"
            onClick={() => {
              void chat.compareModels(conversationId, null);
              close();
            }}
          >
            Stop comparing
          </Button>
        )}
        <Button
          size="sm"
          disabled={picked.length < compareSize.min}
          onClick={() => {
            void chat.compareModels(conversationId, picked);
            close();
          }}
        >
          Compare {picked.length >= compareSize.min ? `${picked.length} models` : 'models'}
        </Button>
      </div>
    </div>
  );
}
