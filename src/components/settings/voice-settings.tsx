import { useEffect, useId, useState, type ReactNode } from 'react';
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
  type VoiceSettings as Settings,
} from '../../domain/voice-settings.ts';
import { useChatState } from '../../hooks/use-chat-state.ts';
import { browserVoices } from '../../voice/browser-speech.ts';
import { loadVoiceSettings, saveVoiceSettings, voiceKeys, voiceMeans } from '../../voice/voice-means.ts';
import { Button } from '../ui/button.tsx';
import { Label, NativeSelect } from '../ui/input.tsx';

const speeds: number[] = [];
for (let speed = speedBounds.min; speed <= speedBounds.max; speed += speedBounds.step) speeds.push(speed);

function Field({ label, children }: { label: string; children(id: string): ReactNode }) {
  const id = useId();
  return (
    <div className="flex flex-col gap-1">
      <Label htmlFor={id}>{label}</Label>
      {children(id)}
    </div>
  );
}

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
          <Field label="Speech to text">
            {(id) => (
              <NativeSelect
                id={id}
                value={transcriber}
                onChange={(event) =>
                  change({ ...settings, transcriber: event.target.value as Settings['transcriber'] })
                }
              >
                {transcribers.map((id) => (
                  <option key={id} value={id}>
                    {transcriberLabels[id]}
                  </option>
                ))}
              </NativeSelect>
            )}
          </Field>
          {transcriber !== 'browser' && (
            <Field label="Transcription model">
              {(id) => (
                <NativeSelect
                  id={id}
                  value={settings.transcriptionModel[transcriber]}
                  onChange={(event) =>
                    change({
                      ...settings,
                      transcriptionModel: {
                        ...settings.transcriptionModel,
                        [transcriber]: event.target.value,
                      },
                    })
                  }
                >
                  {transcriptionModels[transcriber].map((model) => (
                    <option key={model}>{model}</option>
                  ))}
                </NativeSelect>
              )}
            </Field>
          )}
        </>
      )}
      {speaker === null ? (
        <p className="text-xs text-faint-foreground">
          Reading aloud needs an OpenAI or Gemini key, or a browser with speech voices.
        </p>
      ) : (
        <>
          <Field label="Read aloud with">
            {(id) => (
              <NativeSelect
                id={id}
                value={speaker}
                onChange={(event) =>
                  change({ ...settings, speaker: event.target.value as Settings['speaker'] })
                }
              >
                {speakers.map((id) => (
                  <option key={id} value={id}>
                    {speakerLabels[id]}
                  </option>
                ))}
              </NativeSelect>
            )}
          </Field>
          {speaker !== 'browser' && (
            <Field label="Speech model">
              {(id) => (
                <NativeSelect
                  id={id}
                  value={settings.speechModel[speaker]}
                  onChange={(event) =>
                    change({
                      ...settings,
                      speechModel: { ...settings.speechModel, [speaker]: event.target.value },
                    })
                  }
                >
                  {speechModels[speaker].map((model) => (
                    <option key={model}>{model}</option>
                  ))}
                </NativeSelect>
              )}
            </Field>
          )}
          <Field label="Voice">
            {(id) => (
              <NativeSelect
                id={id}
                value={settings.voice[speaker]}
                onChange={(event) =>
                  change({ ...settings, voice: { ...settings.voice, [speaker]: event.target.value } })
                }
              >
                {speaker === 'browser' ? (
                  <>
                    <option value="">The browser’s default</option>
                    {voices.map((voice) => (
                      <option key={voice.voiceURI} value={voice.voiceURI}>
                        {voice.name} ({voice.lang})
                      </option>
                    ))}
                  </>
                ) : (
                  (speaker === 'openai' ? openaiVoicesFor(settings.speechModel.openai) : geminiVoices).map(
                    (voice) => <option key={voice}>{voice}</option>,
                  )
                )}
              </NativeSelect>
            )}
          </Field>
          <Field label="Speed">
            {(id) => (
              <NativeSelect
                id={id}
                value={String(settings.speed)}
                onChange={(event) => change({ ...settings, speed: Number(event.target.value) })}
              >
                {speeds.map((speed) => (
                  <option key={speed} value={String(speed)}>
                    {speed}×
                  </option>
                ))}
              </NativeSelect>
            )}
          </Field>
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
