import { errorName } from './provider-error.ts';
import { languageModelOf, sessionOptions, type LanguageModelAvailability } from './language-model-api.ts';

/** Where the browser's model stands; 'absent': the browser has no Prompt API at all. */
export type BrowserModelAvailability = LanguageModelAvailability | 'absent';

/** Asks the browser, without starting a download; a browser that cannot answer has no model to offer. */
export async function browserModelAvailability(): Promise<BrowserModelAvailability> {
  const api = languageModelOf();
  if (!api) return 'absent';
  try {
    return await api.availability(sessionOptions(false));
  } catch (error) {
    console.warn("The browser's model could not say whether it is available", error);
    return 'unavailable';
  }
}

/**
 * Downloads the model: a session made and at once destroyed, which the browser allows only after
 * a click on the page (call this from the click). `onProgress` hears the share done, 0 to 1.
 * Resolves when the model is there; rejects with a sentence for the user.
 */
export async function downloadBrowserModel(
  onProgress: (loaded: number) => void,
  signal?: AbortSignal,
): Promise<void> {
  const api = languageModelOf();
  if (!api) throw new Error('This browser has no built-in model.');
  try {
    const session = await api.create({
      ...sessionOptions(false),
      signal,
      monitor(monitor) {
        monitor.addEventListener('downloadprogress', (event) => {
          if (Number.isFinite(event.loaded)) onProgress(Math.min(1, Math.max(0, event.loaded)));
        });
      },
    });
    session.destroy();
  } catch (error) {
    throw new Error(downloadFailure(error), { cause: error });
  }
}

function downloadFailure(error: unknown): string {
  switch (errorName(error)) {
    case 'NotAllowedError':
      return 'The browser did not start the download: it may be turned off by a policy or in its settings. Try Download again.';
    case 'AbortError':
      return 'The download was stopped.';
    default:
      return `The download failed: ${error instanceof Error ? error.message : String(error)}`;
  }
}
