import { useEffect, useId, useState } from 'react';
import {
  availableSpeakers,
  availableTranscribers,
  geminiVoices,
  openaiVoicesFor,
  speakerLabels,
  speakerOf,
  speechModels,
  speedBounds,
  transcriberLabels,
  transcriberOf,
  transcriptionModels,
  withSpeakableVoice,
  type SpeakerId,
  type TranscriberId,
  type VoiceSettings as Settings,
} from '../../domain/voice-settings.ts';
import { useChatState } from '../../hooks/use-chat-state.ts';
import { browserVoices } from '../../voice/browser-speech.ts';
import { loadVoiceSettings, saveVoiceSettings, voiceKeys, voiceMeans } from '../../voice/voice-means.ts';
import { Button } from '../ui/button.tsx';
import { Label, NativeSelect } from '../ui/input.tsx';

const speeds: number[] = [];
for (let speed = speedBounds.min; speed <= speedBounds.max; speed += speedBounds.step) speeds.push(speed);

/** A labelled choice among `options` ([value, text] pairs). */
function Choice({
  label,
  value,
  options,
  onChange,
}: {
  label: string;
  value: string;
  options: readonly (readonly [string, string])[];
  onChange(value: string): void;
}) {
  const id = useId();
  return (
    <div className="flex flex-col gap-1">
      <Label htmlFor={id}>{label}</Label>
      <NativeSelect id={id} value={value} onChange={(event) => onChange(event.target.value)}>
        {options.map(([option, text]) => (
          <option key={option} value={option}>
            {text}
          </option>
        ))}
      </NativeSelect>
    </div>
  );
}

/** Each value as its own text. */
const plain = (values: readonly string[]) => values.map((value) => [value, value] as const);

/** The system's voices, listed once the browser has them. */
function useBrowserVoices(wanted: boolean): SpeechSynthesisVoice[] {
  const [voices, setVoices] = useState<SpeechSynthesisVoice[]>([]);
  useEffect(() => {
    if (wanted) void browserVoices().then(setVoices);
  }, [wanted]);
  return voices;
}

/**
 * 'Voice': who transcribes dictation and who reads replies aloud, with the model, voice and speed.
 * Saved as they change, in this browser (docs/voice.md). Loaded with the preferences' first paint.
 */
export default function VoiceSettings() {
  const [settings, setSettings] = useState<Settings>(loadVoiceSettings);
  // Recomputed as keys are saved or unlocked: what can serve is offered.
  const means = voiceMeans(useChatState(voiceKeys));
  const transcribers = availableTranscribers(means);
  const speakers = availableSpeakers(means);
  const transcriber = transcriberOf(settings, means);
  const speaker = speakerOf(settings, means);
  const voices = useBrowserVoices(speaker === 'browser');
  const headingId = useId();
  const change = (next: Settings) => {
    const speakable = withSpeakableVoice(next);
    setSettings(speakable);
    saveVoiceSettings(speakable);
  };

  return (
    <section
      aria-labelledby={headingId}
      className="mt-6 flex flex-col gap-2 border-t border-gray-200 pt-4 dark:border-gray-800"
    >
      <h3 id={headingId} className="text-sm font-semibold">
        Voice
      </h3>
      {transcriber === null ? (
        <p className="text-xs text-faint-foreground">
          Dictation needs an OpenAI or Groq key, or a browser with speech recognition.
        </p>
      ) : (
        <>
          <Choice
            label="Speech to text"
            value={transcriber}
            options={transcribers.map((id) => [id, transcriberLabels[id]] as const)}
            onChange={(id) => change({ ...settings, transcriber: id as TranscriberId })}
          />
          {transcriber !== 'browser' && (
            <Choice
              label="Transcriber"
              value={settings.transcriptionModel[transcriber]}
              options={plain(transcriptionModels[transcriber])}
              onChange={(model) =>
                change({
                  ...settings,
                  transcriptionModel: { ...settings.transcriptionModel, [transcriber]: model },
                })
              }
            />
          )}
        </>
      )}
      {speaker === null ? (
        <p className="text-xs text-faint-foreground">
          Reading aloud needs an OpenAI or Gemini key, or a browser with speech voices.
        </p>
      ) : (
        <>
          <Choice
            label="Read aloud with"
            value={speaker}
            options={speakers.map((id) => [id, speakerLabels[id]] as const)}
            onChange={(id) => change({ ...settings, speaker: id as SpeakerId })}
          />
          {speaker !== 'browser' && (
            <Choice
              label="Text to speech"
              value={settings.speechModel[speaker]}
              options={plain(speechModels[speaker])}
              onChange={(model) =>
                change({ ...settings, speechModel: { ...settings.speechModel, [speaker]: model } })
              }
            />
          )}
          <Choice
            label="Voice"
            value={settings.voice[speaker]}
            options={
              speaker === 'browser'
                ? [
                    ['', 'The browser’s default'],
                    ...voices.map((voice) => [voice.voiceURI, `${voice.name} (${voice.lang})`] as const),
                  ]
                : plain(speaker === 'openai' ? openaiVoicesFor(settings.speechModel.openai) : geminiVoices)
            }
            onChange={(voice) => change({ ...settings, voice: { ...settings.voice, [speaker]: voice } })}
          />
          <Choice
            label="Speed"
            value={String(settings.speed)}
            options={speeds.map((speed) => [String(speed), `${speed}×`] as const)}
            onChange={(speed) => change({ ...settings, speed: Number(speed) })}
          />
          <Button
            size="sm"
            variant="outline"
            className="self-start"
            onClick={() =>
              void import('../../voice/read-aloud.ts').then(({ readAloud }) =>
                readAloud('voice-sample', 'This is how replies will sound when they are read aloud.'),
              )
            }
          >
            Try the voice
          </Button>
        </>
      )}
    </section>
  );
}
