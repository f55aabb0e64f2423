import type { ChatContext } from './chat-context.ts';
import type { KeyLock } from './key-lock.ts';

/**
 * Secrets kept like API keys (ChatState.mcpSecrets: the MCP servers' tokens and the sync
 * password): in the clear while keys are not protected, sealed in the vault with them while they
 * are; never exported or backed up.
 */
export function createKeptSecrets({ ctx, keyLock }: { ctx: ChatContext; keyLock: KeyLock }) {
  const { store } = ctx;

  /** Secrets changed in memory: stored as the API keys are (in the clear, or resealed in the vault). */
  function persist(): void {
    const { keyLock: lock, mcpSecrets } = store.getState();
    // Another tab may have just protected the keys: never a copy in the clear beside the vault.
    if (lock === 'off' && !ctx.settings.loadKeyVault()) {
      const written = ctx.settings.saveMcpSecrets(mcpSecrets);
      if (!written.ok) ctx.notify.error('Could not save the secret', written.message);
    } else if (lock === 'unlocked') void keyLock.reseal();
    // Locked: kept for this session only; adding a secret asks for the unlock first.
  }

  return {
    /**
     * Changes the secrets. Applied to what storage holds when they are kept in the clear, so a
     * change another tab made meanwhile is not written over; sealed ones are this tab's (the vault
     * keeps every tab's copy in step).
     */
    write(change: (secrets: Record<string, string>) => Record<string, string>): void {
      store.setState((state) => ({
        mcpSecrets: change(state.keyLock === 'off' ? ctx.settings.loadMcpSecrets() : { ...state.mcpSecrets }),
      }));
      persist();
    },
    read: (key: string): string | undefined => store.getState().mcpSecrets[key],
  };
}

export type KeptSecrets = ReturnType<typeof createKeptSecrets>;
