import { ArchiveRestore, Download } from 'lucide-react';
import { useEffect, useId, useState } from 'react';
import { formatBytes } from '../../domain/attachments.ts';
import { chat } from '../../state/chat.ts';
import type { BackupInfo } from '../../state/backups.ts';
import { useChatState } from '../../hooks/use-chat-state.ts';
import { Button } from '../ui/button.tsx';
import { Popover, PopoverClose, PopoverContent, PopoverTrigger } from '../ui/popover.tsx';

type Outcome = Awaited<ReturnType<typeof chat.backUpNow>>;
type Listing = Awaited<ReturnType<typeof chat.listBackups>>;

const { listBackups, backUpNow, restoreBackup, downloadBackup } = chat;

/** What 'Back up now' found, in words. */
function outcomeText(outcome: Outcome, policy: Listing['policy'] | undefined): string {
  switch (outcome.status) {
    case 'taken':
      return 'Backup taken.';
    case 'unchanged':
      return 'Nothing changed since the last backup.';
    case 'empty':
      return 'There are no conversations to back up yet.';
    case 'too-large':
      return `Too large to keep here (${formatBytes(outcome.bytes)} compressed; backups may take ${formatBytes(policy?.maxBytes ?? 0)}): export your data instead.`;
    // Only a daily backup gives way to another tab's; one asked for waits its turn.
    case 'not-due':
    case 'busy':
      return 'Another tab is taking a backup; try again in a moment.';
    case 'failed':
      return `The backup failed: ${outcome.message}`;
  }
}

function BackupRow({ info, onRestored }: { info: BackupInfo; onRestored: () => void }) {
  const describedBy = useId();
  const [busy, setBusy] = useState(false);
  // Asked before: a restore replaces everything there is now.
  const count = useChatState((state) => state.list.length);
  const taken = new Date(info.takenAt).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
  return (
    <li className="flex flex-wrap items-center justify-between gap-2 py-1.5">
      <span id={describedBy} className="text-sm">
        <span className="font-medium">{taken}</span>
        <span className="text-muted-foreground">
          {' '}
          · {info.conversations} {info.conversations === 1 ? 'conversation' : 'conversations'} ·{' '}
          {formatBytes(info.bytes)}
          {info.reason === 'upgrade' && ' · before an upgrade'}
        </span>
      </span>
      <span className="flex gap-1.5">
        <Popover>
          <PopoverTrigger asChild>
            <Button size="sm" aria-describedby={describedBy} disabled={busy}>
              <ArchiveRestore /> Restore
            </Button>
          </PopoverTrigger>
          <PopoverContent align="end">
            <p className="font-semibold">
              Replace your {count} {count === 1 ? 'conversation' : 'conversations'} and settings with the
              backup of {taken}?
            </p>
            <div className="mt-3 flex justify-end gap-2">
              <PopoverClose asChild>
                <Button variant="outline" size="sm">
                  Cancel
                </Button>
              </PopoverClose>
              <PopoverClose asChild>
                <Button
                  size="sm"
                  onClick={async () => {
                    setBusy(true);
                    const restored = await restoreBackup(info.id);
                    setBusy(false);
                    if (restored) onRestored();
                  }}
                >
                  Restore
                </Button>
              </PopoverClose>
            </div>
          </PopoverContent>
        </Popover>
        <Button
          size="sm"
          variant="outline"
          aria-describedby={describedBy}
          onClick={() => void downloadBackup(info)}
        >
          <Download /> Download
        </Button>
      </span>
    </li>
  );
}

/** The automatic backups kept in this browser, each to restore or download. */
export function BackupList({ onRestored }: { onRestored: () => void }) {
  const headingId = useId();
  const [listing, setListing] = useState<Listing | null>(null);
  const [taking, setTaking] = useState(false);
  const [message, setMessage] = useState('');

  /** Bumped to list them again. */
  const [listed, setListed] = useState(0);

  useEffect(() => {
    let current = true;
    listBackups().then(
      (next) => current && setListing(next),
      (error: unknown) => {
        console.error('Could not list the backups', error);
        if (current) setListing({ backups: [], policy: { keep: 0, maxBytes: 0 } });
      },
    );
    return () => {
      current = false;
    };
  }, [listed]);

  return (
    <section
      aria-labelledby={headingId}
      className="flex flex-col gap-2 border-t border-gray-200 pt-3 dark:border-gray-800"
    >
      <h3 id={headingId} className="text-sm font-semibold">
        Automatic backups
      </h3>
      {listing === null ? (
        <p className="text-sm">Loading backups…</p>
      ) : (
        <>
          <p className="text-xs text-muted-foreground">
            Each day you use the app, a copy of your conversations and settings (never your API key) is kept
            in this browser: the last {listing.policy.keep}, up to {formatBytes(listing.policy.maxBytes)}.
            Restoring one replaces everything, and can be undone.
          </p>
          {listing.backups.length === 0 ? (
            <p className="text-sm">No backups yet.</p>
          ) : (
            <ul aria-label="Backups" className="divide-y divide-gray-200 dark:divide-gray-800">
              {listing.backups.map((info) => (
                <BackupRow key={info.id} info={info} onRestored={onRestored} />
              ))}
            </ul>
          )}
        </>
      )}
      <div className="flex flex-wrap items-center gap-3">
        <Button
          size="sm"
          variant="outline"
          disabled={taking}
          onClick={async () => {
            setTaking(true);
            setMessage('');
            const outcome = await backUpNow();
            setTaking(false);
            setMessage(outcomeText(outcome, listing?.policy));
            // Listed again: a daily one may have landed meanwhile.
            setListed((count) => count + 1);
          }}
        >
          {taking ? 'Backing up…' : 'Back up now'}
        </Button>
        <p role="status" className="text-xs">
          {message}
        </p>
      </div>
    </section>
  );
}
