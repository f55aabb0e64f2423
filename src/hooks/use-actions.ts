import { useMemo } from 'react';
import { createActions, type Action, type ActionId } from '../state/actions.ts';
import { chat } from '../state/chat.ts';
import { useChatStateShallow } from './use-chat-state.ts';
import { phoneQuery } from './use-media-query.ts';
import { systemPrefersDark } from './use-theme.ts';

/** The app's actions, the one registry buttons, shortcuts and the palette run. */
export const actions = createActions(chat, {
  isPhone: () => window.matchMedia(phoneQuery).matches,
  systemDark: systemPrefersDark,
});

const byId = new Map(actions.map((action) => [action.id, action]));

export function runAction(id: ActionId): void {
  const action = byId.get(id);
  if (action?.available(chat.store.getState())) void action.run();
}

/** The actions that make sense now, in registry order. */
export function useAvailableActions(): Action[] {
  const ids = useChatStateShallow((state) =>
    actions.filter((action) => action.available(state)).map((action) => action.id),
  );
  return useMemo(() => ids.map((id) => byId.get(id) as Action), [ids]);
}
