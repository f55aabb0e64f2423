import * as ReactModule from 'react';
import * as ReactDOMModule from 'react-dom';
import * as ReactDOMClientModule from 'react-dom/client';
import * as LucideModule from 'lucide-react';
import * as RechartsModule from 'recharts';
import {
  artifactLimits,
  parseRenderRequest,
  type FrameMessage,
  type RenderRequest,
} from '../../../src/components/artifacts/react-frame/protocol.ts';
import {
  chooseComponent,
  declaredNames,
  describeError,
  evaluate,
  ImportNotAvailable,
  lineOffset,
  positionIn,
  renderOfError,
  transpile,
  type ArtifactError,
  type Compile,
} from './run-artifact.ts';

/**
 * The React artifact frame's script (see plugin.ts): renders the component the app sends, in a
 * document framed with sandbox="allow-scripts" (an opaque origin) and a policy with no network.
 * Loaded after the Tailwind browser runtime, which styles whatever classes appear in the page.
 */

const { createElement, Component, useLayoutEffect } = ReactModule;
type Root = ReactDOMClientModule.Root;

/** Captured before any artifact runs: a component can replace `window.parent`, not this. */
const host = window.parent;
const send = (message: FrameMessage) => host.postMessage(message, '*');

/** Errors one render may report: a component failing in a timer would otherwise flood the app. */
const errorsPerRender = 20;
/** Longest wait for the Tailwind runtime's first stylesheet before saying 'ready' anyway. */
const stylesTimeoutMs = 3_000;

interface Current {
  number: number;
  sourceName: string;
  id: number | undefined;
  root?: Root;
  /** Roots the artifact made itself with react-dom/client. */
  ownRoots: Root[];
  errors: number;
  lastError?: string;
  observer?: ResizeObserver;
  /** After 'rendered': size changes are reported as 'resized'. */
  painted: boolean;
  height?: number;
}

/**
 * `new Function` from the page's inline script (plugin.ts), taken and removed before any artifact
 * runs. Code compiled by this bundle would count as cross-origin to the page (a classic script
 * from a URL, in an opaque origin), and the browser would hide its errors from 'error' events
 * ("Script error.") and drop its unhandled rejections; compiled by an inline script, it is the
 * page's own.
 */
const compile = Reflect.get(window, 'artifactCompile') as Compile | undefined;
Reflect.deleteProperty(window, 'artifactCompile');

let current: Current | undefined;
let renders = 0;
const offset = lineOffset(compile);
const content = document.createElement('div');
content.id = 'artifact-content';
// Its height is the content's: children's margins stay inside it.
content.style.display = 'flow-root';

/** Modules as plain frozen objects: an artifact cannot change what the next one imports. */
const plain = (namespace: object) => Object.freeze({ ...namespace });
const React = plain(ReactModule);
const shared = {
  react: React,
  'react-dom': plain(ReactDOMModule),
  'lucide-react': plain(LucideModule),
  recharts: plain(RechartsModule),
};

function modulesFor(render: Current): Record<string, unknown> {
  // An artifact that mounts itself (createRoot(document.getElementById('root')).render(<App />))
  // is let do so; its roots are unmounted with it.
  const createRoot: typeof ReactDOMClientModule.createRoot = (container, options) => {
    const root = ReactDOMClientModule.createRoot(container, options);
    render.ownRoots.push(root);
    return root;
  };
  return { ...shared, 'react-dom/client': Object.freeze({ ...ReactDOMClientModule, createRoot }) };
}

function report(render: Current, error: ArtifactError) {
  if (current !== render || render.errors >= errorsPerRender) return;
  const message = error.message.slice(0, artifactLimits.message);
  const key = `${error.phase}:${error.line}:${message}`;
  if (key === render.lastError) return;
  render.errors += 1;
  render.lastError = key;
  send({
    type: 'error',
    message,
    phase: error.phase,
    ...(error.line !== undefined && error.line <= artifactLimits.line && { line: error.line }),
    ...(error.column !== undefined && error.column <= artifactLimits.line && { column: error.column }),
    ...(render.id !== undefined && { id: render.id }),
  });
}

function reportThrown(render: Current, error: unknown, phase: ArtifactError['phase'] = 'runtime') {
  const position = positionIn(error, render.sourceName, offset);
  report(render, {
    phase: error instanceof ImportNotAvailable ? 'import' : phase,
    message: describeError(error),
    ...position,
  });
}

function height(): number {
  const box = content.getBoundingClientRect();
  return Math.min(artifactLimits.height, Math.ceil(Math.max(box.height, content.scrollHeight)));
}

/**
 * Runs `then` once the frame has painted. A frame out of view may get no animation frames, so a
 * timer stands in for them.
 */
function afterPaint(then: () => void) {
  let done = false;
  const once = () => {
    if (done) return;
    done = true;
    then();
  };
  requestAnimationFrame(() => setTimeout(once, 0));
  setTimeout(once, 250);
}

function painted(render: Current) {
  afterPaint(() => {
    if (current !== render || render.painted) return;
    render.painted = true;
    render.height = height();
    send({ type: 'rendered', height: render.height, ...(render.id !== undefined && { id: render.id }) });
    let queued = false;
    render.observer = new ResizeObserver(() => {
      if (queued) return;
      queued = true;
      requestAnimationFrame(() => {
        queued = false;
        const now = height();
        if (current !== render || now === render.height) return;
        render.height = now;
        send({ type: 'resized', height: now, ...(render.id !== undefined && { id: render.id }) });
      });
    });
    render.observer.observe(content);
  });
}

interface BoundaryProps {
  render: Current;
  children?: ReactModule.ReactNode;
}

/** Catches what the component throws while rendering; shows nothing in its place. */
class Boundary extends Component<BoundaryProps, { failed: boolean }> {
  override state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  override componentDidCatch(error: unknown) {
    reportThrown(this.props.render, error);
  }
  override render() {
    return this.state.failed ? null : this.props.children;
  }
}

/** Rendered after the component: its layout effect runs once the whole tree is committed. */
function Committed({ onCommit }: { onCommit: () => void }) {
  useLayoutEffect(onCommit, [onCommit]);
  return null;
}

function unmount(render: Current) {
  render.observer?.disconnect();
  for (const root of [render.root, ...render.ownRoots])
    try {
      root?.unmount();
    } catch {
      // A root the artifact already unmounted, or broke.
    }
  content.replaceChildren();
}

function show(request: RenderRequest) {
  if (current) unmount(current);
  renders += 1;
  const render: Current = {
    number: renders,
    sourceName: `artifact-${renders}.${request.language}`,
    id: request.id,
    ownRoots: [],
    errors: 0,
    painted: false,
  };
  current = render;
  document.documentElement.classList.toggle('dark', request.theme === 'dark');

  const transpiled = transpile(request.code, request.language);
  if ('error' in transpiled) return report(render, transpiled.error);

  // For an artifact that mounts itself where such code expects it.
  const ownContainer = document.createElement('div');
  ownContainer.id = 'root';
  content.append(ownContainer);

  let chosen: ReturnType<typeof chooseComponent>;
  try {
    const evaluated = evaluate({
      code: transpiled.code,
      names: declaredNames(request.code),
      sourceName: render.sourceName,
      modules: modulesFor(render),
      react: React,
      ...(compile && { compile }),
    });
    chosen = chooseComponent(evaluated);
    if (render.ownRoots.length > 0 && evaluated.exports.default === undefined) return painted(render);
  } catch (error) {
    return reportThrown(render, error);
  }
  if (!chosen)
    return report(render, {
      phase: 'runtime',
      message: 'Nothing to render: export a component as the default export (export default function App…).',
    });
  ownContainer.remove();

  const root = ReactDOMClientModule.createRoot(content, {
    // Thrown outside any boundary (an event handler's error reaches 'error' below instead).
    onUncaughtError: (error) => reportThrown(render, error),
  });
  render.root = root;
  const element =
    'element' in chosen ? chosen.element : createElement(chosen.component as ReactModule.ElementType);
  root.render(
    createElement(
      Boundary,
      { render },
      element as ReactModule.ReactNode,
      createElement(Committed, { onCommit: () => painted(render) }),
    ),
  );
}

/** Errors after the code ran (handlers, timers, promises) go to the render they came from. */
function onStrayError(error: unknown) {
  if (!current) return;
  const from = renderOfError(error);
  // A timer an earlier artifact left running: not this one's error.
  if (from !== undefined && from !== current.number) return;
  reportThrown(current, error);
}

/** Resolves once the Tailwind runtime has written its first stylesheet (or it never will). */
function stylesReady(): Promise<void> {
  const written = () =>
    [...document.head.querySelectorAll('style:not([type]):not([id])')].some((style) => style.textContent);
  return new Promise((resolve) => {
    if (written()) return resolve();
    const observer = new MutationObserver(() => {
      if (!written()) return;
      observer.disconnect();
      resolve();
    });
    observer.observe(document.head, { childList: true, subtree: true, characterData: true });
    setTimeout(() => {
      observer.disconnect();
      resolve();
    }, stylesTimeoutMs);
  });
}

async function start() {
  // Framed any other way than sandboxed (an opaque origin), it would run a stranger's code with
  // this site's origin: it renders nothing for anyone.
  if (self.origin !== 'null' || host === window) {
    document.body.textContent = 'This page only works inside the app.';
    return;
  }
  // No policy reaches WebRTC in Chromium yet: the peer-connection interfaces go, as in preview.html.
  for (const name of Object.getOwnPropertyNames(window))
    if (/^(webkit)?RTC/.test(name)) Reflect.deleteProperty(window, name);

  document.body.append(content);
  // Capturing, and added before any artifact runs: a listener an artifact adds later cannot stop
  // these from hearing an event.
  addEventListener(
    'error',
    (event) => {
      // Not a resource that failed to load (an image, a stylesheet): those are no exceptions.
      if (event instanceof ErrorEvent) onStrayError(event.error ?? event.message);
    },
    true,
  );
  addEventListener('unhandledrejection', (event) => onStrayError(event.reason), true);
  addEventListener(
    'message',
    (event) => {
      if (event.source !== host) return;
      const request = parseRenderRequest(event.data);
      if (request) show(request);
    },
    true,
  );
  await stylesReady();
  send({ type: 'ready' });
}

void start();
