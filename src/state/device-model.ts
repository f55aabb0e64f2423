import { switchProvider } from '../domain/provider-catalog.ts';
import {
  browserModelAvailability,
  downloadBrowserModel,
  type BrowserModelAvailability,
} from '../providers/browser-model-availability.ts';
import type { ChatController } from './chat-controller.ts';

/**
 * The browser's own model as the settings show it ('On this device'): where it stands, the
 * download with its progress, and the switch to it. Loaded with the part of the settings that
 * shows it (or the first-run card), never with the first screen.
 */

export type DeviceModelPhase = 'checking' | BrowserModelAvailability;

export interface DeviceModelStatus {
  phase: DeviceModelPhase;
  /** While downloading: the share done, 0 to 1, once the browser has said (null before). */
  progress: number | null;
  /** Why the last download failed, in a sentence; null when it did not. */
  problem: string | null;
}

let status: DeviceModelStatus = { phase: 'checking', progress: null, problem: null };
const listeners = new Set<() => void>();
/** A download this page started: its progress events tell the percentage. */
let downloading = false;
/** A download the browser runs without this page's monitor is polled until it ends. */
let pollTimer: ReturnType<typeof setTimeout> | undefined;
const pollMs = 2000;

function set(next: Partial<DeviceModelStatus>): void {
  const changed = (Object.keys(next) as (keyof DeviceModelStatus)[]).some((key) => next[key] !== status[key]);
  if (!changed) return;
  status = { ...status, ...next };
  for (const listener of listeners) listener();
}

export const deviceModel = {
  /** The status now (the same object until it changes, as useSyncExternalStore needs). */
  get: (): DeviceModelStatus => status,
  subscribe(listener: () => void): () => void {
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
      if (listeners.size === 0) clearTimeout(pollTimer);
    };
  },
  /** Asks the browser again; a download started elsewhere (another tab) is watched until it ends. */
  async check(): Promise<void> {
    if (downloading) return;
    const phase = await browserModelAvailability();
    if (downloading) return;
    set({ phase, ...(phase !== 'downloading' && { progress: null }) });
    clearTimeout(pollTimer);
    if (phase === 'downloading' && listeners.size > 0)
      pollTimer = setTimeout(() => void deviceModel.check(), pollMs);
  },
  /**
   * 'Download': call it in the click itself, since the browser starts a download only for a page
   * the user has just used.
   */
  download(): void {
    if (downloading) return;
    downloading = true;
    clearTimeout(pollTimer);
    set({ phase: 'downloading', progress: 0, problem: null });
    downloadBrowserModel((loaded) => set({ progress: loaded })).then(
      () => {
        downloading = false;
        set({ phase: 'available', progress: null });
        // The browser has the last word (a model that still unpacks says 'downloading').
        void deviceModel.check();
      },
      (error: unknown) => {
        downloading = false;
        set({ problem: error instanceof Error ? error.message : String(error) });
        void deviceModel.check();
      },
    );
  },
};

/**
 * Whether the browser's model can serve here: the browser has one and it is not unavailable
 * (it may still need its download). For the first-run card.
 */
export async function deviceModelCanServe(): Promise<boolean> {
  const phase = await browserModelAvailability();
  return phase !== 'absent' && phase !== 'unavailable';
}

/**
 * Makes 'On this device' the saved configuration, as 'Save Configuration' would (its remembered
 * connection, if any). Returns why it was refused, or null.
 */
export function switchToDeviceModel(
  chat: Pick<ChatController, 'store' | 'saveConfiguration'>,
): string | null {
  const { config, connections } = chat.store.getState();
  return chat.saveConfiguration(switchProvider(config, 'device', connections.device));
}
