import { useState } from 'react';
import { useChatState, useViewState } from '../../hooks/use-chat-state.ts';
import { CheckboxField } from '../ui/checkbox-field.tsx';
import { chat } from '../../state/chat.ts';
import { lazyPart } from '../ui/lazy-part.tsx';
import { ToolSettings } from './tool-settings.tsx';

const StorageFigures = lazyPart(() => import('./storage-figures.tsx'));
const VoiceSettings = lazyPart(() => import('./voice-settings.tsx'));
const SyncSettings = lazyPart(() => import('./sync-settings.tsx'));
// Loaded with the preferences' first paint, apart from them.
const PromptSettings = lazyPart<object>(() =>
  import('./prompt-settings.tsx').then((module) => ({ default: module.PromptSettings })),
);

/** 'Storage', measured when opened (the figures' code loads then too). */
function StorageDetails() {
  const [open, setOpen] = useState(false);
  return (
    <details
      className="rounded-md border border-gray-200 p-2 dark:border-gray-800"
      onToggle={(event) => setOpen(event.currentTarget.open)}
    >
      <summary className="cursor-pointer text-sm font-medium">Storage</summary>
      {open && (
        <div className="mt-2">
          <StorageFigures />
        </div>
      )}
    </details>
  );
}

/** Choices of this browser that are not part of the provider configuration: saved as they change. */
export function Preferences() {
  const autoTitle = useChatState((state) => state.autoTitle);
  return (
    <div className="mt-6 flex flex-col gap-2 border-t border-gray-200 pt-4 dark:border-gray-800">
      <h3 className="text-sm font-semibold">Preferences</h3>
      <CheckboxField
        label="Automatic titles"
        checked={autoTitle}
        onChange={(on) => chat.setAutoTitle(on)}
        hint="After a conversation's first reply, its model is asked for a title of a few words. A name you give it yourself is kept."
      />
      <KeyProtection />
      <StorageDetails />
      <ToolSettings />
      <VoiceSettings />
      <SyncSettings />
      <PromptSettings />
    </div>
  );
}

/** 'Protect keys with a passphrase': on opens the dialog that asks for one; off stores them as before. */
function KeyProtection() {
  const keyLock = useChatState((state) => state.keyLock);
  // Shown on while its dialog asks for the passphrase; Cancel there turns it back off.
  const asking = useViewState((state) => state.overlay === 'protect-keys');
  return (
    <CheckboxField
      label="Protect keys with a passphrase"
      checked={keyLock !== 'off' || asking}
      onChange={(on) => {
        if (on) chat.setOverlay('protect-keys');
        // Turning it off needs the keys: a locked session unlocks first.
        else if (keyLock === 'locked') chat.setOverlay('unlock-keys');
        else chat.unprotectKeys();
      }}
      hint={
        keyLock === 'off'
          ? 'When on, your API keys are stored encrypted, and the passphrase is asked once per browser session.'
          : keyLock === 'locked'
            ? 'Your keys are locked: unlock them with your passphrase to send messages.'
            : 'Your keys are stored encrypted and unlocked for this browser session.'
      }
    />
  );
}
