import type { Config } from '../domain/config.ts';
import { connectionUrl } from '../domain/provider-catalog.ts';
import type { VoiceSettings } from '../domain/voice-settings.ts';
import { isRecord, ownField } from '../domain/json-guards.ts';
import { postForm, postJson, readFailure, readJson, type HttpRequest } from '../providers/http.ts';
import { ProviderError } from '../providers/provider-error.ts';
import { bytesOfBase64 } from '../lib/base64.ts';
import { pcmRateOf, wavOfPcm16 } from '../lib/wav.ts';

/**
 * The providers' speech services, over the same hosts, keys and errors as their chat: OpenAI's and
 * Groq's transcriptions (a multipart upload), OpenAI's speech and Gemini's TTS models
 * (docs/voice.md has the requests and why each choice).
 */

function bearer(connection: Config, path: string, signal?: AbortSignal): HttpRequest {
  return {
    provider: connection.provider,
    fetch: (...args) => fetch(...args),
    url: `${connectionUrl(connection)}${path}`,
    headers: { Authorization: `Bearer ${connection.apiKey}` },
    signal,
  };
}

/** The recording's file name: the providers tell the format by its extension. */
function fileNameOf(audio: Blob): string {
  const type = audio.type.split(';')[0] ?? '';
  const extension = { 'audio/webm': 'webm', 'audio/ogg': 'ogg', 'audio/mp4': 'm4a', 'audio/wav': 'wav' }[
    type
  ];
  return `speech.${extension ?? 'webm'}`;
}

/** What was said in a recording, by OpenAI or Groq ('' when nothing was). */
export async function transcribe(
  audio: Blob,
  transcriber: 'openai' | 'groq',
  connection: Config,
  settings: VoiceSettings,
  signal?: AbortSignal,
): Promise<string> {
  const form = new FormData();
  form.append('file', audio, fileNameOf(audio));
  form.append('model', settings.transcriptionModel[transcriber]);
  // `json` is the one format every model takes (the gpt-4o ones take nothing else).
  form.append('response_format', 'json');
  const path = transcriber === 'groq' ? '/openai/v1/audio/transcriptions' : '/v1/audio/transcriptions';
  const request = bearer(connection, path, signal);
  const body = await readJson(await postForm(request, form), request);
  const text = isRecord(body) ? ownField(body, 'text') : undefined;
  if (typeof text !== 'string') {
    const message = `Unreadable transcription from ${connection.provider}: no text in the answer.`;
    throw new ProviderError({ provider: connection.provider, kind: 'server', message });
  }
  return text.trim();
}

/**
 * One piece of a reply as audio the audio element plays, by OpenAI (WAV: the format it answers
 * fastest, with no decoding) or Gemini (PCM, given a WAV header here).
 */
export async function synthesize(
  text: string,
  speaker: 'openai' | 'gemini',
  connection: Config,
  settings: VoiceSettings,
  signal?: AbortSignal,
): Promise<Blob> {
  if (speaker === 'openai') {
    const request = bearer(connection, '/v1/audio/speech', signal);
    const response = await postJson(request, {
      model: settings.speechModel.openai,
      input: text,
      voice: settings.voice.openai,
      response_format: 'wav',
      speed: settings.speed,
    });
    try {
      return new Blob([await response.arrayBuffer()], { type: 'audio/wav' });
    } catch (error) {
      throw readFailure(request, error);
    }
  }
  const model = settings.speechModel.gemini;
  const request: HttpRequest = {
    provider: connection.provider,
    fetch: (...args) => fetch(...args),
    url: `${connectionUrl(connection)}/v1beta/models/${encodeURIComponent(model)}:generateContent`,
    headers: { 'x-goog-api-key': connection.apiKey, 'content-type': 'application/json' },
    signal,
  };
  const body = await readJson(
    await postJson(request, {
      contents: [{ role: 'user', parts: [{ text }] }],
      generationConfig: {
        responseModalities: ['AUDIO'],
        speechConfig: { voiceConfig: { prebuiltVoiceConfig: { voiceName: settings.voice.gemini } } },
      },
    }),
    request,
  );
  const audio = geminiAudioOf(body);
  if (!audio) {
    const message = 'Unreadable speech from Gemini: no audio in the answer.';
    throw new ProviderError({ provider: connection.provider, kind: 'server', message });
  }
  return new Blob([wavOfPcm16(bytesOfBase64(audio.data), pcmRateOf(audio.mimeType))], { type: 'audio/wav' });
}

/** The first audio part of a Gemini answer. */
function geminiAudioOf(body: unknown): { data: string; mimeType: string } | undefined {
  const candidates = isRecord(body) ? ownField(body, 'candidates') : undefined;
  const first: unknown = Array.isArray(candidates) ? candidates[0] : undefined;
  const content = isRecord(first) ? ownField(first, 'content') : undefined;
  const parts = isRecord(content) ? ownField(content, 'parts') : undefined;
  for (const part of Array.isArray(parts) ? (parts as unknown[]) : []) {
    const inline = isRecord(part) ? ownField(part, 'inlineData') : undefined;
    const data = isRecord(inline) ? ownField(inline, 'data') : undefined;
    const mimeType = isRecord(inline) ? ownField(inline, 'mimeType') : undefined;
    if (typeof data === 'string' && typeof mimeType === 'string' && /^audio\//i.test(mimeType))
      return { data, mimeType };
  }
  return undefined;
}
