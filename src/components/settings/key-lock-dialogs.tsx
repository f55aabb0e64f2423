import { KeyRound, LockKeyhole } from 'lucide-react';
import { useId, useState, type FormEvent, type ReactNode } from 'react';
import { chat } from '../../state/chat.ts';
import { Button } from '../ui/button.tsx';
import { Dialog, DialogContent } from '../ui/dialog.tsx';
import { Input, Label } from '../ui/input.tsx';

const close = () => chat.setOverlay(null);

function PassphraseField({
  label,
  value,
  onChange,
  autoFocus,
}: {
  label: string;
  value: string;
  onChange(value: string): void;
  autoFocus?: boolean;
}) {
  const id = useId();
  return (
    <div className="flex flex-col gap-1.5">
      <Label htmlFor={id}>{label}</Label>
      <Input
        id={id}
        type="password"
        value={value}
        autoComplete="off"
        autoFocus={autoFocus}
        onChange={(event) => onChange(event.target.value)}
      />
    </div>
  );
}

function Problem({ children }: { children: ReactNode }) {
  return (
    <p role="alert" className="text-sm text-red-700 dark:text-red-400">
      {children}
    </p>
  );
}

/** Deriving the key takes a moment (600,000 iterations): the button says so meanwhile. */
function useBusy() {
  const [busy, setBusy] = useState(false);
  const run = async (work: () => Promise<void>) => {
    setBusy(true);
    try {
      await work();
    } finally {
      setBusy(false);
    }
  };
  return [busy, run] as const;
}

/** 'Protect keys with a passphrase': the passphrase, twice. */
export function ProtectKeysDialog() {
  const [passphrase, setPassphrase] = useState('');
  const [repeated, setRepeated] = useState('');
  const [problem, setProblem] = useState('');
  const [busy, run] = useBusy();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!passphrase) return setProblem('Choose a passphrase.');
    if (passphrase !== repeated) return setProblem('The passphrases do not match.');
    setProblem('');
    void run(async () => {
      if (await chat.protectKeys(passphrase)) close();
    });
  };

  return (
    <Dialog open onOpenChange={(open) => !open && close()}>
      <DialogContent
        title="Protect keys with a passphrase"
        description="Your API keys are then stored encrypted with it, and asked for once each time you open the browser."
        className="w-[min(28rem,calc(100vw-2rem))]"
      >
        <form className="flex flex-col gap-3" onSubmit={submit}>
          <PassphraseField label="Passphrase" value={passphrase} onChange={setPassphrase} autoFocus />
          <PassphraseField label="Repeat passphrase" value={repeated} onChange={setRepeated} />
          <p className="text-xs text-muted-foreground">
            Encrypted with AES-GCM under a key derived from the passphrase (PBKDF2-SHA-256, 600,000
            iterations). Nobody can recover a forgotten passphrase: you would enter your keys again, and
            nothing else is lost.
          </p>
          {problem && <Problem>{problem}</Problem>}
          <div className="flex justify-end gap-2">
            <Button variant="outline" onClick={close}>
              Cancel
            </Button>
            <Button type="submit" disabled={busy}>
              <LockKeyhole /> {busy ? 'Protecting…' : 'Protect keys'}
            </Button>
          </div>
        </form>
      </DialogContent>
    </Dialog>
  );
}

/** Asked once per browser session while keys are protected. */
export function UnlockKeysDialog() {
  const [passphrase, setPassphrase] = useState('');
  const [problem, setProblem] = useState('');
  const [busy, run] = useBusy();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    void run(async () => {
      if (await chat.unlockKeys(passphrase)) close();
      else setProblem('Wrong passphrase');
    });
  };

  return (
    <Dialog open onOpenChange={(open) => !open && close()}>
      <DialogContent
        title="Unlock your API keys"
        description="Your keys are protected with a passphrase. Enter it to use them in this browser session."
        className="w-[min(28rem,calc(100vw-2rem))]"
      >
        <form className="flex flex-col gap-3" onSubmit={submit}>
          <PassphraseField label="Passphrase" value={passphrase} onChange={setPassphrase} autoFocus />
          {problem && <Problem>{problem}</Problem>}
          <div className="flex flex-wrap justify-between gap-2">
            <Button variant="ghost" onClick={() => chat.forgetKeys()}>
              Forgot passphrase
            </Button>
            <span className="flex gap-2">
              <Button variant="outline" onClick={close}>
                Not now
              </Button>
              <Button type="submit" disabled={busy || !passphrase}>
                <KeyRound /> {busy ? 'Unlocking…' : 'Unlock'}
              </Button>
            </span>
          </div>
        </form>
      </DialogContent>
    </Dialog>
  );
}
