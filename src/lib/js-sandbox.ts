/** What a run of 'Run JavaScript' gave: the console's lines, then the value returned or the error. */
export interface JavaScriptRun {
  logs: string[];
  result?: string;
  error?: string;
  /** Stopped at the time limit. */
  timedOut?: true;
}

const runnerUrl = `${import.meta.env.BASE_URL}js-runner.html`;

/**
 * Runs code (a function body: `return` gives its value, `await` works) in a worker inside a new
 * hidden frame (public/js-runner.html): an opaque origin whose policy reaches no network and no
 * app data. The frame, and the worker with it, is removed at the end, at the time limit, or when
 * `signal` aborts; whatever it posts is read as data, never run.
 */
export function runJavaScript(
  code: string,
  { timeoutMs, signal }: { timeoutMs: number; signal?: AbortSignal },
): Promise<JavaScriptRun> {
  return new Promise((resolve, reject) => {
    const frame = document.createElement('iframe');
    frame.setAttribute('sandbox', 'allow-scripts');
    frame.setAttribute('referrerpolicy', 'no-referrer');
    frame.setAttribute('aria-hidden', 'true');
    frame.tabIndex = -1;
    frame.style.display = 'none';
    frame.src = runnerUrl;
    const end = (settle: () => void) => {
      clearTimeout(timer);
      removeEventListener('message', onMessage);
      signal?.removeEventListener('abort', onAbort);
      frame.remove();
      settle();
    };
    const onMessage = (event: MessageEvent) => {
      if (event.source !== frame.contentWindow) return;
      end(() => resolve(readRun(event.data)));
    };
    const onAbort = () => end(() => reject(signal?.reason ?? new DOMException('Aborted', 'AbortError')));
    const timer = setTimeout(
      () => end(() => resolve({ logs: [], error: `Stopped after ${timeoutMs / 1000} s.`, timedOut: true })),
      timeoutMs,
    );
    if (signal?.aborted) return onAbort();
    signal?.addEventListener('abort', onAbort, { once: true });
    addEventListener('message', onMessage);
    // The target is '*' because an opaque origin has no name; the code is all it receives.
    frame.addEventListener('load', () => frame.contentWindow?.postMessage({ code }, '*'), { once: true });
    document.body.append(frame);
  });
}

/** The frame's message, read as plain data of the expected shape only. */
function readRun(data: unknown): JavaScriptRun {
  const record = typeof data === 'object' && data !== null ? (data as Record<string, unknown>) : {};
  const own = (key: string) => (Object.hasOwn(record, key) ? record[key] : undefined);
  const logs = own('logs');
  const run: JavaScriptRun = {
    logs: Array.isArray(logs)
      ? logs.filter((line): line is string => typeof line === 'string').slice(0, 1000)
      : [],
  };
  const result = own('result');
  if (typeof result === 'string') run.result = result;
  const error = own('error');
  if (typeof error === 'string') run.error = error;
  return run;
}
