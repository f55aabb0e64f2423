import { Download, FileUp, TriangleAlert, Upload } from 'lucide-react';
import { useEffect, useId, useMemo, useState } from 'react';
import { exportPreview } from '../../domain/export-format.ts';
import { useViewState } from '../../hooks/use-chat-state.ts';
import { chat } from '../../state/chat.ts';
import { imagesLeftOutNotes } from '../../state/import-limits.ts';
import type { FoundExport } from '../../state/import-runner.ts';
import { Button } from '../ui/button.tsx';
import { BackupList } from './backup-list.tsx';
import { Dialog, DialogContent } from '../ui/dialog.tsx';
import { Textarea } from '../ui/input.tsx';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../ui/tabs.tsx';

const { exportText, downloadExport, importFile, addImported, cancelImport, setImportExportOpen } = chat;

function Checkbox({
  label,
  checked,
  onChange,
}: {
  label: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
}) {
  const id = useId();
  return (
    <label htmlFor={id} className="flex items-center gap-2 text-sm">
      <input id={id} type="checkbox" checked={checked} onChange={(event) => onChange(event.target.checked)} />
      {label}
    </label>
  );
}

function ExportTab() {
  const [includeApiKey, setIncludeApiKey] = useState(false);
  const [includeAttachments, setIncludeAttachments] = useState(true);
  const [text, setText] = useState('');

  useEffect(() => {
    let current = true;
    void exportText(includeApiKey, includeAttachments).then((next) => {
      if (current && next !== null) setText(next);
    });
    return () => {
      current = false;
    };
    // Built when the tab opens (and when a box changes), not as replies stream in.
  }, [includeApiKey, includeAttachments]);
  // Files' bytes show as their size here; the download carries them.
  const shown = useMemo(() => exportPreview(text), [text]);

  return (
    <div className="flex min-h-0 flex-col gap-3">
      <Textarea
        readOnly
        value={shown}
        aria-label="Exported data"
        data-testid="export-text"
        className="h-64 font-mono text-xs"
      />
      <div className="flex flex-wrap items-center justify-between gap-3">
        <Checkbox label="Include API key" checked={includeApiKey} onChange={setIncludeApiKey} />
        <Checkbox label="Include attachments" checked={includeAttachments} onChange={setIncludeAttachments} />
        <Button onClick={() => downloadExport(text)} disabled={!text}>
          <Download /> Download JSON
        </Button>
      </div>
    </div>
  );
}

function ImportTab() {
  const [text, setText] = useState('');
  const [busy, setBusy] = useState(false);
  const [found, setFound] = useState<FoundExport | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const fileInputId = useId();

  const finish = (ok: boolean) => {
    setBusy(false);
    if (ok) setImportExportOpen(false);
  };

  /** Our own format replaces everything (docs/behaviour.md#import-format); another app's is shown first. */
  const read = async (file: Blob) => {
    setBusy(true);
    setFound(null);
    setProblem(null);
    const outcome = await importFile(file);
    if ('replaced' in outcome) return finish(outcome.replaced);
    setBusy(false);
    if ('found' in outcome) setFound(outcome.found);
    else setProblem(outcome.problem);
  };

  const add = async () => {
    setBusy(true);
    const ok = await addImported();
    setFound(null);
    finish(ok);
  };

  return (
    <div className="flex min-h-0 flex-col gap-3">
      <Textarea
        value={text}
        onChange={(event) => setText(event.target.value)}
        placeholder="Paste JSON data here..."
        aria-label="JSON data to import"
        className="h-56 font-mono text-xs"
      />
      {/* Only our own format overwrites; another app's export, once found, is added (said in its box). */}
      {!found && (
        <p className="flex items-start gap-2 rounded-md bg-amber-50 p-2 text-sm text-amber-900 dark:bg-amber-950/50 dark:text-amber-200">
          <TriangleAlert className="mt-0.5 size-4 shrink-0" />
          Warning: Importing data will overwrite your existing configuration and conversations.
        </p>
      )}
      <p className="text-xs text-muted-foreground">
        Exports of ChatGPT and Claude.ai (the ZIP or its conversations.json), BetterChatGPT and NextChat are
        added to your conversations instead; your configuration is not touched.
      </p>
      <div role="status" className="contents">
        {found && (
          <div className="rounded-md border border-indigo-200 bg-indigo-50 p-3 text-sm dark:border-indigo-900 dark:bg-indigo-950/50">
            <p className="font-medium">
              {found.app}: {found.count} {found.count === 1 ? 'conversation' : 'conversations'}
            </p>
            <p className="mt-1">
              {found.count === 1 ? 'It' : 'These'} will be added to your conversations; nothing is
              overwritten.
            </p>
            {found.skipped > 0 && (
              <p className="mt-1 text-xs">
                {found.skipped} {found.skipped === 1 ? 'entry' : 'entries'} could not be read and will be left
                out.
              </p>
            )}
            {imagesLeftOutNotes(found.imagesLeftOut).map((note) => (
              <p key={note} className="mt-1 text-xs">
                {note}
              </p>
            ))}
            <div className="mt-2 flex gap-2">
              <Button size="sm" onClick={() => void add()} disabled={busy || found.count === 0}>
                Add {found.count} {found.count === 1 ? 'conversation' : 'conversations'}
              </Button>
              <Button
                size="sm"
                variant="outline"
                onClick={() => {
                  setFound(null);
                  void cancelImport();
                }}
              >
                Cancel
              </Button>
            </div>
          </div>
        )}
      </div>
      {problem && (
        <p role="alert" className="text-sm text-red-700 dark:text-red-400">
          {problem}
        </p>
      )}
      <div className="flex flex-wrap items-center justify-between gap-3">
        <label
          htmlFor={fileInputId}
          className="inline-flex cursor-pointer items-center gap-1.5 rounded-md border border-gray-300 px-3 py-2 text-sm hover:bg-gray-100 has-[:disabled]:cursor-not-allowed has-[:disabled]:opacity-50 has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-indigo-500 dark:border-gray-700 dark:hover:bg-gray-800"
        >
          <FileUp className="size-4" /> Choose a file…
          <input
            id={fileInputId}
            type="file"
            accept="application/json,.json,application/zip,.zip"
            className="sr-only"
            // One file at a time: a second read would run beside the first, and the first could
            // still replace everything after the second was chosen.
            disabled={busy}
            onChange={(event) => {
              const file = event.target.files?.[0];
              event.target.value = '';
              if (file) void read(file);
            }}
          />
        </label>
        <Button
          onClick={() => void read(new Blob([text], { type: 'application/json' }))}
          disabled={!text.trim() || busy}
        >
          <Upload /> Import Data
        </Button>
      </div>
      <BackupList onRestored={() => setImportExportOpen(false)} />
    </div>
  );
}

export function ImportExportDialog() {
  const open = useViewState((state) => state.importExportOpen);
  return (
    <Dialog open={open} onOpenChange={setImportExportOpen}>
      <DialogContent title="Import / Export Data">
        <Tabs defaultValue="export" className="flex min-h-0 flex-col gap-3">
          <TabsList>
            <TabsTrigger value="export">Export</TabsTrigger>
            <TabsTrigger value="import">Import</TabsTrigger>
          </TabsList>
          <TabsContent value="export">
            <ExportTab />
          </TabsContent>
          <TabsContent value="import" className="-mx-1 min-h-0 overflow-y-auto px-1">
            <ImportTab />
          </TabsContent>
        </Tabs>
      </DialogContent>
    </Dialog>
  );
}
