import { AudioLines, Mic } from 'lucide-react';
import { runAction } from '../../hooks/use-actions.ts';
import { useViewState } from '../../hooks/use-chat-state.ts';
import { isMac } from '../../hooks/use-shortcuts.ts';
import { shortcutLabel } from '../../state/actions.ts';
import { Button } from '../ui/button.tsx';

const dictateKeys = shortcutLabel({ code: 'Space', mod: true, shift: true }, isMac);

/**
 * 'Dictate' and 'Talk hands-free' beside the message box. Only the buttons are in the first load:
 * the recorder, the transcription and the talk load on the first click (docs/voice.md).
 */
export function VoiceButtons({ disabled }: { disabled: boolean }) {
  const voice = useViewState((state) => state.voice);
  const dictating = voice === 'dictation' || voice === 'dictation-ending';
  return (
    <>
      <Button
        size="icon"
        variant="ghost"
        aria-label="Dictate"
        aria-pressed={dictating}
        title={dictating ? `Stop dictating and transcribe (${dictateKeys})` : `Dictate (${dictateKeys})`}
        disabled={disabled || voice === 'hands-free'}
        onClick={() => runAction('dictate')}
        className={dictating ? 'size-10 text-red-600 dark:text-red-400' : 'size-10'}
      >
        <Mic />
      </Button>
      <Button
        size="icon"
        variant="ghost"
        aria-label="Talk hands-free"
        title="Talk hands-free"
        disabled={disabled || voice !== null}
        onClick={() => runAction('hands-free')}
        className="size-10"
      >
        <AudioLines />
      </Button>
    </>
  );
}
