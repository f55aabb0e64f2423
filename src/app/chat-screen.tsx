import { lazy, Suspense, useEffect } from 'react';
import { ChatPanel } from '../components/chat/chat-panel.tsx';
import { SettingsPanel } from '../components/settings/settings-panel.tsx';
import { ConversationSidebar } from '../components/sidebar/conversation-sidebar.tsx';
import { Dialog, SheetContent } from '../components/ui/dialog.tsx';
import { lazyPart } from '../components/ui/lazy-part.tsx';
import { ArtifactPanel } from '../components/artifacts/lazy-artifact-panel.ts';
import { useChatState, useViewState } from '../hooks/use-chat-state.ts';
import { useIsPhone } from '../hooks/use-media-query.ts';
import { useSearchIndex } from '../hooks/use-search.ts';
import { useShortcuts } from '../hooks/use-shortcuts.ts';
import { chat } from '../state/chat.ts';

const { setSheet } = chat;

// Import / Export is opened rarely: it loads on first use, outside the chat screen's first load.
const ImportExportDialog = lazy(() =>
  import('../components/sidebar/import-export-dialog.tsx').then((module) => ({
    default: module.ImportExportDialog,
  })),
);

// The palette and the shortcuts list load on first use too.
const CommandPalette = lazy(() => import('../components/palette/command-palette.tsx'));
const KeyboardShortcutsDialog = lazy(() => import('../components/palette/keyboard-shortcuts-dialog.tsx'));
const ProtectKeysDialog = lazy(() =>
  import('../components/settings/key-lock-dialogs.tsx').then((module) => ({
    default: module.ProtectKeysDialog,
  })),
);
const UnlockKeysDialog = lazy(() =>
  import('../components/settings/key-lock-dialogs.tsx').then((module) => ({
    default: module.UnlockKeysDialog,
  })),
);

const ConversationDialogs = lazy(() => import('../components/chat/conversation-dialogs.tsx'));
const ProjectSettingsDialog = lazy(() => import('../components/projects/project-settings-dialog.tsx'));
const MoveToProjectDialog = lazy(() => import('../components/projects/move-to-project-dialog.tsx'));

// Shown only on a first run (no key yet): loaded then, outside the first screen.
const ConnectProviderCard = lazyPart(() => import('../components/settings/connect-provider-card.tsx'));

let booted: Promise<void> | null = null;

/** The chat screen: sidebar, centre column and settings panel; side panels become sheets on phones. */
export function ChatScreen() {
  const ready = useChatState((state) => state.ready);
  const sheet = useViewState((state) => state.sheet);
  const importExportOpen = useViewState((state) => state.importExportOpen);
  const overlay = useViewState((state) => state.overlay);
  const artifactOpen = useViewState((state) => state.artifact !== null);
  const projectSettingsOpen = useViewState((state) => state.projectSettings !== null);
  const movingOpen = useViewState((state) => state.moving !== null);
  const isPhone = useIsPhone();
  useShortcuts();
  useSearchIndex();

  useEffect(() => {
    booted ??= chat.boot().then(chat.watchBrowser, (error: unknown) => {
      console.error('Failed to start', error);
      throw error;
    });
  }, []);

  // Picking a conversation on a phone closes the sheet it was picked from.
  const activeId = useChatState((state) => state.activeId);
  useEffect(() => {
    if (isPhone) setSheet(null);
  }, [activeId, isPhone]);

  if (!ready) {
    return <div className="flex h-dvh items-center justify-center text-sm text-gray-500">Loading…</div>;
  }

  return (
    <div className="flex h-dvh bg-white text-gray-900 dark:bg-gray-950 dark:text-gray-100">
      {isPhone ? (
        <>
          <Dialog open={sheet === 'sidebar'} onOpenChange={(open) => setSheet(open ? 'sidebar' : null)}>
            <SheetContent side="left" title="Conversations">
              <ConversationSidebar />
            </SheetContent>
          </Dialog>
          <Dialog open={sheet === 'settings'} onOpenChange={(open) => setSheet(open ? 'settings' : null)}>
            <SheetContent side="right" title="AI Provider Configuration">
              <SettingsPanel collapsible={false} />
            </SheetContent>
          </Dialog>
        </>
      ) : (
        <div className="shrink-0 border-r border-gray-200 dark:border-gray-800">
          <ConversationSidebar />
        </div>
      )}
      <ChatPanel firstRun={<ConnectProviderCard />} />
      {artifactOpen && <ArtifactPanel />}
      {!isPhone && <SettingsPanel />}
      {importExportOpen && (
        <Suspense fallback={null}>
          <ImportExportDialog />
        </Suspense>
      )}
      {overlay === 'palette' && (
        <Suspense fallback={null}>
          <CommandPalette />
        </Suspense>
      )}
      {overlay === 'shortcuts' && (
        <Suspense fallback={null}>
          <KeyboardShortcutsDialog />
        </Suspense>
      )}
      {overlay === 'protect-keys' && (
        <Suspense fallback={null}>
          <ProtectKeysDialog />
        </Suspense>
      )}
      {overlay === 'unlock-keys' && (
        <Suspense fallback={null}>
          <UnlockKeysDialog />
        </Suspense>
      )}
      {(overlay === 'rename-conversation' || overlay === 'delete-conversation') && (
        <Suspense fallback={null}>
          <ConversationDialogs overlay={overlay} />
        </Suspense>
      )}
      {projectSettingsOpen && (
        <Suspense fallback={null}>
          <ProjectSettingsDialog />
        </Suspense>
      )}
      {movingOpen && (
        <Suspense fallback={null}>
          <MoveToProjectDialog />
        </Suspense>
      )}
    </div>
  );
}
