import { connectionsWithKeys, keysOf, withKeyFrom, type Config, type Connections } from '../domain/config.ts';
import type { ChatContext } from './chat-context.ts';
import type { KeyVaultOps } from './key-vault.ts';

/**
 * 'Protect keys with a passphrase' (off by default), as the rest of the app sees it: what is
 * stored of the settings, and the commands. The vault's work (crypto, the held key) loads only
 * once a vault exists or one is being made (key-vault.ts): the chat screen's first load has none.
 */
export function createKeyLock(ctx: ChatContext) {
  const { store } = ctx;
  let vault: Promise<KeyVaultOps> | null = null;
  const ops = () => (vault ??= import('./key-vault.ts').then(({ createKeyVault }) => createKeyVault(ctx)));
  const status = () => store.getState().keyLock;

  // From the start, before the rest of the app listens: a new tab asks as it boots.
  ctx.tabSync.subscribe((message) => {
    if (message.type === 'key-request' && status() === 'unlocked') void ops().then((ops) => ops.share());
    if (message.type === 'key-share' && status() === 'locked')
      void ops().then((ops) => ops.receive(message.key));
  });

  return {
    /** What is stored of a configuration: without its key while keys are protected. */
    storable(config: Config): Config {
      return status() === 'off' ? config : { ...config, apiKey: '' };
    },
    storableConnections(connections: Connections): Connections {
      return status() === 'off' ? connections : connectionsWithKeys(connections, {});
    },

    /** Settings read back from storage, with the keys this tab holds while they are protected. */
    withHeldKeys(config: Config | null, connections: Connections) {
      // No vault any more: another tab turned protection off or forgot the keys (load() follows).
      if (status() !== 'unlocked' || !ctx.settings.loadKeyVault()) return { config, connections };
      const keys = keysOf(store.getState().config, store.getState().connections);
      return {
        config: config && withKeyFrom(config, keys),
        connections: connectionsWithKeys(connections, keys),
      };
    },

    /** After settings were stored: the vault takes the keys as they are now in memory. */
    async reseal(): Promise<void> {
      if (status() === 'unlocked') await (await ops()).reseal();
    },

    /**
     * At start, and when another tab changed the stored settings: the vault's keys, when there is
     * a vault (see KeyVaultOps.load).
     */
    async load(options: { ask?: boolean } = {}): Promise<void> {
      if (status() === 'off' && !ctx.settings.loadKeyVault()) return;
      try {
        await (await ops()).load(options);
      } catch (error) {
        // Offline without the vault's code, or no WebCrypto here: the app runs, the keys stay locked.
        console.error('Could not read the protected keys', error);
        store.setState({ keyLock: 'locked' });
      }
    },

    async protect(passphrase: string): Promise<boolean> {
      try {
        return await (await ops()).protect(passphrase);
      } catch (error) {
        // No WebCrypto (a page not served over HTTPS), or the vault's code did not load.
        ctx.notify.error(
          'Could not protect the keys',
          error instanceof Error ? error.message : String(error),
        );
        return false;
      }
    },
    async unlock(passphrase: string): Promise<boolean> {
      try {
        return await (await ops()).unlock(passphrase);
      } catch (error) {
        ctx.notify.error('Could not unlock the keys', error instanceof Error ? error.message : String(error));
        return false;
      }
    },
    unprotect: async () => (await ops()).unprotect(),
    forget: async () => (await ops()).forget(),
  };
}

export type KeyLock = ReturnType<typeof createKeyLock>;
