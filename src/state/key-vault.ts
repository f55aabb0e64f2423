import { connectionsWithKeys, keysOf, withKeyFrom } from '../domain/config.ts';
import { isKeptSecretKey } from '../domain/kept-secrets.ts';
import { base64OfBytes, bytesOfBase64 } from '../lib/base64.ts';
import {
  decryptText,
  deriveKey,
  encryptText,
  passphraseIterations,
  randomBytes,
  saltBytes,
} from '../lib/passphrase-crypto.ts';
import { createKeySession } from '../storage/key-session.ts';
import type { KeyVault } from '../storage/local-settings.ts';
import type { StorageResult } from '../storage/result.ts';
import type { ChatContext } from './chat-context.ts';
import type { ChatState } from './chat-store.ts';

type Keys = Record<string, string>;

/** Everything the vault seals: each connection's key and the MCP servers' secrets (`mcp…` keys). */
function secretsOf(state: ChatState): Keys {
  return { ...keysOf(state.config, state.connections), ...state.mcpSecrets };
}

/** How long a locked tab waits for an unlocked one to hand over the key before asking the user. */
const shareWaitMs = 400;

/** The keys in a vault, or null when `key` is not its key. */
async function openVault(vault: KeyVault, key: CryptoKey): Promise<Keys | null> {
  try {
    const text = await decryptText(key, bytesOfBase64(vault.iv), bytesOfBase64(vault.data));
    if (text === null) return null;
    const value: unknown = JSON.parse(text);
    if (typeof value !== 'object' || value === null) return null;
    return Object.fromEntries(
      Object.entries(value).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
    );
  } catch {
    return null;
  }
}

async function sealVault(keys: Keys, key: CryptoKey, salt: string, iterations: number): Promise<KeyVault> {
  const { iv, data } = await encryptText(key, JSON.stringify(keys));
  return { format: 1, iterations, salt, iv: base64OfBytes(iv), data: base64OfBytes(data) };
}

/**
 * The vault's work, loaded once keys are (or are being) protected (see key-lock.ts). The keys of
 * every connection are kept encrypted in localStorage (the vault), and the configuration and
 * connections are stored with '' for each key, so `ai-chat-config` keeps its shape. Unlocked once
 * per browser session: the vault's key, which no script can read out, is kept for this tab's
 * reloads (key-session.ts), and an unlocked tab hands it to a new one over the tabs' channel. In
 * memory, unlocked keys sit in the configuration as ever.
 */
export function createKeyVault(ctx: ChatContext) {
  const { store } = ctx;
  /** The vault's key and how it was made, once unlocked (or just protected). */
  let held: { key: CryptoKey; salt: string; iterations: number } | null = null;
  const session = createKeySession();
  /** The reseal in progress (see reseal). */
  let sealing: Promise<void> = Promise.resolve();

  const status = () => store.getState().keyLock;

  /** Another tab asks for the key: an unlocked tab hands it over, as a key that cannot be read out. */
  function share(): void {
    if (status() === 'unlocked' && held) ctx.tabSync.post({ type: 'key-share', key: held.key });
  }

  /** Another tab's key: used when it opens this vault. */
  async function receive(key: CryptoKey): Promise<void> {
    if (status() !== 'locked') return;
    if ((await tryKey(key)) && ctx.view.getState().overlay === 'unlock-keys')
      ctx.view.setState({ overlay: null });
  }

  /**
   * Puts the vault's keys into the configuration and connections in memory, and the MCP secrets
   * beside them: exactly the vault's when this tab was unlocked already (another tab resealed it:
   * a secret it removed goes here too), added to those kept meanwhile when it was locked.
   */
  function applyKeys(keys: Keys): void {
    store.setState((state) => {
      const merged = { ...keysOf(state.config, state.connections), ...keys };
      const sealed = Object.fromEntries(Object.entries(keys).filter(([key]) => isKeptSecretKey(key)));
      return {
        config: withKeyFrom(state.config, merged),
        connections: connectionsWithKeys(state.connections, merged),
        mcpSecrets: state.keyLock === 'unlocked' ? sealed : { ...state.mcpSecrets, ...sealed },
        keyLock: 'unlocked',
      };
    });
  }

  /** Holds the vault's key; resolves once it is kept for this tab's reloads. */
  function hold(key: CryptoKey, vault: KeyVault): Promise<void> {
    held = { key, salt: vault.salt, iterations: vault.iterations };
    return session.keep(key);
  }

  /** Tries a key on the stored vault; true (and unlocked) when it opens it. */
  async function tryKey(key: CryptoKey): Promise<boolean> {
    const vault = ctx.settings.loadKeyVault();
    const keys = vault && (await openVault(vault, key));
    if (!vault || !keys) return false;
    const kept = hold(key, vault);
    applyKeys(keys);
    await kept;
    return true;
  }

  /** Writes the configuration, connections and MCP secrets as they are in memory, with or without the secrets. */
  function writeSettings(withKeys: boolean): StorageResult {
    const { config, connections, mcpSecrets } = store.getState();
    const keys = withKeys ? keysOf(config, connections) : {};
    const configWritten = ctx.settings.saveConfig(withKeyFrom(config, keys));
    const connectionsWritten = ctx.settings.saveConnections(connectionsWithKeys(connections, keys));
    const secretsWritten = ctx.settings.saveMcpSecrets(withKeys ? mcpSecrets : {});
    return [configWritten, connectionsWritten].find((result) => !result.ok) ?? secretsWritten;
  }

  /** This tab no longer holds the key; resolves once its kept copy is gone. */
  function lock(): Promise<void> {
    held = null;
    store.setState({ keyLock: 'locked' });
    return session.drop();
  }

  /** Protection off, or the keys forgotten: no tab's copy of the key is kept. */
  function dropKey(): void {
    held = null;
    void session.dropAll();
  }

  return {
    share,
    receive,

    /** After settings were stored: the vault takes the keys as they are now in memory. */
    reseal(): Promise<void> {
      // One at a time, each sealing the keys as they are when it runs: quick changes (an OAuth
      // sign-in writes five values) never let an older copy land last.
      const run = sealing.then(async () => {
        if (status() !== 'unlocked' || !held) return;
        const vault = await sealVault(secretsOf(store.getState()), held.key, held.salt, held.iterations);
        const written = ctx.settings.saveKeyVault(vault);
        if (!written.ok) ctx.notify.error('Could not save the protected keys', written.message);
      });
      // A failed one (reported to its caller) does not stop the next.
      sealing = run.catch(() => undefined);
      return run;
    },

    /**
     * At start, and when another tab changed the stored settings: applies the vault with the key
     * this tab holds (or its session's); without one, asks the other tabs, then (`ask`, at start)
     * the user.
     */
    async load({ ask = false } = {}): Promise<void> {
      const vault = ctx.settings.loadKeyVault();
      if (!vault) {
        if (status() === 'off') return;
        // Another tab stopped protecting them, or forgot them: the stored settings are the truth
        // (plain keys again, or none), never the keys this tab held.
        dropKey();
        const config = ctx.settings.loadConfig();
        store.setState((state) => ({
          keyLock: 'off',
          config: config ?? withKeyFrom(state.config, {}),
          connections: { ...connectionsWithKeys(state.connections, {}), ...ctx.settings.loadConnections() },
          mcpSecrets: ctx.settings.loadMcpSecrets(),
        }));
        return;
      }
      const candidate = held?.key ?? (await session.restore());
      if (candidate && (await tryKey(candidate))) return;
      const dropped = lock();
      ctx.tabSync.post({ type: 'key-request' });
      if (ask)
        setTimeout(() => {
          if (status() === 'locked' && ctx.view.getState().overlay === null)
            ctx.view.setState({ overlay: 'unlock-keys' });
        }, shareWaitMs);
      // Cleared when no tab holds the key any more, not waited for: the app starts meanwhile.
      void dropped.then(() => session.sweep());
    },

    /** Turns protection on: a new salt, the keys sealed, then the settings stored without them. */
    async protect(passphrase: string): Promise<boolean> {
      const salt = base64OfBytes(randomBytes(saltBytes));
      const key = await deriveKey(passphrase, bytesOfBase64(salt), passphraseIterations);
      const vault = await sealVault(secretsOf(store.getState()), key, salt, passphraseIterations);
      const written = ctx.settings.saveKeyVault(vault);
      if (!written.ok) {
        ctx.notify.error('Could not protect the keys', written.message);
        return false;
      }
      store.setState({ keyLock: 'unlocked' });
      const stripped = writeSettings(false);
      if (!stripped.ok) {
        // The keys would stay in the clear beside the vault: nothing is protected, and it says so.
        store.setState({ keyLock: 'off' });
        ctx.settings.saveKeyVault(null);
        writeSettings(true);
        ctx.notify.error('Could not protect the keys', stripped.message);
        return false;
      }
      await hold(key, vault);
      ctx.notify.success('Keys are protected with your passphrase');
      return true;
    },

    /** The passphrase asked once per session; false when it is not the right one. */
    async unlock(passphrase: string): Promise<boolean> {
      const vault = ctx.settings.loadKeyVault();
      if (!vault) return true;
      try {
        return await tryKey(await deriveKey(passphrase, bytesOfBase64(vault.salt), vault.iterations));
      } catch {
        // A damaged vault (its salt is not base64): no passphrase opens it; Forgot passphrase does.
        return false;
      }
    },

    /** Turns protection off (unlocked only): the keys are stored as before, and the vault goes. */
    unprotect(): boolean {
      if (status() !== 'unlocked') return false;
      store.setState({ keyLock: 'off' });
      const written = writeSettings(true);
      if (!written.ok) {
        store.setState({ keyLock: 'unlocked' });
        ctx.notify.error('Could not store the keys', written.message);
        return false;
      }
      ctx.settings.saveKeyVault(null);
      dropKey();
      ctx.notify.success('Keys are no longer protected');
      return true;
    },

    /** 'Forgot passphrase': the keys are cleared, nothing else; Undo brings the vault back. */
    forget(): void {
      const vault = ctx.settings.loadKeyVault();
      ctx.settings.saveKeyVault(null);
      dropKey();
      ctx.view.setState(({ overlay }) => ({ overlay: overlay === 'unlock-keys' ? null : overlay }));
      store.setState((state) => ({
        keyLock: 'off',
        config: withKeyFrom(state.config, {}),
        connections: connectionsWithKeys(state.connections, {}),
        mcpSecrets: {},
      }));
      writeSettings(false);
      ctx.notify.success('API keys cleared', {
        description: 'Your conversations and settings are kept. Enter your keys again in the settings.',
        ...(vault && {
          action: {
            label: 'Undo',
            onClick: () => {
              ctx.settings.saveKeyVault(vault);
              void lock();
              ctx.view.setState({ overlay: 'unlock-keys' });
            },
          },
        }),
      });
    },
  };
}

export type KeyVaultOps = ReturnType<typeof createKeyVault>;
