import { AudioLines, Ear, LoaderCircle, Mic, Square } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { chat } from '../../state/chat.ts';
import { cn } from '../../lib/cn.ts';
import { startHandsFree, type HandsFree, type TalkPhase } from '../../voice/hands-free.ts';
import { Button } from '../ui/button.tsx';
import { LevelMeter } from './level-meter.tsx';

export interface HandsFreePanelProps {
  conversationId: string;
}

const phaseText: Readonly<Record<TalkPhase, string>> = {
  starting: 'Starting the microphone…',
  listening: 'Listening…',
  hearing: 'Hearing you…',
  thinking: 'Thinking…',
  speaking: 'Speaking…',
};

const phaseIcon: Readonly<Record<TalkPhase, typeof Mic>> = {
  starting: LoaderCircle,
  listening: Ear,
  hearing: Mic,
  thinking: LoaderCircle,
  speaking: AudioLines,
};

const end = () => chat.setVoice(null);

/**
 * In place of the message box while talking hands-free: what it is doing (listening, thinking,
 * speaking) in words and colour, the microphone's level, what it heard, and a big Stop. The
 * conversation above shows the questions and replies as they come. Loaded on first use.
 */
export default function HandsFreePanel({ conversationId }: HandsFreePanelProps) {
  const [phase, setPhase] = useState<TalkPhase>('starting');
  const [heard, setHeard] = useState('');
  const [problem, setProblem] = useState<{ text: string; fatal: boolean } | null>(null);
  const talk = useRef<HandsFree | null>(null);
  const stopButton = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    const session = startHandsFree(conversationId, {
      phase(next) {
        setPhase(next);
        if (next === 'hearing') setProblem(null);
      },
      problem: (text, fatal) => setProblem({ text, fatal }),
      heard: setHeard,
    });
    talk.current = session;
    stopButton.current?.focus();
    return () => session.stop();
  }, [conversationId]);

  const Icon = phaseIcon[phase];
  const fatal = problem?.fatal ?? false;
  return (
    <section
      aria-label="Hands-free conversation"
      className="border-t border-gray-200 p-4 pb-[max(1rem,env(safe-area-inset-bottom))] dark:border-gray-800"
      onKeyDown={(event) => {
        if (event.key === 'Escape') end();
      }}
    >
      <div className="mx-auto flex max-w-3xl flex-col items-center gap-3 text-center">
        {!fatal && (
          <div
            className={cn(
              'flex size-16 items-center justify-center rounded-full text-white',
              phase === 'speaking'
                ? 'bg-indigo-600'
                : phase === 'hearing'
                  ? 'bg-emerald-600'
                  : phase === 'thinking'
                    ? 'bg-amber-600'
                    : 'bg-sky-600',
            )}
          >
            <Icon
              aria-hidden
              className={cn(
                'size-8',
                (phase === 'thinking' || phase === 'starting') && 'motion-safe:animate-spin',
              )}
            />
          </div>
        )}
        <p role="status" className="text-xl font-semibold">
          {fatal ? 'Hands-free talk stopped' : phaseText[phase]}
        </p>
        {/* Always in place (hidden when it does not apply), so the Stop below never moves. */}
        <LevelMeter
          level={() => talk.current?.level() ?? 0}
          className={cn('w-40', (fatal || phase === 'starting' || phase === 'thinking') && 'invisible')}
        />
        <p className="min-h-5 max-w-full truncate text-sm text-muted-foreground">
          {phase === 'speaking' && !fatal ? (
            'Speak to interrupt'
          ) : heard && !fatal ? (
            <>
              <span className="sr-only">Heard: </span>“{heard}”
            </>
          ) : null}
        </p>
        {problem && (
          <p role="alert" className="text-sm text-red-700 dark:text-red-400">
            {problem.text}
          </p>
        )}
        <Button
          ref={stopButton}
          variant="danger"
          onClick={end}
          className="h-12 min-w-40 rounded-full! px-6 text-base"
        >
          <Square /> Stop
        </Button>
      </div>
    </section>
  );
}
