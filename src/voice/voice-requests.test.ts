import { describe, expect, it } from 'vitest';
import type { Config } from '../domain/config.ts';
import { defaultVoiceSettings } from '../domain/voice-settings.ts';
import { mockProvidersForThisFile } from '../../tools/mock-providers/use-mock.ts';
import { spokenQuestion, toneSamples, wavFile } from '../../tools/mock-providers/voice.mjs';
import { isProviderError } from '../providers/provider-error.ts';
import { synthesize, transcribe } from './voice-requests.ts';

const mock = mockProvidersForThisFile();

const connection = (provider: Config['provider'], apiKey: string): Config => ({
  provider,
  apiKey,
  baseUrl: mock().url,
  temperature: 0.7,
  maxTokens: 800,
});

/** A second of real audio, as a recording would be. */
const recording = () => new Blob([wavFile(toneSamples(1), 24_000)], { type: 'audio/wav' });

/** The header fields of a WAV: rate, channels, bits, data bytes. */
async function wavFields(blob: Blob) {
  const view = new DataView(await blob.arrayBuffer());
  return {
    rate: view.getUint32(24, true),
    channels: view.getUint16(22, true),
    bits: view.getUint16(34, true),
  };
}

describe('speech requests over the mock', () => {
  it('transcribes through OpenAI and Groq, as multipart uploads named by their format', async () => {
    const key = `ok.${Math.random()}`;
    expect(await transcribe(recording(), 'openai', connection('openai', key), defaultVoiceSettings)).toBe(
      spokenQuestion,
    );
    expect(await transcribe(recording(), 'groq', connection('groq', key), defaultVoiceSettings)).toBe(
      spokenQuestion,
    );
    const [openai, groq] = mock().requests.filter((request) => request.key === key);
    expect(openai).toMatchObject({
      path: '/v1/audio/transcriptions',
      body: {
        model: 'gpt-4o-mini-transcribe',
        response_format: 'json',
        file: { name: 'speech.wav', type: 'audio/wav' },
      },
    });
    expect(groq).toMatchObject({
      path: '/openai/v1/audio/transcriptions',
      body: { model: 'whisper-large-v3-turbo' },
    });
  });

  it("a refused key is the provider's error, explained", async () => {
    const refused = await transcribe(
      recording(),
      'openai',
      connection('openai', 'http-401.x'),
      defaultVoiceSettings,
    ).catch((error: unknown) => error);
    expect(isProviderError(refused) && refused.status).toBe(401);
  });

  it('speaks through OpenAI (WAV) and Gemini (PCM given a WAV header)', async () => {
    const key = `ok.${Math.random()}`;
    const openai = await synthesize(
      'Hello there.',
      'openai',
      connection('openai', key),
      defaultVoiceSettings,
    );
    expect(await wavFields(openai)).toEqual({ rate: 24_000, channels: 1, bits: 16 });
    const gemini = await synthesize('Hello there.', 'gemini', connection('gemini', key), {
      ...defaultVoiceSettings,
      voice: { ...defaultVoiceSettings.voice, gemini: 'Puck' },
    });
    expect(gemini.type).toBe('audio/wav');
    expect(await wavFields(gemini)).toEqual({ rate: 24_000, channels: 1, bits: 16 });
    const [speech, tts] = mock().requests.filter((request) => request.key === key);
    expect(speech?.body).toEqual({
      model: 'gpt-4o-mini-tts',
      input: 'Hello there.',
      voice: 'coral',
      response_format: 'wav',
      speed: 1,
    });
    expect(tts).toMatchObject({
      path: '/v1beta/models/gemini-3.8-flash-tts:generateContent',
      body: { generationConfig: { responseModalities: ['AUDIO'] } },
    });
  });
});
