import { useId, useState } from 'react';
import { chat } from '../../state/chat.ts';
import { Button } from '../ui/button.tsx';

/**
 * 'Find local models': on a click only, looks for the model servers on this computer and adds each
 * one found as an OpenAI-compatible endpoint; says what it found, or each server's fix, in a live
 * region. The probing and its sentences load on the click.
 */
export function FindLocalModels() {
  const [looking, setLooking] = useState(false);
  const [lines, setLines] = useState<string[]>([]);
  const hintId = useId();

  async function look() {
    setLooking(true);
    setLines([]);
    try {
      const reports = await chat.findLocalModels();
      const { describeLocalServers } = await import('../../domain/local-servers.ts');
      setLines(describeLocalServers(reports, globalThis.location?.origin));
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      setLines([`Could not look for local models (${reason}). Try again.`]);
    } finally {
      setLooking(false);
    }
  }

  return (
    <div className="flex flex-col gap-1.5">
      <Button
        type="button"
        variant="outline"
        size="sm"
        className="self-start"
        disabled={looking}
        aria-describedby={hintId}
        onClick={() => void look()}
      >
        {looking ? 'Looking for local models…' : 'Find local models'}
      </Button>
      <p id={hintId} className="text-xs text-gray-600 dark:text-gray-400">
        Looks for Ollama, LM Studio, llama.cpp, Jan and vLLM on this computer. Chrome may ask to let this site
        access other apps and services on this device: choose Allow.
      </p>
      <div aria-live="polite" className="flex flex-col gap-1 text-xs">
        {lines.map((line, index) => (
          <p key={index}>{line}</p>
        ))}
      </div>
    </div>
  );
}
