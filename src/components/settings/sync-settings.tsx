import { useEffect, useId, useState } from 'react';
import { useChatState } from '../../hooks/use-chat-state.ts';
import { chat } from '../../state/chat.ts';
import { syncStatusText } from '../../domain/sync-settings.ts';
import { Button } from '../ui/button.tsx';
import { CheckboxField } from '../ui/checkbox-field.tsx';
import { Input, Label } from '../ui/input.tsx';

interface Field {
  key: 'url' | 'database' | 'username' | 'password';
  label: string;
  type?: string;
  placeholder?: string;
  autoComplete: string;
}

const fields: readonly Field[] = [
  { key: 'url', label: 'Server', type: 'url', placeholder: 'https://couch.example.com', autoComplete: 'url' },
  { key: 'database', label: 'Database', autoComplete: 'off' },
  { key: 'username', label: 'User', autoComplete: 'username' },
  { key: 'password', label: 'Password', type: 'password', autoComplete: 'current-password' },
];

/**
 * 'Sync': the user's own CouchDB (docs/sync.md). Set up with 'Test' (each check in a line, the
 * first failure with its fix) and 'Turn on sync'; while on, where it stands with 'Sync now',
 * 'Pause' and 'Turn off sync'. Loaded with the preferences' first paint.
 */
export default function SyncSettings() {
  const status = useChatState((state) => state.syncStatus);
  const keyLock = useChatState((state) => state.keyLock);
  const [setUp, setSetUp] = useState({ url: '', database: 'byok-chat', username: '', password: '' });
  const [encrypt, setEncrypt] = useState(false);
  const [passphrase, setPassphrase] = useState('');
  const [syncKeys, setSyncKeys] = useState(false);
  const [check, setCheck] = useState<{ ok: boolean; lines: string[] } | null>(null);
  const [busy, setBusy] = useState(false);
  const [target, setTarget] = useState('');
  const on = status !== null;
  useEffect(() => {
    if (on) void chat.syncTarget().then(setTarget);
  }, [on]);
  const headingId = useId();
  const idBase = useId();

  const run = async (action: 'testSync' | 'turnOnSync') => {
    setBusy(true);
    try {
      const { password, ...where } = setUp;
      setCheck(
        action === 'turnOnSync' && encrypt
          ? await chat.turnOnSync(where, password, passphrase, { syncKeys })
          : await chat[action](where, password),
      );
    } catch (error) {
      setCheck({
        ok: false,
        lines: [`The check could not run (${error instanceof Error ? error.message : String(error)}).`],
      });
    } finally {
      setBusy(false);
    }
  };

  return (
    <section
      aria-labelledby={headingId}
      className="mt-6 flex flex-col gap-2 border-t border-gray-200 pt-4 dark:border-gray-800"
    >
      <h3 id={headingId} className="text-sm font-semibold">
        Sync
      </h3>
      {status ? (
        <>
          {target && <p className="text-xs text-faint-foreground">To {target}.</p>}
          <p role="status" className="text-sm">
            {syncStatusText(status)}
          </p>
          <div className="flex flex-wrap gap-2">
            <Button
              size="sm"
              variant="outline"
              disabled={status.kind === 'paused'}
              onClick={() => void chat.syncNow()}
            >
              Sync now
            </Button>
            {status.kind === 'paused' ? (
              <Button size="sm" variant="outline" onClick={() => void chat.resumeSync()}>
                Resume
              </Button>
            ) : (
              <Button size="sm" variant="outline" onClick={() => void chat.pauseSync()}>
                Pause
              </Button>
            )}
            <Button size="sm" variant="ghost" onClick={() => void chat.turnOffSync()}>
              Turn off sync
            </Button>
          </div>
        </>
      ) : (
        <form
          className="flex flex-col gap-2"
          onSubmit={(event) => {
            event.preventDefault();
            void run('turnOnSync');
          }}
        >
          <p className="text-xs text-faint-foreground">
            Your conversations, projects, prompts and settings on every device, through a CouchDB you own (or
            IBM Cloudant, or any CouchDB-compatible server). Keys are never sent there, unless you ask for
            them sealed end to end.
          </p>
          {fields.map((field) => (
            <div key={field.key} className="flex flex-col gap-1">
              <Label htmlFor={`${idBase}-${field.key}`}>{field.label}</Label>
              <Input
                id={`${idBase}-${field.key}`}
                type={field.type ?? 'text'}
                value={setUp[field.key]}
                placeholder={field.placeholder}
                autoComplete={field.autoComplete}
                spellCheck={false}
                onChange={(event) => setSetUp({ ...setUp, [field.key]: event.target.value })}
              />
            </div>
          ))}
          <CheckboxField
            label="Encrypt end to end"
            checked={encrypt}
            disabled={keyLock === 'off'}
            onChange={setEncrypt}
            hint={
              keyLock === 'off'
                ? 'Protect your keys with a passphrase first: that passphrase encrypts what is synced.'
                : 'With your keys’ passphrase, in this browser: the server holds only ciphertext. Every device syncing this database needs the same passphrase.'
            }
          />
          {encrypt && keyLock !== 'off' && (
            <div className="flex flex-col gap-1">
              <Label htmlFor={`${idBase}-passphrase`}>Passphrase</Label>
              <Input
                id={`${idBase}-passphrase`}
                type="password"
                value={passphrase}
                autoComplete="current-password"
                onChange={(event) => setPassphrase(event.target.value)}
              />
              <CheckboxField
                label="Sync API keys too"
                checked={syncKeys}
                onChange={setSyncKeys}
                hint="Sealed like everything else: your other devices get your keys with their connections."
              />
            </div>
          )}
          <div className="flex flex-wrap gap-2">
            <Button size="sm" variant="outline" disabled={busy} onClick={() => void run('testSync')}>
              Test
            </Button>
            <Button size="sm" type="submit" disabled={busy}>
              Turn on sync
            </Button>
          </div>
          {check && (
            <div role={check.ok ? 'status' : 'alert'} className="flex flex-col gap-1 text-xs">
              {check.lines.map((line, index) => (
                <p
                  key={line}
                  className={
                    !check.ok && index === check.lines.length - 1
                      ? 'text-red-700 dark:text-red-400'
                      : undefined
                  }
                >
                  {line}
                </p>
              ))}
            </div>
          )}
        </form>
      )}
    </section>
  );
}
