import { ArrowLeft, ChevronLeft, ChevronRight, Copy, Download, X } from 'lucide-react';
import {
  lazy,
  memo,
  Suspense,
  useEffect,
  useMemo,
  useRef,
  useState,
  type KeyboardEvent,
  type PointerEvent,
  type ReactNode,
} from 'react';
import {
  artifactFileName,
  artifactsOf,
  type Artifact,
  type ArtifactKind,
  type ArtifactVersion,
} from '../../domain/artifacts.ts';
import { activePath } from '../../domain/message-tree.ts';
import { useChatState, useViewState } from '../../hooks/use-chat-state.ts';
import { useCopy } from '../../hooks/use-copy.ts';
import { useIsPhone } from '../../hooks/use-media-query.ts';
import { downloadText } from '../../lib/download.ts';
import { chat } from '../../state/chat.ts';
import { streamingIdsIn } from '../../state/chat-store.ts';
import { PanelTabs, type PanelTab } from '../ui/panel-tabs.tsx';
import { useResolvedTheme } from '../../hooks/use-theme.ts';
import { Button } from '../ui/button.tsx';

// The editor (CodeMirror) loads when the code is first shown.
const CodeEditor = lazy(() => import('./code-editor.tsx'));
import { ArtifactChanges } from './artifact-changes.tsx';
import { ArtifactPreview } from './artifact-preview.tsx';
import { fenced } from '../../domain/markdown-fences.ts';
import { Markdown } from '../chat/lazy-markdown.tsx';

const kindNames: Record<ArtifactKind, string> = {
  html: 'HTML page',
  svg: 'SVG image',
  mermaid: 'Diagram',
  react: 'React component',
  markdown: 'Document',
  code: 'Code',
};

const close = () => chat.showArtifact(null);

/** The narrowest the chat may be made by widening the panel (px). */
const chatMinWidth = 320;
const panelMinWidth = 280;

/**
 * The artifact open beside the chat (desktop: a resizable split; phone: a full-screen sheet with
 * a back button): its preview, code and changes, its versions, copy, download and close
 * (docs/artifacts.md). It follows the conversation: it shows only while that conversation is open.
 */
export default function ArtifactPanel() {
  const open = useViewState((state) => state.artifact);
  const activeId = useChatState((state) => state.activeId);
  const conversation = useChatState((state) => (open ? state.loaded[open.conversationId] : undefined));
  const streamingIds = useChatState((state) => streamingIdsIn(state, open?.conversationId));
  const isPhone = useIsPhone();
  const artifacts = useMemo(
    () =>
      conversation ? artifactsOf(activePath(conversation), streamingIds, conversation.artifactEdits) : [],
    [conversation, streamingIds],
  );

  // Another conversation opened: the panel closes.
  useEffect(() => {
    if (open && open.conversationId !== activeId) chat.showArtifact(null);
  }, [open, activeId]);

  const artifact = useSteadyArtifact(open ? artifacts.find((entry) => entry.key === open.key) : undefined);
  if (!open || open.conversationId !== activeId) return null;
  const body = artifact ? (
    <ArtifactView
      key={artifact.key}
      conversationId={open.conversationId}
      artifact={artifact}
      version={open.version}
      editId={open.editId}
      onClose={close}
      isPhone={isPhone}
    />
  ) : (
    <div className="p-4 text-sm text-muted-foreground">
      This artifact is no longer on this branch of the conversation.
      <button type="button" onClick={close} className="ml-2 underline">
        Close
      </button>
    </div>
  );
  if (isPhone)
    return (
      <div
        role="dialog"
        aria-modal="true"
        aria-label={artifact?.title ?? 'Artifact'}
        className="fixed inset-0 z-40 flex flex-col bg-white dark:bg-gray-950"
      >
        {body}
      </div>
    );
  return <ResizablePanel label={artifact?.title ?? 'Artifact'}>{body}</ResizablePanel>;
}

/** The panel's column on a wide screen, with a handle to resize it (mouse, touch or arrow keys). */
function ResizablePanel({ label, children }: { label: string; children: ReactNode }) {
  const [width, setWidth] = useState(() => Math.round(Math.max(panelMinWidth, window.innerWidth * 0.4)));
  const panel = useRef<HTMLElement>(null);
  const handle = useRef<HTMLDivElement>(null);

  /** The width asked for, kept where the chat keeps its minimum width and the panel its own. */
  const clampedWidth = (wanted: number) => {
    const chatColumn = handle.current?.previousElementSibling;
    const chatWidth = chatColumn instanceof HTMLElement ? chatColumn.getBoundingClientRect().width : Infinity;
    const current = panel.current?.getBoundingClientRect().width ?? wanted;
    const widest = current + chatWidth - chatMinWidth;
    return Math.round(Math.max(panelMinWidth, Math.min(wanted, widest)));
  };
  const resize = (wanted: number) => setWidth(clampedWidth(wanted));
  const drag = (event: PointerEvent<HTMLDivElement>) => {
    event.currentTarget.setPointerCapture(event.pointerId);
    const right = panel.current?.getBoundingClientRect().right ?? window.innerWidth;
    const move = (moved: globalThis.PointerEvent) => resize(right - moved.clientX);
    const up = () => {
      window.removeEventListener('pointermove', move);
      window.removeEventListener('pointerup', up);
    };
    window.addEventListener('pointermove', move);
    window.addEventListener('pointerup', up);
  };
  // Opened, and whenever the window changes size, the chat keeps its minimum width.
  useEffect(() => {
    const fit = () => setWidth((wanted) => clampedWidth(wanted));
    fit();
    window.addEventListener('resize', fit);
    return () => window.removeEventListener('resize', fit);
  }, []);
  const keys = (event: KeyboardEvent<HTMLDivElement>) => {
    const step = event.shiftKey ? 96 : 32;
    if (event.key === 'ArrowLeft') resize(width + step);
    else if (event.key === 'ArrowRight') resize(width - step);
    else return;
    event.preventDefault();
  };
  return (
    <>
      <div
        ref={handle}
        role="separator"
        aria-orientation="vertical"
        aria-label="Resize the artifact panel"
        aria-valuenow={width}
        aria-valuemin={panelMinWidth}
        tabIndex={0}
        onPointerDown={drag}
        onKeyDown={keys}
        className="w-1.5 shrink-0 cursor-col-resize bg-gray-200 hover:bg-indigo-400 focus-visible:bg-indigo-500 focus-visible:outline-none dark:bg-gray-800"
      />
      <aside
        ref={panel}
        aria-label={label}
        style={{ width }}
        className="flex shrink-0 flex-col border-l border-gray-200 bg-white dark:border-gray-800 dark:bg-gray-950"
      >
        {children}
      </aside>
    </>
  );
}

/**
 * The artifact as last shown while its versions are the same: a reply streaming elsewhere in the
 * conversation changes the conversation on every chunk, and the panel need not render again.
 */
function useSteadyArtifact(artifact: Artifact | undefined): Artifact | undefined {
  const [steady, setSteady] = useState(artifact);
  const changed = artifact !== steady && !(artifact && steady && sameArtifact(artifact, steady));
  if (changed) setSteady(artifact);
  return changed ? artifact : steady;
}

function sameArtifact(a: Artifact, b: Artifact): boolean {
  return (
    a.key === b.key &&
    a.kind === b.kind &&
    a.title === b.title &&
    a.versions.length === b.versions.length &&
    a.versions.every((version, index) => {
      const other = b.versions[index];
      return (
        other !== undefined &&
        version.code === other.code &&
        version.messageId === other.messageId &&
        version.streaming === other.streaming &&
        version.editId === other.editId
      );
    })
  );
}

const ArtifactView = memo(function ArtifactView({
  conversationId,
  artifact,
  version,
  editId,
  onClose,
  isPhone,
}: {
  conversationId: string;
  artifact: Artifact;
  version: number | null;
  editId: string | undefined;
  onClose: () => void;
  isPhone: boolean;
}) {
  const count = artifact.versions.length;
  const saved = editId === undefined ? -1 : artifact.versions.findIndex((entry) => entry.editId === editId);
  const index = saved !== -1 ? saved : version === null ? count - 1 : Math.min(version, count - 1);
  const shown = artifact.versions[index] as ArtifactVersion;
  const previous = index > 0 ? artifact.versions[index - 1] : undefined;
  const previewable = artifact.kind !== 'code';
  const [tab, setTab] = useState<'preview' | 'code' | 'changes'>(previewable ? 'preview' : 'code');
  // A version still being written is shown as code; it renders once its block closes.
  const current = shown.streaming && tab === 'preview' ? 'code' : tab;
  // The code as the user is editing it (null: as the version has it), and the edit last run: each
  // of the version it was made on (another version shown has its own code, unedited).
  const [editing, setEditing] = useState<{ index: number; draft: string | null; ran: string | null }>({
    index,
    draft: null,
    ran: null,
  });
  const draft = editing.index === index ? editing.draft : null;
  const ran = editing.index === index ? editing.ran : null;
  const setDraft = (code: string) => setEditing({ index, draft: code, ran });
  const dark = useResolvedTheme() === 'dark';
  const edited = draft !== null && draft !== shown.code;
  const save = async () => {
    if (draft === null) return;
    const id = await chat.saveArtifactEdit(conversationId, {
      key: artifact.key,
      language: shown.language,
      code: draft,
      afterMessageId: shown.messageId,
    });
    // The saved version shows, wherever it landed among the versions.
    chat.showArtifact({ conversationId, key: artifact.key, version: null, editId: id });
  };
  const { copied, copy } = useCopy('Code copied to clipboard');
  const go = (to: number) =>
    chat.showArtifact({
      conversationId,
      key: artifact.key,
      version: to >= count - 1 ? null : to,
    });

  // Escape closes the panel (not while a dialog or menu above it has the key).
  useEffect(() => {
    const listen = (event: globalThis.KeyboardEvent) => {
      if (event.key !== 'Escape' || event.defaultPrevented) return;
      if (document.querySelector('[role="dialog"][data-state="open"], [role="menu"]')) return;
      onClose();
    };
    document.addEventListener('keydown', listen);
    return () => document.removeEventListener('keydown', listen);
  }, [onClose]);

  const button =
    'inline-flex size-8 items-center justify-center rounded text-gray-600 hover:bg-gray-100 focus-visible:ring-2 focus-visible:ring-indigo-500 disabled:opacity-40 dark:text-gray-300 dark:hover:bg-gray-800';
  const tabs: PanelTab<'preview' | 'code' | 'changes'>[] = [
    ...(previewable
      ? [
          {
            value: 'preview' as const,
            label: 'Preview',
            className: 'min-h-0 flex-1 overflow-auto',
            content: !shown.streaming && (
              <ArtifactPreview kind={artifact.kind} code={ran ?? shown.code} language={shown.language} />
            ),
          },
        ]
      : []),
    {
      value: 'code',
      label: 'Code',
      className: 'flex min-h-0 flex-1 flex-col gap-2 overflow-auto px-3 pb-3',
      content: shown.streaming ? (
        <Markdown text={fenced(shown.code, shown.language)} live />
      ) : (
        <>
          <div className="flex items-center gap-2">
            {previewable && (
              <Button
                size="sm"
                variant="outline"
                disabled={draft === null}
                onClick={() => {
                  setEditing({ index, draft, ran: draft });
                  setTab('preview');
                }}
              >
                Run
              </Button>
            )}
            <Button size="sm" disabled={!edited} onClick={() => void save()}>
              Save as version
            </Button>
            {edited && <span className="text-xs text-faint-foreground">Edited, not saved</span>}
          </div>
          <Suspense fallback={<Markdown text={fenced(shown.code, shown.language)} />}>
            <CodeEditor
              key={`${index}:${shown.code.length}`}
              value={draft ?? shown.code}
              language={shown.language}
              dark={dark}
              label={`Code of ${artifact.title}`}
              onChange={setDraft}
            />
          </Suspense>
        </>
      ),
    },
    {
      value: 'changes',
      label: 'Changes',
      disabled: !previous,
      className: 'min-h-0 flex-1 overflow-auto',
      content: previous && <ArtifactChanges before={previous.code} after={shown.code} />,
    },
  ];
  return (
    <PanelTabs<typeof tab>
      tabs={tabs}
      value={current}
      onChange={setTab}
      className="flex min-h-0 flex-1 flex-col"
    >
      <header className="flex flex-wrap items-center gap-2 border-b border-gray-200 px-3 py-2 dark:border-gray-800">
        {isPhone && (
          <button type="button" aria-label="Back to the chat" onClick={onClose} className={button}>
            <ArrowLeft className="size-4" />
          </button>
        )}
        <div className="min-w-0 flex-1">
          <h2 className="truncate text-sm font-semibold">{artifact.title}</h2>
          <p className="text-xs text-faint-foreground">
            {kindNames[artifact.kind]}
            {shown.streaming && ' · being written…'}
            {shown.editId && ' · your version'}
          </p>
        </div>
        <div className="flex items-center" role="group" aria-label="Versions">
          <button
            type="button"
            aria-label="Previous version"
            disabled={index === 0}
            onClick={() => go(index - 1)}
            className={button}
          >
            <ChevronLeft className="size-4" />
          </button>
          <span className="px-1 text-xs tabular-nums" aria-live="polite" data-testid="artifact-version">
            {index + 1} / {count}
          </span>
          <button
            type="button"
            aria-label="Next version"
            disabled={index === count - 1}
            onClick={() => go(index + 1)}
            className={button}
          >
            <ChevronRight className="size-4" />
          </button>
        </div>
        <button
          type="button"
          aria-label={copied ? 'Code copied' : 'Copy code'}
          onClick={() => void copy(shown.code)}
          className={button}
        >
          <Copy className="size-4" />
        </button>
        <button
          type="button"
          aria-label={`Download ${artifactFileName(artifact, shown)}`}
          onClick={() => downloadText(artifactFileName(artifact, shown), shown.code, 'text/plain')}
          className={button}
        >
          <Download className="size-4" />
        </button>
        {!isPhone && (
          <button type="button" aria-label="Close panel" onClick={onClose} className={button}>
            <X className="size-4" />
          </button>
        )}
      </header>
    </PanelTabs>
  );
});
