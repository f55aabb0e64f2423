import { cn } from '../../lib/cn.ts';

/**
 * The hint wherever the keys are wanted while they are locked with a passphrase (the notice above
 * the conversation, the key field), then 'Unlock keys', which opens the dialog that asks for it.
 */
export function LockedKeysHint({
  onUnlock,
  buttonClassName,
}: {
  onUnlock: () => void;
  buttonClassName?: string;
}) {
  return (
    <>
      Your API keys are locked with a passphrase.{' '}
      <button type="button" className={cn('font-medium underline', buttonClassName)} onClick={onUnlock}>
        Unlock keys
      </button>
    </>
  );
}
