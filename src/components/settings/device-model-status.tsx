import { useEffect, useSyncExternalStore } from 'react';
import { deviceModel, type DeviceModelStatus } from '../../state/device-model.ts';
import { cn } from '../../lib/cn.ts';
import { Button } from '../ui/button.tsx';

/**
 * Chrome's published needs for its built-in model (developer.chrome.com/docs/ai/prompt-api): the
 * API itself reports no download size, so this is what the user can be told before the click.
 */
const requirements =
  'The browser does not say how large the download is. Chrome asks for about 22 GB free on the disk that holds its profile, and either 16 GB of memory with 4 processor cores or a graphics card with more than 4 GB of its own memory; an unmetered connection is best. Nothing is downloaded until you press Download.';

function Sentence({ status }: { status: DeviceModelStatus }) {
  switch (status.phase) {
    case 'checking':
      return <>Checking the browser's model…</>;
    case 'absent':
      return (
        <>
          Not available in this browser: it has no built-in model (the Prompt API, in Chrome on capable
          desktops). Choose another provider.
        </>
      );
    case 'unavailable':
      return (
        <>
          Not available on this device. Either the hardware does not meet the model's needs, or the browser
          has turned its model off (by a policy or in its settings); the browser does not say which.
        </>
      );
    case 'downloadable':
      return <>The model is not on this device yet: it must be downloaded once.</>;
    case 'downloading':
      return status.progress === null ? (
        <>Downloading the model…</>
      ) : (
        <>Downloading the model: {Math.round(status.progress * 100)}%</>
      );
    case 'available':
      return <>Ready</>;
  }
}

/**
 * 'On this device' in the settings: where the browser's model stands, in words; the Download
 * button and its progress while it is not on the device yet.
 */
export default function DeviceModelStatusPanel() {
  const status = useSyncExternalStore(deviceModel.subscribe, deviceModel.get);
  useEffect(() => {
    void deviceModel.check();
  }, []);
  const percent = status.progress === null ? null : Math.round(status.progress * 100);

  return (
    <div className="flex flex-col gap-2 rounded-md border border-gray-200 p-3 text-sm dark:border-gray-800">
      <p className="font-medium">The browser's own model</p>
      <p role="status">
        <Sentence status={status} />
      </p>
      {status.phase === 'available' && (
        <p className="text-xs text-muted-foreground">
          It runs in this browser: what you write does not leave this device. It takes no temperature or
          length settings, and no tools.
        </p>
      )}
      {status.phase === 'downloadable' && (
        <>
          <p className="text-xs text-muted-foreground">{requirements}</p>
          <Button type="button" className="self-start" onClick={() => deviceModel.download()}>
            Download
          </Button>
        </>
      )}
      {status.phase === 'downloading' && (
        <div
          role="progressbar"
          aria-label="Model download"
          aria-valuemin={0}
          aria-valuemax={100}
          {...(percent !== null && { 'aria-valuenow': percent, 'aria-valuetext': `${percent}%` })}
          className="h-2 overflow-hidden rounded bg-gray-200 dark:bg-gray-800"
        >
          <div
            className={cn('h-full bg-indigo-600 transition-[width]', percent === null && 'animate-pulse')}
            style={{ width: percent === null ? '100%' : `${percent}%` }}
          />
        </div>
      )}
      {status.problem && (
        <p role="alert" className="text-xs text-red-700 dark:text-red-400">
          {status.problem}
        </p>
      )}
    </div>
  );
}
