import { lazy, Suspense } from 'react';
import { Copy, Eraser, Menu, Moon, Settings, Sun } from 'lucide-react';
import { connectionLabel } from '../../domain/provider-catalog.ts';
import { runAction } from '../../hooks/use-actions.ts';
import { useChatState } from '../../hooks/use-chat-state.ts';
import { useIsPhone } from '../../hooks/use-media-query.ts';
import { useTheme } from '../../hooks/use-theme.ts';
import { chat } from '../../state/chat.ts';
import { isStreamingIn, targetConfig } from '../../state/chat-store.ts';
import { Button } from '../ui/button.tsx';
import { ContextMeter } from './context-meter.tsx';
import { HeaderMenu } from './header-menu.tsx';
import { ConversationSettingsDialog } from './conversation-settings-dialog.tsx';
import { ModelPicker } from './model-picker.tsx';

// Its list of retirements is not needed to draw the first screen.
const RetirementWarning = lazy(() =>
  import('./retirement-warning.tsx').then((module) => ({ default: module.RetirementWarning })),
);

const { copyConversation, setSheet } = chat;

export function ChatHeader() {
  const activeId = useChatState((state) => state.activeId);
  const name = useChatState((state) => state.list.find((row) => row.id === state.activeId)?.name);
  // The provider the next message goes to: the conversation's pin, or the saved configuration.
  const provider = useChatState((state) => connectionLabel(targetConfig(state, state.activeId)));
  const clearDisabled = useChatState(
    (state) => state.activeId !== null && isStreamingIn(state, state.activeId),
  );
  const isPhone = useIsPhone();
  const { resolved } = useTheme();
  const nextTheme = resolved === 'dark' ? 'light' : 'dark';

  return (
    // Sized by its column, not the window: beside the artifact panel the chat may be narrow.
    <div className="@container shrink-0">
      <header className="flex min-h-14 flex-wrap items-center gap-2 border-b border-gray-200 px-3 py-1.5 @xl:flex-nowrap dark:border-gray-800">
        {isPhone && (
          <Button
            variant="ghost"
            size="icon"
            aria-label="Open conversations"
            onClick={() => setSheet('sidebar')}
          >
            <Menu />
          </Button>
        )}
        <h1
          className="min-w-0 flex-1 basis-24 truncate text-base font-semibold @xl:flex-initial @xl:basis-auto"
          title={name}
        >
          {name ?? 'AI Chat'}
        </h1>
        <span
          data-testid="provider-badge"
          className="shrink-0 rounded-full bg-indigo-100 px-2 py-0.5 text-xs font-medium text-indigo-800 dark:bg-indigo-900/60 dark:text-indigo-200"
        >
          {provider}
        </span>
        {activeId && <ModelPicker conversationId={activeId} />}
        {activeId && <ContextMeter conversationId={activeId} />}
        {activeId && (
          <Suspense fallback={null}>
            <RetirementWarning conversationId={activeId} />
          </Suspense>
        )}
        <div className="ml-auto flex items-center gap-1">
          <Button
            variant="ghost"
            size="icon"
            aria-label={`Switch to ${nextTheme} theme`}
            title={`Switch to ${nextTheme} theme`}
            data-testid="theme-toggle"
            onClick={() => runAction('toggle-theme')}
          >
            {resolved === 'dark' ? <Sun /> : <Moon />}
          </Button>
          <HeaderMenu />
          {activeId && (
            <>
              <ConversationSettingsDialog conversationId={activeId} />
              <Button variant="outline" size="sm" onClick={() => void copyConversation(activeId)}>
                <Copy /> <span className="sr-only @3xl:not-sr-only">Copy</span>
              </Button>
              <Button variant="outline" size="sm" disabled={clearDisabled} onClick={() => runAction('clear')}>
                <Eraser /> <span className="sr-only @3xl:not-sr-only">Clear</span>
              </Button>
            </>
          )}
          {isPhone && (
            <Button
              variant="ghost"
              size="icon"
              aria-label="Open settings"
              onClick={() => setSheet('settings')}
            >
              <Settings />
            </Button>
          )}
        </div>
      </header>
    </div>
  );
}
