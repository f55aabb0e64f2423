import type { ModelPin } from '../../domain/conversation.ts';
import { connectionLabel, modelOf } from '../../domain/provider-catalog.ts';
import type { ReasoningEffort } from '../../domain/provider-definitions/capabilities.ts';
import { useChatStateShallow } from '../../hooks/use-chat-state.ts';
import { modelCapabilities, targetConfig } from '../../state/chat-store.ts';

export interface ProjectModel {
  /** The model new conversations of the project ask, '' when none is set. */
  model: string;
  /** Its provider's connection, as the model list names it. */
  connection: string;
  contextWindow: number | undefined;
  /** The efforts it accepts, space-separated (a string, so the shallow comparison holds). */
  efforts: string;
}

/** The model a project's new conversations use: its pin, else the saved configuration's. */
export function useProjectModel(pin: ModelPin | undefined): ProjectModel {
  return useChatStateShallow((state) => {
    const config = pin ? targetConfig(state, null, pin) : state.config;
    const capabilities = modelCapabilities(state, config);
    return {
      model: modelOf(config),
      connection: connectionLabel(config),
      contextWindow: capabilities.contextWindow,
      efforts: capabilities.efforts?.join(' ') ?? '',
    };
  });
}

export const effortsOf = ({ efforts }: ProjectModel): ReasoningEffort[] =>
  efforts ? (efforts.split(' ') as ReasoningEffort[]) : [];
