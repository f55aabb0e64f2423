import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { scenarioHelp, scenarioNames, spokenQuestion } from './server.mjs';
import { dataPayloads, errorMessage, openaiHeaders, rawRequests, type RawResponse } from './raw-client.ts';
import { mockProvidersForThisFile } from './use-mock.ts';

const mock = mockProvidersForThisFile({ tokenDelayMs: 0 });
const raw = rawRequests(() => mock().url);

/** A 16-bit mono WAV of a 440 Hz tone, written here so the test does not lean on the mock's own writer. */
function testWav(seconds: number, rate = 16_000): Buffer {
  const samples = Math.round(seconds * rate);
  const wav = Buffer.alloc(44 + samples * 2);
  wav.write('RIFF', 0, 'latin1');
  wav.writeUInt32LE(36 + samples * 2, 4);
  wav.write('WAVEfmt ', 8, 'latin1');
  wav.writeUInt32LE(16, 16);
  wav.writeUInt16LE(1, 20);
  wav.writeUInt16LE(1, 22);
  wav.writeUInt32LE(rate, 24);
  wav.writeUInt32LE(rate * 2, 28);
  wav.writeUInt16LE(2, 32);
  wav.writeUInt16LE(16, 34);
  wav.write('data', 36, 'latin1');
  wav.writeUInt32LE(samples * 2, 40);
  for (let at = 0; at < samples; at++)
    wav.writeInt16LE(Math.round(Math.sin((2 * Math.PI * 440 * at) / rate) * 8000), 44 + at * 2);
  return wav;
}

interface Upload {
  file?: { bytes: Buffer; name: string; type?: string };
  fields?: Record<string, string>;
}

/** A browser-like FormData upload through fetch. */
async function transcribe(path: string, key: string, { file, fields = {} }: Upload) {
  const form = new FormData();
  if (file) form.append('file', new Blob([new Uint8Array(file.bytes)], { type: file.type ?? '' }), file.name);
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  const response = await fetch(`${mock().url}${path}`, {
    method: 'POST',
    headers: key ? { authorization: `Bearer ${key}` } : {},
    body: form,
  });
  const text = await response.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, type: response.headers.get('content-type'), text, json };
}

const openaiPath = '/v1/audio/transcriptions';
const groqPath = '/openai/v1/audio/transcriptions';
const wav = testWav(1.5);
const wavFile = { bytes: wav, name: 'question.wav', type: 'audio/wav' };
const errorOf = (response: { json: unknown }) => (response.json as { error: Record<string, unknown> }).error;

describe('transcription', () => {
  it('OpenAI whisper-1 transcribes an uploaded WAV as JSON, billing its seconds', async () => {
    const response = await transcribe(openaiPath, 'ok.t1', { file: wavFile, fields: { model: 'whisper-1' } });
    expect([response.status, response.json]).toEqual([
      200,
      { text: spokenQuestion, usage: { type: 'duration', seconds: 2 } },
    ]);
    expect(spokenQuestion).toBe('What is the capital of France?');
  });

  it('OpenAI gpt-4o-transcribe counts tokens in its usage', async () => {
    const response = await transcribe(openaiPath, 'ok.t2', {
      file: wavFile,
      fields: { model: 'gpt-4o-transcribe', response_format: 'json' },
    });
    const body = response.json as { text: string; usage: Record<string, unknown> };
    expect(body.text).toBe(spokenQuestion);
    expect(body.usage).toMatchObject({
      type: 'tokens',
      input_token_details: { text_tokens: 0, audio_tokens: expect.any(Number) as number },
      output_tokens: expect.any(Number) as number,
    });
    const usage = body.usage as { input_tokens: number; output_tokens: number; total_tokens: number };
    expect(usage.total_tokens).toBe(usage.input_tokens + usage.output_tokens);
  });

  it('reads the upload byte for byte: verbose_json gives the WAV its exact duration', async () => {
    const response = await transcribe(openaiPath, 'ok.t3', {
      file: wavFile,
      fields: { model: 'whisper-1', response_format: 'verbose_json' },
    });
    expect(response.json).toMatchObject({ task: 'transcribe', language: 'english', duration: 1.5 });
    expect((response.json as { segments: { text: string; end: number }[] }).segments).toMatchObject([
      { text: spokenQuestion, start: 0, end: 1.5 },
    ]);
  });

  it('Groq answers the text format with Whisper leading space, as text/plain', async () => {
    const response = await transcribe(groqPath, 'ok.t4', {
      file: wavFile,
      fields: { model: 'whisper-large-v3-turbo', response_format: 'text' },
    });
    expect([response.status, response.type, response.text]).toEqual([
      200,
      'text/plain; charset=utf-8',
      ` ${spokenQuestion}`,
    ]);
  });

  it('records the form fields and the file name, type and size, never its bytes', async () => {
    await transcribe(openaiPath, 'ok.log1', {
      file: wavFile,
      fields: { model: 'whisper-1', response_format: 'json', language: 'en', prompt: 'Geography' },
    });
    const log = await raw('GET', '/__mock/requests?key=ok.log1');
    const [entry] = log.json as { provider: string; path: string; body: unknown }[];
    expect(entry).toMatchObject({ provider: 'openai', path: openaiPath });
    expect(entry?.body).toEqual({
      model: 'whisper-1',
      response_format: 'json',
      language: 'en',
      prompt: 'Geography',
      file: { name: 'question.wav', type: 'audio/wav', size: wav.length },
    });
  });

  it('refuses a file that is not audio: by its name, then by its bytes, then by its size', async () => {
    const fields = { model: 'whisper-1' };
    const text = Buffer.from('Not audio at all. '.repeat(100));
    const byName = await transcribe(openaiPath, 'ok.bad1', {
      file: { bytes: text, name: 'notes.txt', type: 'text/plain' },
      fields,
    });
    expect([byName.status, errorOf(byName)]).toEqual([
      400,
      {
        message:
          "Invalid file format. Supported formats: ['flac', 'm4a', 'mp3', 'mp4', 'mpeg', 'mpga', 'oga', 'ogg', 'wav', 'webm']",
        type: 'invalid_request_error',
        param: null,
        code: null,
      },
    ]);
    const byBytes = await transcribe(openaiPath, 'ok.bad2', {
      file: { bytes: text, name: 'notes.webm', type: 'audio/webm' },
      fields,
    });
    expect([byBytes.status, errorOf(byBytes).message]).toEqual([
      400,
      'The audio file could not be decoded or its format is not supported.',
    ]);
    const tiny = await transcribe(openaiPath, 'ok.bad3', {
      file: { bytes: testWav(0.01), name: 'tiny.wav' },
      fields,
    });
    expect([tiny.status, errorOf(tiny).code]).toEqual([400, 'audio_too_short']);
    const groq = await transcribe(groqPath, 'ok.bad4', {
      file: { bytes: wav, name: 'blob' },
      fields: { model: 'whisper-large-v3' },
    });
    expect([groq.status, errorOf(groq)]).toEqual([
      400,
      {
        message: 'file must be one of the following types: [flac mp3 mp4 mpeg mpga m4a ogg opus wav webm]',
        type: 'invalid_request_error',
        code: 'unsupported_audio_format',
      },
    ]);
  });

  it('refuses a missing file, a missing model and a request that is not multipart', async () => {
    const noFile = await transcribe(openaiPath, 'ok.m1', { fields: { model: 'whisper-1' } });
    expect([noFile.status, errorOf(noFile).param, errorOf(noFile).code]).toEqual([
      400,
      'file',
      'missing_required_parameter',
    ]);
    const noModel = await transcribe(openaiPath, 'ok.m2', { file: wavFile });
    expect([noModel.status, errorOf(noModel).param]).toEqual([400, 'model']);
    const json = await raw('POST', openaiPath, openaiHeaders('ok.m3'), { model: 'whisper-1' });
    expect([json.status, errorMessage(json)]).toEqual([400, expect.stringContaining('multipart/form-data')]);
  });

  it('refuses an unknown model in each provider shape', async () => {
    const openai = await transcribe(openaiPath, 'ok.u1', { file: wavFile, fields: { model: 'whisper-9' } });
    expect([openai.status, errorOf(openai).code]).toEqual([404, 'model_not_found']);
    const groq = await transcribe(groqPath, 'ok.u2', { file: wavFile, fields: { model: 'whisper-1' } });
    expect([groq.status, groq.json]).toEqual([
      404,
      {
        error: {
          message: 'The model `whisper-1` does not exist or you do not have access to it.',
          type: 'invalid_request_error',
          code: 'model_not_found',
        },
      },
    ]);
  });

  it('the GPT transcribe models take json and text only; Groq has no subtitles', async () => {
    const verbose = await transcribe(openaiPath, 'ok.f1', {
      file: wavFile,
      fields: { model: 'gpt-4o-mini-transcribe', response_format: 'verbose_json' },
    });
    expect([verbose.status, errorOf(verbose)]).toEqual([
      400,
      {
        message:
          "response_format 'verbose_json' is not compatible with model 'gpt-4o-mini-transcribe'. Use 'json' or 'text' instead.",
        type: 'invalid_request_error',
        param: 'response_format',
        code: 'unsupported_value',
      },
    ]);
    const srt = await transcribe(openaiPath, 'ok.f2', {
      file: wavFile,
      fields: { model: 'gpt-transcribe', response_format: 'srt' },
    });
    expect(srt.status).toBe(400);
    // The real API's message offers text (openai/openai-dotnet#401), so it passes.
    const text = await transcribe(openaiPath, 'ok.f3', {
      file: wavFile,
      fields: { model: 'gpt-4o-mini-transcribe', response_format: 'text' },
    });
    expect([text.status, text.text]).toEqual([200, `${spokenQuestion}\n`]);
    const groqSrt = await transcribe(groqPath, 'ok.f4', {
      file: wavFile,
      fields: { model: 'whisper-large-v3', response_format: 'srt' },
    });
    expect(groqSrt.status).toBe(400);
  });

  it('whisper-1 writes subtitles', async () => {
    const srt = await transcribe(openaiPath, 'ok.s1', {
      file: wavFile,
      fields: { model: 'whisper-1', response_format: 'srt' },
    });
    expect(srt.text).toBe(`1\n00:00:00,000 --> 00:00:01,500\n${spokenQuestion}\n\n`);
    const vtt = await transcribe(openaiPath, 'ok.s2', {
      file: wavFile,
      fields: { model: 'whisper-1', response_format: 'vtt' },
    });
    expect(vtt.text).toBe(`WEBVTT\n\n00:00:00.000 --> 00:00:01.500\n${spokenQuestion}\n`);
  });

  it('silent hears nothing', async () => {
    const openai = await transcribe(openaiPath, 'silent.1', {
      file: wavFile,
      fields: { model: 'gpt-4o-mini-transcribe' },
    });
    expect((openai.json as { text: string }).text).toBe('');
    const groq = await transcribe(groqPath, 'silent.2', {
      file: wavFile,
      fields: { model: 'whisper-large-v3', response_format: 'text' },
    });
    expect([groq.status, groq.text]).toEqual([200, '']);
  });

  it('keys and HTTP scenarios answer as for chat', async () => {
    const upload = { file: wavFile, fields: { model: 'whisper-1' } };
    const missing = await transcribe(openaiPath, '', upload);
    expect([missing.status, errorOf(missing).message]).toEqual([
      401,
      expect.stringContaining("You didn't provide an API key"),
    ]);
    const bad = await transcribe(openaiPath, 'sk-not-a-scenario', upload);
    expect([bad.status, errorOf(bad).code]).toEqual([401, 'invalid_api_key']);
    const revoked = await transcribe(openaiPath, 'http-401.1', upload);
    expect([revoked.status, errorOf(revoked).code]).toEqual([401, 'invalid_api_key']);
    const limited = await transcribe(groqPath, 'http-429.1', {
      file: wavFile,
      fields: { model: 'whisper-large-v3' },
    });
    expect([limited.status, errorOf(limited).code]).toEqual([429, 'rate_limit_exceeded']);
  });

  it('refuses a body over 25 MB with 413', async () => {
    const big = Buffer.concat([wav, Buffer.alloc(25 * 1024 * 1024)]);
    const openai = await transcribe(openaiPath, 'ok.big', {
      file: { bytes: big, name: 'long.wav' },
      fields: { model: 'whisper-1' },
    });
    expect([openai.status, errorOf(openai).message]).toEqual([
      413,
      expect.stringMatching(/^Maximum content size limit \(26214400\) exceeded \(\d+ bytes read\)$/),
    ]);
  });

  it('passes the preflights of the voice paths', async () => {
    for (const path of [openaiPath, groqPath, '/v1/audio/speech']) {
      const response = await raw('OPTIONS', path, {
        origin: 'http://127.0.0.1:4173',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization',
      });
      expect([path, response.status, response.headers['access-control-allow-headers']]).toEqual([
        path,
        200,
        'authorization',
      ]);
    }
  });
});

interface WavHeader {
  rate: number;
  channels: number;
  bits: number;
  dataSize: number;
}

function readWav(bytes: Buffer): WavHeader {
  expect(bytes.subarray(0, 4).toString('latin1')).toBe('RIFF');
  expect(bytes.readUInt32LE(4)).toBe(bytes.length - 8);
  expect(bytes.subarray(8, 16).toString('latin1')).toBe('WAVEfmt ');
  expect(bytes.subarray(36, 40).toString('latin1')).toBe('data');
  const dataSize = bytes.readUInt32LE(40);
  expect(dataSize).toBe(bytes.length - 44);
  return {
    channels: bytes.readUInt16LE(22),
    rate: bytes.readUInt32LE(24),
    bits: bytes.readUInt16LE(34),
    dataSize,
  };
}

/** Bytes of 24 kHz 16-bit mono PCM for a text: 60 ms a character within 0.5 to 8 s, over the speed. */
const pcmBytesFor = (text: string, speed = 1) =>
  Math.round((Math.min(8, Math.max(0.5, text.length * 0.06)) / speed) * 24_000) * 2;

describe('speech', () => {
  const speak = (key: string, body: Record<string, unknown>) =>
    raw('POST', '/v1/audio/speech', openaiHeaders(key), {
      model: 'gpt-4o-mini-tts',
      voice: 'coral',
      response_format: 'wav',
      ...body,
    });
  const question = 'The capital of France is Paris.';

  it('sends a valid 24 kHz mono 16-bit WAV, in several pieces', async () => {
    const response = await speak('ok.sp1', { input: question });
    expect([
      response.status,
      response.headers['content-type'],
      response.headers['transfer-encoding'],
    ]).toEqual([200, 'audio/wav', 'chunked']);
    const bytes = Buffer.concat(response.chunks);
    expect(readWav(bytes)).toEqual({ rate: 24_000, channels: 1, bits: 16, dataSize: pcmBytesFor(question) });
    expect(response.chunks.length).toBeGreaterThan(1);
    // Audible, and not clipped.
    const peak = Math.max(
      ...Array.from({ length: 2000 }, (_, at) => Math.abs(bytes.readInt16LE(44 + 2000 + at * 2))),
    );
    expect(peak).toBeGreaterThan(4000);
    expect(peak).toBeLessThan(32767);
  });

  it('lasts longer for longer input, and half as long at speed 2', async () => {
    const short = Buffer.concat((await speak('ok.sp2', { input: 'Hello there, how are you?' })).chunks);
    const long = Buffer.concat(
      (await speak('ok.sp3', { input: 'Hello there, how are you? '.repeat(3) })).chunks,
    );
    expect(readWav(long).dataSize).toBeGreaterThan(readWav(short).dataSize);
    const fast = Buffer.concat((await speak('ok.sp4', { input: question, speed: 2 })).chunks);
    expect(readWav(fast).dataSize).toBe(pcmBytesFor(question, 2));
    expect(readWav(fast).dataSize).toBe(pcmBytesFor(question) / 2);
  });

  it('sends raw PCM as audio/pcm', async () => {
    const response = await speak('ok.sp5', { input: question, response_format: 'pcm', model: 'tts-1' });
    expect([
      response.status,
      response.headers['content-type'],
      Buffer.concat(response.chunks).length,
    ]).toEqual([200, 'audio/pcm', pcmBytesFor(question)]);
  });

  it('refuses input over 4096 characters, a bad speed and an unknown model', async () => {
    const long = await speak('ok.e1', { input: 'a'.repeat(4097) });
    expect([long.status, errorMessage(long)]).toEqual([
      400,
      expect.stringContaining('String should have at most 4096 characters'),
    ]);
    expect((await speak('ok.e1b', { input: 'a'.repeat(4096) })).status).toBe(200);
    const speed = await speak('ok.e2', { input: question, speed: 5 });
    expect([speed.status, errorMessage(speed)]).toEqual([
      400,
      "Invalid 'speed': decimal above maximum value. Expected a value <= 4, but got 5 instead.",
    ]);
    const model = await speak('ok.e3', { input: question, model: 'tts-2' });
    expect(model.status).toBe(404);
  });

  it('refuses an unknown voice, and the newer voices on tts-1', async () => {
    const unknown = await speak('ok.v1', { input: question, voice: 'siri' });
    expect([unknown.status, (unknown.json as { error: { param: string } }).error.param]).toEqual([
      400,
      'voice',
    ]);
    expect((await speak('ok.v2', { input: question, voice: 'ballad', model: 'tts-1' })).status).toBe(400);
    expect((await speak('ok.v3', { input: question, voice: 'ballad' })).status).toBe(200);
    expect((await speak('ok.v4', { input: question, voice: { id: 'voice_123' } })).status).toBe(200);
  });

  it('refuses instructions and SSE on tts-1', async () => {
    const instructions = await speak('ok.i1', {
      input: question,
      model: 'tts-1-hd',
      instructions: 'Cheerfully.',
    });
    expect([instructions.status, errorMessage(instructions)]).toEqual([
      400,
      "Unsupported parameter: 'instructions' is not supported with this model.",
    ]);
    const sse = await speak('ok.i2', { input: question, model: 'tts-1', stream_format: 'sse' });
    expect(sse.status).toBe(400);
    expect((await speak('ok.i3', { input: question, instructions: 'Cheerfully.' })).status).toBe(200);
  });

  it('says it makes no mp3: the default format', async () => {
    const response = await raw('POST', '/v1/audio/speech', openaiHeaders('ok.mp3'), {
      model: 'gpt-4o-mini-tts',
      voice: 'alloy',
      input: question,
    });
    expect([response.status, response.json]).toEqual([
      400,
      {
        error: {
          message:
            "The mock providers make only wav and pcm audio, not mp3 (the real API would send mp3). Ask for response_format 'wav' or 'pcm'.",
          type: 'invalid_request_error',
          param: 'response_format',
          code: 'mock_unsupported_format',
        },
      },
    ]);
  });

  it('streams SSE audio deltas, then done with the usage', async () => {
    const response = await speak('ok.sse', { input: question, stream_format: 'sse' });
    expect(response.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    const events = dataPayloads<{ type: string; audio?: string; usage?: Record<string, number> }>(
      response.text,
    );
    const deltas = events.filter((event) => event.type === 'speech.audio.delta');
    expect(deltas.length).toBeGreaterThan(1);
    const audio = Buffer.concat(deltas.map((event) => Buffer.from(event.audio ?? '', 'base64')));
    expect(readWav(audio).dataSize).toBe(pcmBytesFor(question));
    const done = events.at(-1);
    expect(done?.type).toBe('speech.audio.done');
    expect(done?.usage?.total_tokens).toBe(
      (done?.usage?.input_tokens ?? 0) + (done?.usage?.output_tokens ?? 0),
    );
  });

  it('keys and HTTP scenarios answer as for chat', async () => {
    const bad = await speak('nope', { input: question });
    expect(bad.status).toBe(401);
    const limited = await speak('http-429.sp', { input: question });
    expect([limited.status, limited.headers['retry-after']]).toEqual([429, '20']);
    const noCors = await speak('no-cors.sp', { input: question });
    expect([noCors.status, noCors.headers['access-control-allow-origin']]).toEqual([200, undefined]);
  });
});

describe('Gemini TTS', () => {
  const text = 'Say cheerfully: have a wonderful day!';
  const gemini = (
    key: string,
    model: string,
    method: string,
    config: Record<string, unknown>,
  ): Promise<RawResponse> =>
    raw(
      'POST',
      `/v1beta/models/${model}:${method}${method === 'streamGenerateContent' ? '?alt=sse' : ''}`,
      { 'x-goog-api-key': key, 'content-type': 'application/json' },
      { contents: [{ parts: [{ text }] }], generationConfig: config },
    );
  const audio = (voiceName?: string) => ({
    responseModalities: ['AUDIO'],
    ...(voiceName && { speechConfig: { voiceConfig: { prebuiltVoiceConfig: { voiceName } } } }),
  });
  interface Chunk {
    candidates: {
      content: { role: string; parts: { inlineData: { mimeType: string; data: string } }[] };
      finishReason?: string;
    }[];
    usageMetadata: Record<string, number>;
    modelVersion: string;
  }

  it('answers PCM of the right length for the text', async () => {
    const response = await gemini('ok.g1', 'gemini-2.5-flash-preview-tts', 'generateContent', audio('Kore'));
    const body = response.json as Chunk;
    const [candidate] = body.candidates;
    expect(candidate?.finishReason).toBe('STOP');
    expect(candidate?.content.role).toBe('model');
    const part = candidate?.content.parts[0]?.inlineData;
    expect(part?.mimeType).toBe('audio/L16;codec=pcm;rate=24000');
    expect(Buffer.from(part?.data ?? '', 'base64').length).toBe(pcmBytesFor(text));
    expect(body.modelVersion).toBe('gemini-2.5-flash-preview-tts');
    expect(body.usageMetadata.totalTokenCount).toBe(
      (body.usageMetadata.promptTokenCount ?? 0) + (body.usageMetadata.candidatesTokenCount ?? 0),
    );
    // No voice: a default one.
    expect((await gemini('ok.g2', 'gemini-3.8-flash-tts', 'generateContent', audio())).status).toBe(200);
  });

  it('refuses an unknown voice', async () => {
    const response = await gemini('ok.g3', 'gemini-3.8-flash-tts', 'generateContent', audio('Alloy'));
    expect([response.status, (response.json as { error: { status: string } }).error.status]).toEqual([
      400,
      'INVALID_ARGUMENT',
    ]);
  });

  it('refuses AUDIO from a model that is not a TTS model, and text from a TTS model', async () => {
    const chat = await gemini('ok.g4', 'gemini-2.5-flash', 'generateContent', audio('Kore'));
    expect([chat.status, errorMessage(chat)]).toEqual([
      400,
      expect.stringContaining(
        'The requested combination of response modalities (AUDIO) is not supported by the model.',
      ),
    ]);
    const tts = await gemini('ok.g5', 'gemini-2.5-pro-preview-tts', 'generateContent', {});
    expect([tts.status, errorMessage(tts)]).toEqual([
      400,
      expect.stringContaining('accepts the following combination of response modalities:\n* AUDIO'),
    ]);
  });

  it('streams the PCM in several chunks of one inlineData part each', async () => {
    const response = await gemini(
      'ok.g6',
      'gemini-3.1-flash-tts-preview',
      'streamGenerateContent',
      audio('Puck'),
    );
    const chunks = dataPayloads<Chunk>(response.text);
    expect(chunks.length).toBeGreaterThan(1);
    expect(chunks.map((chunk) => chunk.candidates[0]?.content.parts.length)).toEqual(chunks.map(() => 1));
    const pcm = Buffer.concat(
      chunks.map((chunk) =>
        Buffer.from(chunk.candidates[0]?.content.parts[0]?.inlineData.data ?? '', 'base64'),
      ),
    );
    expect(pcm.length).toBe(pcmBytesFor(text));
    expect(chunks.map((chunk) => chunk.candidates[0]?.finishReason ?? null).at(-1)).toBe('STOP');
    expect(chunks.slice(0, -1).every((chunk) => chunk.candidates[0]?.finishReason === undefined)).toBe(true);
  });

  it('a chat without AUDIO is untouched', async () => {
    const response = await gemini('ok.g7', 'gemini-3-flash', 'generateContent', {});
    expect(response.status).toBe(200);
  });
});

describe('the silent scenario', () => {
  it('is listed, with its help, in the CLI help', async () => {
    expect(scenarioNames).toContain('silent');
    expect(scenarioHelp.silent).toContain('empty transcript');
    const cli = fileURLToPath(new URL('./cli.mjs', import.meta.url));
    const child = spawn(process.execPath, [cli, '--help'], { stdio: ['ignore', 'pipe', 'inherit'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    expect(await new Promise<number | null>((resolve) => child.on('exit', resolve))).toBe(0);
    expect(output).toMatch(/^ {2}silent +a transcription hears no speech/m);
  });
});
