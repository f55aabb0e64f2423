import { Mic, RotateCcw, Square, X } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { useViewState } from '../../hooks/use-chat-state.ts';
import { chat } from '../../state/chat.ts';
import { startDictation, type Dictation, type DictationPhase } from '../../voice/dictation.ts';
import { Button } from '../ui/button.tsx';
import { LevelMeter } from './level-meter.tsx';

export interface DictationBarProps {
  /** The transcript, for the message box (not sent: the user reads and fixes it first). */
  onText(text: string): void;
}

const end = () => chat.view.setState({ voice: null });

/** m:ss */
function duration(ms: number): string {
  const seconds = Math.max(0, Math.floor(ms / 1000));
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
}

function Elapsed({ since }: { since: number }) {
  const [now, setNow] = useState(since);
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 250);
    return () => clearInterval(timer);
  }, []);
  return <span className="tabular-nums">{duration(now - since)}</span>;
}

/**
 * Above the message box while dictating: how long it has recorded, the microphone's level, what the
 * browser heard so far, then the transcription, or why it failed with 'Retry'. Loaded on the first
 * dictation, with the recorder and the transcription requests.
 */
export default function DictationBar({ onText }: DictationBarProps) {
  const [phase, setPhase] = useState<DictationPhase>({ kind: 'starting' });
  const dictation = useRef<Dictation | null>(null);
  const ending = useViewState((state) => state.voice === 'dictation-ending');
  const stopButton = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    const session = startDictation(setPhase);
    dictation.current = session;
    return () => session.cancel();
  }, []);
  useEffect(() => {
    if (phase.kind !== 'done') return;
    if (phase.text) onText(phase.text);
    end();
  }, [phase, onText]);
  useEffect(() => {
    if (!ending) return;
    if (phase.kind === 'recording') dictation.current?.finish();
    else if (phase.kind !== 'transcribing') end();
    else chat.view.setState({ voice: 'dictation' });
  }, [ending, phase.kind]);
  useEffect(() => {
    if (phase.kind === 'recording') stopButton.current?.focus();
  }, [phase.kind]);

  return (
    <div
      role="group"
      aria-label="Dictation"
      className="mx-auto mb-2 flex max-w-3xl flex-wrap items-center gap-2 rounded-md border border-gray-200 bg-white px-3 py-2 text-sm dark:border-gray-800 dark:bg-gray-900"
    >
      {phase.kind === 'failed' ? (
        <>
          <p role="alert" className="min-w-0 flex-1 text-red-700 dark:text-red-400">
            {phase.problem}
          </p>
          {phase.canRetry && (
            <Button size="sm" variant="outline" onClick={() => dictation.current?.retry()}>
              <RotateCcw /> Retry transcription
            </Button>
          )}
          <Button size="sm" variant="ghost" onClick={end}>
            <X /> {phase.canRetry ? 'Discard recording' : 'Close'}
          </Button>
        </>
      ) : (
        <>
          <Mic
            aria-hidden
            className="size-4 shrink-0 text-red-600 motion-safe:animate-pulse dark:text-red-400"
          />
          <p role="status" className="flex flex-1 flex-wrap items-center gap-2">
            {phase.kind === 'recording' ? (
              <>
                <span className="shrink-0 whitespace-nowrap">
                  Recording <Elapsed since={phase.since} />
                </span>
                {phase.heard === null && (
                  <LevelMeter level={() => dictation.current?.level() ?? 0} className="shrink-0" />
                )}
                {phase.heard !== null && (
                  <span className="max-w-full truncate text-muted-foreground">
                    {phase.heard || 'Listening…'}
                  </span>
                )}
              </>
            ) : phase.kind === 'transcribing' ? (
              'Transcribing…'
            ) : (
              'Starting the microphone…'
            )}
          </p>
          <div className="ml-auto flex gap-2">
            <Button
              ref={stopButton}
              size="sm"
              disabled={phase.kind !== 'recording'}
              onClick={() => dictation.current?.finish()}
            >
              <Square /> Stop dictation
            </Button>
            <Button size="sm" variant="ghost" onClick={end}>
              <X /> Cancel dictation
            </Button>
          </div>
        </>
      )}
    </div>
  );
}
