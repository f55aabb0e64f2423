import { TriangleAlert, CloudCheck, CloudOff, CloudUpload, Pause } from 'lucide-react';
import { syncStatusText } from '../../domain/sync-settings.ts';
import { useChatState } from '../../hooks/use-chat-state.ts';
import { chat } from '../../state/chat.ts';

const icons = {
  synced: CloudCheck,
  syncing: CloudUpload,
  offline: CloudOff,
  paused: Pause,
  error: TriangleAlert,
} as const;

/**
 * Where sync stands, always in view while it is on (at the foot of the sidebar), with 'Sync now'
 * and 'Pause' or 'Resume'. Loaded once sync runs: nothing of it while sync is off.
 */
export default function SyncStatusLine() {
  const status = useChatState((state) => state.syncStatus);
  if (!status) return null;
  const Icon = icons[status.kind];
  const paused = status.kind === 'paused';
  return (
    <div className="mb-2 flex items-start gap-2 text-xs text-muted-foreground">
      <Icon
        aria-hidden
        className={
          status.kind === 'error'
            ? 'mt-0.5 size-3.5 shrink-0 text-red-600 dark:text-red-400'
            : 'mt-0.5 size-3.5 shrink-0'
        }
      />
      <p role="status" aria-label="Sync status" className="min-w-0 flex-1">
        {syncStatusText(status)}
      </p>
      {!paused && (
        <button type="button" className="underline" onClick={() => void chat.syncNow()}>
          Sync now
        </button>
      )}
      <button
        type="button"
        className="underline"
        onClick={() => void (paused ? chat.resumeSync() : chat.pauseSync())}
      >
        {paused ? 'Resume' : 'Pause'}
      </button>
    </div>
  );
}
