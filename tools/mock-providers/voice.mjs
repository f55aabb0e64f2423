// @ts-check
/**
 * Voice: dictation (speech to text) and read-aloud (text to speech).
 *
 * - Transcription, OpenAI `POST /v1/audio/transcriptions` and Groq `POST /openai/v1/audio/transcriptions`:
 *   a multipart/form-data body (parsed from the raw bytes, binary-safe) with `file`, `model`,
 *   `language`, `prompt`, `response_format`, `temperature`. The file must carry an accepted extension
 *   (both APIs go by the name) and be real audio (container magic bytes, at least 1,000 bytes). Any
 *   valid audio "says" `spokenQuestion`; scenario `silent` hears nothing (""). The request log keeps
 *   the form's fields and the file's name, type and size, never its bytes.
 * - Speech, OpenAI `POST /v1/audio/speech`: a soft sine tone (24 kHz, 16-bit, mono) as long as the
 *   input warrants, streamed in pieces (chunked, or as SSE events with `stream_format: "sse"`).
 *   Mock limitation: it makes only `wav` and `pcm`; `mp3` (the API's default), `opus`, `aac` and
 *   `flac` get a 400 saying so, code `mock_unsupported_format`.
 * - Gemini TTS, the generateContent routes with `responseModalities: ["AUDIO"]`: the same tone as
 *   base64 headerless PCM (`audio/L16;codec=pcm;rate=24000`), in several chunks when streamed.
 *
 * Wording: [R] as reported from the real API (issue threads quoted in the comments), [A] assumed.
 */

import { groqMock, openaiMock } from './openai-family.mjs';
import { httpStatusOf, scenarioOf } from './scenarios.mjs';
import { tokenize } from './tokens.mjs';
import { delay, isRecord, mockId, parseJson, sendReply, writeStream } from './wire.mjs';

/**
 * @typedef {import('./wire.mjs').Reply} Reply
 * @typedef {import('./wire.mjs').MockProvider} MockProvider
 * @typedef {import('./wire.mjs').MockRequest & { bodyBytes: Buffer }} VoiceRequest
 * @typedef {{ kind: 'transcription' | 'speech', provider: MockProvider }} VoiceRoute
 * @typedef {{ name: string, filename?: string, type?: string, data: Buffer }} FormPart
 */

/** What the fake microphone says in the e2e tests (espeak-ng speaks it): every valid audio's transcript. */
export const spokenQuestion = 'What is the capital of France?';

export const sampleRate = 24_000;
/** Pause between streamed audio pieces; `slow` stretches it to watch playback start early. */
const pieceDelayMs = 40;
const slowPieceDelayMs = 200;
const pieceCount = 8;
const MB = 1024 * 1024;

// ---------------------------------------------------------------------------------------------
// Audio: the tone, WAV, and reading what was uploaded.

/**
 * How long the spoken text lasts: ~60 ms a character, 0.5 s to 8 s, divided by the speed.
 * @param {string} text @param {number} [speed]
 */
export function speechSeconds(text, speed = 1) {
  return Math.min(8, Math.max(0.5, Array.from(text).length * 0.06)) / speed;
}

/**
 * A soft 330 Hz sine as 16-bit little-endian mono PCM, faded in and out over 20 ms so it does not
 * click; at a quarter of full scale, so it is audible and never clipped.
 * @param {number} seconds
 */
export function toneSamples(seconds) {
  const count = Math.round(seconds * sampleRate);
  const fade = Math.min(Math.round(0.02 * sampleRate), Math.floor(count / 2));
  const pcm = Buffer.alloc(count * 2);
  for (let at = 0; at < count; at++) {
    const envelope = Math.min(1, at / fade, (count - 1 - at) / fade);
    const value = Math.sin((2 * Math.PI * 330 * at) / sampleRate) * 0.25 * envelope;
    pcm.writeInt16LE(Math.round(value * 32767), at * 2);
  }
  return pcm;
}

/** A RIFF/WAVE file around 16-bit mono PCM. @param {Buffer} pcm @param {number} [rate] */
export function wavFile(pcm, rate = sampleRate) {
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'latin1');
  header.writeUInt32LE(36 + pcm.length, 4);
  header.write('WAVEfmt ', 8, 'latin1');
  header.writeUInt32LE(16, 16); // fmt chunk size
  header.writeUInt16LE(1, 20); // PCM
  header.writeUInt16LE(1, 22); // mono
  header.writeUInt32LE(rate, 24);
  header.writeUInt32LE(rate * 2, 28); // byte rate
  header.writeUInt16LE(2, 32); // block align
  header.writeUInt16LE(16, 34); // bits per sample
  header.write('data', 36, 'latin1');
  header.writeUInt32LE(pcm.length, 40);
  return Buffer.concat([header, pcm]);
}

/** @param {Buffer} bytes @param {number} at @param {string} text */
const hasAt = (bytes, at, text) => bytes.subarray(at, at + text.length).toString('latin1') === text;

/**
 * The audio container the bytes start with, or undefined: WebM/Matroska, Ogg, WAV, MP4/M4A, MP3
 * (ID3 tag or frame sync), FLAC.
 * @param {Buffer} bytes
 */
export function audioContainerOf(bytes) {
  if (bytes.length >= 4 && bytes.readUInt32BE(0) === 0x1a45dfa3) return 'webm';
  if (hasAt(bytes, 0, 'OggS')) return 'ogg';
  if (hasAt(bytes, 0, 'RIFF') && hasAt(bytes, 8, 'WAVE')) return 'wav';
  if (hasAt(bytes, 4, 'ftyp')) return 'mp4';
  if (hasAt(bytes, 0, 'ID3') || (bytes.length >= 2 && bytes[0] === 0xff && ((bytes[1] ?? 0) & 0xe0) === 0xe0))
    return 'mp3';
  if (hasAt(bytes, 0, 'fLaC')) return 'flac';
  return undefined;
}

/**
 * Seconds of audio: exact for WAV (data size over byte rate); otherwise guessed from the size at
 * 32 kbit/s, about what a browser's Opus recording takes.
 * @param {Buffer} bytes
 */
function audioSeconds(bytes) {
  let byteRate = 0;
  if (audioContainerOf(bytes) === 'wav') {
    for (let at = 12; at + 8 <= bytes.length;) {
      const id = bytes.subarray(at, at + 4).toString('latin1');
      const size = bytes.readUInt32LE(at + 4);
      if (id === 'fmt ' && at + 20 <= bytes.length) byteRate = bytes.readUInt32LE(at + 16);
      if (id === 'data' && byteRate > 0) return round2(Math.min(size, bytes.length - at - 8) / byteRate);
      at += 8 + size + (size % 2);
    }
  }
  return round2(bytes.length / 4000);
}

/** @param {number} value */
const round2 = (value) => Math.round(value * 100) / 100;

// ---------------------------------------------------------------------------------------------
// multipart/form-data

/**
 * The parts of a multipart/form-data body, or undefined when it is not one. Works on bytes: the
 * file part is binary and must come out byte for byte.
 * @param {Buffer} body @param {string} contentType
 * @returns {FormPart[] | undefined}
 */
export function parseMultipart(body, contentType) {
  if (!/^multipart\/form-data\b/i.test(contentType)) return undefined;
  const boundary = /;\s*boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType);
  const marker = boundary?.[1] ?? boundary?.[2];
  if (!marker) return undefined;
  const delimiter = Buffer.from(`--${marker}`, 'latin1');
  /** @type {FormPart[]} */
  const parts = [];
  let at = body.indexOf(delimiter);
  if (at === -1) return undefined;
  for (;;) {
    at += delimiter.length;
    // `--` after a delimiter closes the body.
    if (body[at] === 0x2d && body[at + 1] === 0x2d) return parts;
    const headersEnd = body.indexOf('\r\n\r\n', at, 'latin1');
    if (headersEnd === -1) return undefined;
    const next = body.indexOf(Buffer.concat([Buffer.from('\r\n'), delimiter]), headersEnd + 4);
    if (next === -1) return undefined;
    const headers = body.subarray(at, headersEnd).toString('utf8');
    const disposition = /^content-disposition:(.*)$/im.exec(headers)?.[1] ?? '';
    const name = /\bname="([^"]*)"/i.exec(disposition)?.[1];
    const filename = /\bfilename="([^"]*)"/i.exec(disposition)?.[1];
    const type = /^content-type:\s*(.*?)\s*$/im.exec(headers)?.[1];
    if (name !== undefined) {
      parts.push({
        name,
        data: body.subarray(headersEnd + 4, next),
        ...(filename !== undefined && { filename }),
        ...(type !== undefined && { type }),
      });
    }
    at = next + 2;
  }
}

/**
 * What the request log keeps of a form: the text fields as sent (an array when repeated) and the
 * file's name, type and size.
 * @param {FormPart[]} parts
 */
export function formSummary(parts) {
  /** @type {Record<string, unknown>} */
  const summary = {};
  for (const part of parts) {
    const value =
      part.filename !== undefined
        ? { name: part.filename, type: part.type ?? '', size: part.data.length }
        : part.data.toString('utf8');
    const known = summary[part.name];
    summary[part.name] =
      known === undefined ? value : Array.isArray(known) ? [...known, value] : [known, value];
  }
  return summary;
}

// ---------------------------------------------------------------------------------------------
// Errors in OpenAI's and Groq's shapes.

/** @param {number} status @param {string} message @param {Record<string, unknown>} [fields] @returns {Reply} */
const openaiError = (status, message, fields = {}) => ({
  status,
  body: { error: { message, type: 'invalid_request_error', param: null, code: null, ...fields } },
});

/** Groq's errors leave out param (and code, unless it has one). @param {number} status @param {string} message @param {string} [code] @returns {Reply} */
const groqError = (status, message, code) => ({
  status,
  body: { error: { message, type: 'invalid_request_error', ...(code && { code }) } },
});

/** @param {string} name */
const missingParameter = (name) =>
  openaiError(400, `Missing required parameter: '${name}'.`, {
    param: name,
    code: 'missing_required_parameter',
  });

/** 'a', 'b', and 'c', as OpenAI lists supported values. @param {readonly string[]} values */
const quotedList = (values) => {
  const quoted = values.map((value) => `'${value}'`);
  return quoted.length < 3 ? quoted.join(' and ') : `${quoted.slice(0, -1).join(', ')}, and ${quoted.at(-1)}`;
};

/** @param {string} param @param {string} value @param {readonly string[]} supported */
const invalidValue = (param, value, supported) =>
  openaiError(400, `Invalid value: '${value}'. Supported values are: ${quotedList(supported)}.`, {
    param,
    code: 'invalid_value',
  });

/** OpenAI's unknown model answer (its usual one; [A] on the audio endpoints). @param {string} model */
const openaiNoModel = (model) =>
  openaiError(404, `The model \`${model}\` does not exist or you do not have access to it.`, {
    code: 'model_not_found',
  });

/**
 * A number outside its range, in OpenAI's wording for `max_tokens` and friends.
 * @param {string} name @param {unknown} value @param {number} min @param {number} max
 * @returns {Reply | undefined}
 */
function rangeError(name, value, min, max) {
  if (typeof value !== 'number' || Number.isNaN(value))
    return openaiError(400, `Invalid type for '${name}': expected a decimal, but got a string instead.`, {
      param: name,
      code: 'invalid_type',
    });
  if (value < min)
    return openaiError(
      400,
      `Invalid '${name}': decimal below minimum value. Expected a value >= ${min}, but got ${value} instead.`,
      { param: name, code: 'decimal_below_min_value' },
    );
  if (value > max)
    return openaiError(
      400,
      `Invalid '${name}': decimal above maximum value. Expected a value <= ${max}, but got ${value} instead.`,
      { param: name, code: 'decimal_above_max_value' },
    );
  return undefined;
}

// ---------------------------------------------------------------------------------------------
// Transcription

const openaiTranscriptionModels = [
  'whisper-1',
  'gpt-transcribe',
  'gpt-4o-transcribe',
  'gpt-4o-mini-transcribe',
  'gpt-4o-mini-transcribe-2025-12-15',
  'gpt-4o-transcribe-diarize',
];
const groqTranscriptionModels = ['whisper-large-v3', 'whisper-large-v3-turbo'];

const openaiFormats = ['json', 'text', 'srt', 'verbose_json', 'vtt', 'diarized_json'];
const groqFormats = ['json', 'text', 'verbose_json'];

/**
 * The formats each OpenAI model takes. The GPT transcribe models refuse the rest with "response_format
 * 'verbose_json' is not compatible with model 'gpt-4o-transcribe'. Use 'json' or 'text' instead."
 * [R] (openai/openai-dotnet#401, vercel/ai#8214, lfnovo/content-core#70 for gpt-transcribe): so
 * `text` passes, though the API reference says json only. The diarize model adds diarized_json [A].
 * @param {string} model
 */
function openaiFormatsOf(model) {
  if (model === 'whisper-1') return ['json', 'text', 'srt', 'verbose_json', 'vtt'];
  if (model === 'gpt-4o-transcribe-diarize') return ['json', 'text', 'diarized_json'];
  return ['json', 'text'];
}

/** Extensions each API takes, by the file's name [R]: OpenAI's list as its message gives it; Groq's as its own. */
const openaiExtensions = ['flac', 'm4a', 'mp3', 'mp4', 'mpeg', 'mpga', 'oga', 'ogg', 'wav', 'webm'];
const groqExtensions = ['flac', 'mp3', 'mp4', 'mpeg', 'mpga', 'm4a', 'ogg', 'opus', 'wav', 'webm'];

/** Both APIs refuse a body over 25 MB. */
const transcriptionLimit = 25 * MB;

/**
 * OpenAI's and Groq's refusals of a transcription request, in the order the mock checks them.
 * @param {'openai' | 'groq'} api
 */
const transcriptionErrors = (api) =>
  api === 'openai'
    ? {
        // [R] chidiwilliams/buzz#381, StanGirard/speechdigest#1: a server_error, oddly.
        tooLarge: (/** @type {number} */ size) =>
          openaiError(
            413,
            `Maximum content size limit (${transcriptionLimit}) exceeded (${size} bytes read)`,
            {
              type: 'server_error',
            },
          ),
        // [A] wording.
        notMultipart: (/** @type {string} */ type) =>
          openaiError(
            400,
            `Invalid Content-Type header (${type || 'none'}), expected multipart/form-data. (HINT: If you're using curl, you can pass -H 'Content-Type: multipart/form-data')`,
          ),
        missing: missingParameter,
        unknownModel: openaiNoModel,
        badFormat: (/** @type {string} */ format, /** @type {string} */ model) =>
          openaiFormats.includes(format)
            ? openaiError(
                400,
                `response_format '${format}' is not compatible with model '${model}'. Use ${openaiFormatsOf(
                  model,
                )
                  .map((value) => `'${value}'`)
                  .join(' or ')} instead.`,
                { param: 'response_format', code: 'unsupported_value' },
              )
            : invalidValue('response_format', format, openaiFormats),
        // [R] IgnoranceAI/hugh#4 and many more: param and code null.
        badExtension: () =>
          openaiError(
            400,
            `Invalid file format. Supported formats: [${openaiExtensions.map((e) => `'${e}'`).join(', ')}]`,
          ),
        // [R] adamcohenhillel/ADeus#60, SystemSculpt/obsidian-systemsculpt-ai#51.
        undecodable: () =>
          openaiError(400, 'The audio file could not be decoded or its format is not supported.'),
        // [A] wording, from memory of the real answer.
        tooShort: () =>
          openaiError(400, 'Audio file is too short. Minimum audio length is 0.1 seconds.', {
            param: 'file',
            code: 'audio_too_short',
          }),
        badLanguage: (/** @type {string} */ language) =>
          openaiError(
            400,
            `Invalid language '${language}'. Language parameter must be specified in ISO-639-1 format.`,
            { param: 'language', code: 'invalid_value' },
          ),
      }
    : {
        // [R] WEIFENG2333/VideoCaptioner#724.
        tooLarge: () => groqError(413, 'Request Entity Too Large', 'request_too_large'),
        notMultipart: () => groqError(400, 'request Content-Type must be multipart/form-data'), // [A]
        missing: (/** @type {string} */ name) =>
          groqError(400, name === 'file' ? 'either file or url must be provided' : `${name} is required`), // [A]
        unknownModel: (/** @type {string} */ model) =>
          groqError(
            404,
            `The model \`${model}\` does not exist or you do not have access to it.`,
            'model_not_found',
          ),
        badFormat: () => groqError(400, `response_format must be one of [${groqFormats.join(' ')}]`), // [A]
        // [R] vercel/ai#6413; the code since 2026 (chigwell/telegram-mcp#219).
        badExtension: () =>
          groqError(
            400,
            `file must be one of the following types: [${groqExtensions.join(' ')}]`,
            'unsupported_audio_format',
          ),
        undecodable: () => groqError(400, 'could not process file - is it a valid media file?'), // [A]
        tooShort: () => groqError(400, 'could not process file - is it a valid media file?'), // [A]
        badLanguage: (/** @type {string} */ language) => groqError(400, `invalid language: ${language}`), // [A]
      };

/**
 * A transcription request's form, checked; the reply to send instead when it does not pass.
 * @param {'openai' | 'groq'} api @param {FormPart[]} parts
 * @returns {{ refused: Reply } | { model: string, format: string, file: FormPart }}
 */
function checkTranscription(api, parts) {
  const errors = transcriptionErrors(api);
  /** @param {string} name */
  const field = (name) =>
    parts.find((part) => part.name === name && part.filename === undefined)?.data.toString('utf8');
  const model = field('model');
  const file = parts.find((part) => part.name === 'file' && part.filename !== undefined);
  if (!model) return { refused: errors.missing('model') };
  if (!file) return { refused: errors.missing('file') };
  const models = api === 'openai' ? openaiTranscriptionModels : groqTranscriptionModels;
  if (!models.includes(model)) return { refused: errors.unknownModel(model) };
  const format = field('response_format') || 'json';
  const formats = api === 'openai' ? openaiFormatsOf(model) : groqFormats;
  if (!formats.includes(format)) return { refused: errors.badFormat(format, model) };
  const language = field('language');
  if (language !== undefined && language !== '' && !/^[a-z]{2,3}$/.test(language))
    return { refused: errors.badLanguage(language) };
  const temperature = field('temperature');
  if (temperature !== undefined) {
    const wrong = rangeError('temperature', temperature === '' ? NaN : Number(temperature), 0, 1);
    if (wrong)
      return { refused: api === 'openai' ? wrong : groqError(400, 'temperature must be between 0 and 1') };
  }
  const extension = /\.([^./]+)$/.exec(file.filename ?? '')?.[1]?.toLowerCase() ?? '';
  if (!(api === 'openai' ? openaiExtensions : groqExtensions).includes(extension))
    return { refused: errors.badExtension() };
  if (!audioContainerOf(file.data)) return { refused: errors.undecodable() };
  if (file.data.length < 1000) return { refused: errors.tooShort() };
  return { model, format, file };
}

/**
 * Subtitles with one cue over the whole audio.
 * @param {'srt' | 'vtt'} kind @param {string} text @param {number} seconds
 */
function subtitles(kind, text, seconds) {
  const stamp = (/** @type {number} */ value) => {
    const ms = Math.round(value * 1000);
    const hms = [ms / 3_600_000, (ms / 60_000) % 60, (ms / 1000) % 60].map((part) =>
      String(Math.floor(part)).padStart(2, '0'),
    );
    return `${hms.join(':')}${kind === 'srt' ? ',' : '.'}${String(ms % 1000).padStart(3, '0')}`;
  };
  const cue = text ? `${stamp(0)} --> ${stamp(seconds)}\n${text}\n` : '';
  return kind === 'srt' ? (cue ? `1\n${cue}\n` : '') : `WEBVTT\n\n${cue}`;
}

/**
 * The transcript in the format asked. Groq keeps Whisper's leading space (" What is…"); OpenAI trims
 * it, and its `text` format ends with a newline [A].
 * @param {'openai' | 'groq'} api @param {string} model @param {string} format @param {string} heard @param {number} seconds
 * @param {string} prompt
 * @returns {Reply}
 */
function transcript(api, model, format, heard, seconds, prompt) {
  const text = api === 'groq' && heard ? ` ${heard}` : heard;
  const groqExtra = api === 'groq' ? { x_groq: { id: mockId('req_') } } : {};
  if (format === 'text') return { status: 200, body: api === 'openai' ? `${text}\n` : text };
  if (format === 'srt' || format === 'vtt') return { status: 200, body: subtitles(format, text, seconds) };
  const gpt = model.startsWith('gpt-');
  // GPT models count tokens (about 10 audio tokens a second, [A]); Whisper bills the seconds.
  const audioTokens = Math.ceil(seconds * 10);
  const promptTokens = tokenize(prompt).length;
  const outputTokens = tokenize(text).length;
  const usage =
    api === 'groq'
      ? {}
      : {
          usage: gpt
            ? {
                type: 'tokens',
                input_tokens: audioTokens + promptTokens,
                input_token_details: { text_tokens: promptTokens, audio_tokens: audioTokens },
                output_tokens: outputTokens,
                total_tokens: audioTokens + promptTokens + outputTokens,
              }
            : { type: 'duration', seconds: Math.ceil(seconds) },
        };
  if (format === 'json') return { status: 200, body: { text, ...usage, ...groqExtra } };
  if (format === 'diarized_json') {
    const segments = heard
      ? [{ type: 'transcript.text.segment', id: 'seg_0', start: 0, end: seconds, text, speaker: 'A' }]
      : [];
    return { status: 200, body: { task: 'transcribe', duration: seconds, text, segments, ...usage } };
  }
  const segments = heard
    ? [
        {
          id: 0,
          seek: 0,
          start: 0,
          end: seconds,
          text,
          tokens: tokenize(text).map((_, index) => 50364 + index),
          temperature: 0,
          avg_logprob: -0.21,
          compression_ratio: 0.86,
          no_speech_prob: 0.01,
        },
      ]
    : [];
  const body = { task: 'transcribe', language: 'english', duration: seconds, text, segments };
  return { status: 200, body: { ...body, ...usage, ...groqExtra } };
}

// ---------------------------------------------------------------------------------------------
// Speech (OpenAI)

const speechModels = ['tts-1', 'tts-1-hd', 'gpt-4o-mini-tts', 'gpt-4o-mini-tts-2025-12-15'];
const speechVoices = [
  'alloy',
  'ash',
  'ballad',
  'coral',
  'echo',
  'fable',
  'onyx',
  'nova',
  'sage',
  'shimmer',
  'verse',
  'marin',
  'cedar',
];
/** tts-1 refuses ballad (anasfik/openai#224) and the voices newer than it [R]. */
const ttsOneVoices = ['alloy', 'ash', 'coral', 'echo', 'fable', 'onyx', 'nova', 'sage', 'shimmer'];
const speechFormats = ['mp3', 'opus', 'aac', 'flac', 'wav', 'pcm'];
const speechKeys = ['model', 'input', 'voice', 'instructions', 'response_format', 'speed', 'stream_format'];

/** @param {string} model */
const isTtsOne = (model) => model === 'tts-1' || model === 'tts-1-hd';

/**
 * A speech request checked: the reply to send instead, or what to say.
 * @param {Record<string, unknown>} body
 * @returns {{ refused: Reply } | { model: string, input: string, format: string, sse: boolean, speed: number }}
 */
function checkSpeech(body) {
  const unknown = Object.keys(body).find((key) => !speechKeys.includes(key));
  if (unknown) return { refused: openaiError(400, `Unrecognized request argument supplied: ${unknown}`) };
  for (const name of ['model', 'input', 'voice'])
    if (body[name] === undefined || body[name] === null) return { refused: missingParameter(name) };
  const { model, input, voice } = body;
  if (typeof input !== 'string')
    return {
      refused: openaiError(400, "Invalid type for 'input': expected a string, but got an object instead.", {
        param: 'input',
        code: 'invalid_type',
      }),
    };
  if (Array.from(input).length > 4096) {
    // [R] metadist/synaplan#1665: pydantic's error list, as Python prints it.
    const said =
      "[{'type': 'string_too_long', 'loc': ('body', 'input'), 'msg': 'String should have at most 4096 characters', 'ctx': {'max_length': 4096}}]";
    return { refused: openaiError(400, said) };
  }
  if (typeof model !== 'string' || !speechModels.includes(model))
    return { refused: openaiNoModel(String(model)) };
  const custom = isRecord(voice) && typeof voice.id === 'string' && voice.id.startsWith('voice_');
  const voices = isTtsOne(model) ? ttsOneVoices : speechVoices;
  if (!custom && (typeof voice !== 'string' || !voices.includes(voice)))
    return {
      refused: invalidValue('voice', typeof voice === 'string' ? voice : JSON.stringify(voice), voices),
    };
  const format = body.response_format ?? 'mp3';
  if (typeof format !== 'string' || !speechFormats.includes(format))
    return { refused: invalidValue('response_format', String(format), speechFormats) };
  const speed = body.speed ?? 1;
  const wrongSpeed = rangeError('speed', speed, 0.25, 4);
  if (wrongSpeed) return { refused: wrongSpeed };
  const stream = body.stream_format ?? 'audio';
  if (stream !== 'audio' && stream !== 'sse')
    return { refused: invalidValue('stream_format', String(stream), ['audio', 'sse']) };
  if (stream === 'sse' && isTtsOne(model))
    return {
      refused: openaiError(
        400,
        "Unsupported value: 'stream_format' does not support 'sse' with this model. Supported values are: 'audio'.",
        { param: 'stream_format', code: 'unsupported_value' },
      ),
    };
  if (body.instructions !== undefined && isTtsOne(model))
    return {
      refused: openaiError(400, "Unsupported parameter: 'instructions' is not supported with this model.", {
        param: 'instructions',
        code: 'unsupported_parameter',
      }),
    };
  // [R] troykelly/live-news-break#222: gpt-4o-mini-tts reads at most 2000 tokens.
  const tokens = tokenize(input).length;
  if (!isTtsOne(model) && tokens > 2000)
    return {
      refused: openaiError(
        400,
        `Input of ${tokens} tokens is over the maximum input limit of 2000 tokens. Please shorten your input.`,
        { code: 'invalid_value' },
      ),
    };
  return { model, input, format, sse: stream === 'sse', speed: /** @type {number} */ (speed) };
}

/** The mock's own limit: it writes no compressed audio. @param {string} format */
const mockFormatRefusal = (format) =>
  openaiError(
    400,
    `The mock providers make only wav and pcm audio, not ${format} (the real API would send ${format}). Ask for response_format 'wav' or 'pcm'.`,
    { param: 'response_format', code: 'mock_unsupported_format' },
  );

/** About 20 audio tokens a second of speech [A]. @param {number} seconds */
const audioTokensOf = (seconds) => Math.ceil(seconds * 20);

/**
 * Splits bytes into `count` pieces of about the same size, each an even number of bytes so that no
 * 16-bit sample is cut in two (a player may decode piece by piece).
 * @param {Buffer} bytes @param {number} count
 */
function piecesOf(bytes, count = pieceCount) {
  const size = Math.max(2, Math.ceil(bytes.length / count / 2) * 2);
  const pieces = [];
  for (let at = 0; at < bytes.length; at += size) pieces.push(bytes.subarray(at, at + size));
  return pieces;
}

/** @param {string} scenario */
const pieceDelayOf = (scenario) => (scenario === 'slow' ? slowPieceDelayMs : pieceDelayMs);

/**
 * Writes a body piece by piece (chunked), pausing between pieces as a streaming API would.
 * @param {import('node:http').ServerResponse} res @param {Record<string, string>} headers
 * @param {Buffer[]} pieces @param {number} delayMs
 */
async function writePieces(res, headers, pieces, delayMs) {
  res.writeHead(200, headers);
  res.flushHeaders();
  for (const [index, piece] of pieces.entries()) {
    if (index > 0) await delay(delayMs);
    if (res.destroyed || res.writableEnded) return;
    res.write(piece);
  }
  res.end();
}

// ---------------------------------------------------------------------------------------------
// Routing and answering (server.mjs hands these paths over).

/** The voice endpoint a path is, if any. @param {string} path @returns {VoiceRoute | undefined} */
export function voiceRouteOf(path) {
  if (path === '/v1/audio/transcriptions') return { kind: 'transcription', provider: openaiMock };
  if (path === '/openai/v1/audio/transcriptions') return { kind: 'transcription', provider: groqMock };
  if (path === '/v1/audio/speech') return { kind: 'speech', provider: openaiMock };
  return undefined;
}

/**
 * What the request log keeps of a voice request's body: the form's summary, the speech JSON.
 * @param {VoiceRoute} route @param {VoiceRequest} request
 */
export function recordedVoiceBody(route, request) {
  if (request.bodyBytes.length === 0) return null;
  if (route.kind === 'speech') {
    const text = request.bodyBytes.toString('utf8');
    return parseJson(text) ?? text;
  }
  const parts = parseMultipart(request.bodyBytes, request.headers['content-type'] ?? '');
  return parts ? formSummary(parts) : null;
}

/**
 * Answers a voice request: preflight, size, key and scenario as for chat, then the API's own checks.
 * @param {VoiceRoute} route @param {VoiceRequest} request @param {import('node:http').ServerResponse} res
 */
export async function answerVoice(route, request, res) {
  const { provider } = route;
  if (request.method === 'OPTIONS') return sendReply(res, provider.preflight(request), {});
  const api = provider.id === 'groq' ? 'groq' : 'openai';
  const key = provider.keyOf(request);
  const scenario = scenarioOf(key);
  const cors = scenario === 'no-cors' ? {} : provider.corsHeaders(request);
  if (request.method !== 'POST') {
    const message = `Invalid URL (${request.method} ${request.url.pathname})`;
    return sendReply(res, openaiError(404, message), cors);
  }
  if (route.kind === 'transcription' && request.bodyBytes.length > transcriptionLimit)
    return sendReply(res, transcriptionErrors(api).tooLarge(request.bodyBytes.length), cors);
  if (!key) return sendReply(res, provider.missingKey(key), cors);
  if (!scenario) return sendReply(res, provider.badKey(key), cors);
  const status = httpStatusOf(scenario);
  if (route.kind === 'speech') return answerSpeech(request, res, cors, scenario, status);
  const contentType = request.headers['content-type'] ?? '';
  const parts = parseMultipart(request.bodyBytes, contentType);
  if (!parts) return sendReply(res, transcriptionErrors(api).notMultipart(contentType), cors);
  const checked = checkTranscription(api, parts);
  if ('refused' in checked) return sendReply(res, checked.refused, cors);
  if (status) return sendReply(res, provider.httpError(status, checked.model), cors);
  const heard = scenario === 'silent' ? '' : spokenQuestion;
  const prompt = parts.find((part) => part.name === 'prompt')?.data.toString('utf8') ?? '';
  const seconds = audioSeconds(checked.file.data);
  sendReply(res, transcript(api, checked.model, checked.format, heard, seconds, prompt), cors);
}

/**
 * @param {VoiceRequest} request @param {import('node:http').ServerResponse} res
 * @param {Record<string, string>} cors @param {string} scenario @param {number | undefined} status
 */
async function answerSpeech(request, res, cors, scenario, status) {
  const body = parseJson(request.bodyBytes.toString('utf8'));
  if (!isRecord(body)) return sendReply(res, openaiMock.invalidJson(), cors);
  const checked = checkSpeech(body);
  if ('refused' in checked) return sendReply(res, checked.refused, cors);
  if (status) return sendReply(res, openaiMock.httpError(status, checked.model), cors);
  if (checked.format !== 'wav' && checked.format !== 'pcm')
    return sendReply(res, mockFormatRefusal(checked.format), cors);
  const seconds = speechSeconds(checked.input, checked.speed);
  const pcm = toneSamples(seconds);
  const audio = checked.format === 'wav' ? wavFile(pcm) : pcm;
  const pieces = piecesOf(audio);
  if (checked.sse) {
    const instructions = typeof body.instructions === 'string' ? body.instructions : '';
    const input = tokenize(checked.input).length + tokenize(instructions).length;
    const output = audioTokensOf(seconds);
    const frames = [
      ...pieces.map((piece) => sse({ type: 'speech.audio.delta', audio: piece.toString('base64') })),
      sse({
        type: 'speech.audio.done',
        usage: { input_tokens: input, output_tokens: output, total_tokens: input + output },
      }),
    ];
    return writeStream(res, frames, { delayMs: pieceDelayOf(scenario), headers: cors });
  }
  const type = checked.format === 'wav' ? 'audio/wav' : 'audio/pcm';
  await writePieces(res, { 'content-type': type, ...cors }, pieces, pieceDelayOf(scenario));
}

/** @param {unknown} value */
const sse = (value) => `data: ${JSON.stringify(value)}\n\n`;

// ---------------------------------------------------------------------------------------------
// Gemini TTS

const geminiTtsModels = [
  'gemini-3.8-flash-tts',
  'gemini-3.8-flash-lite-tts',
  'gemini-3.1-flash-tts-preview',
  'gemini-2.5-flash-preview-tts',
  'gemini-2.5-pro-preview-tts',
];
export const geminiVoices = [
  'Zephyr',
  'Puck',
  'Charon',
  'Kore',
  'Fenrir',
  'Leda',
  'Orus',
  'Aoede',
  'Callirrhoe',
  'Autonoe',
  'Enceladus',
  'Iapetus',
  'Umbriel',
  'Algieba',
  'Despina',
  'Erinome',
  'Algenib',
  'Rasalgethi',
  'Laomedeia',
  'Achernar',
  'Alnilam',
  'Schedar',
  'Gacrux',
  'Pulcherrima',
  'Achird',
  'Zubenelgenubi',
  'Vindemiatrix',
  'Sadachbia',
  'Sadaltager',
  'Sulafat',
];
const pcmMime = `audio/L16;codec=pcm;rate=${sampleRate}`;

/** @param {string} message @returns {Reply} */
const geminiInvalid = (message) => ({
  status: 400,
  body: { error: { code: 400, message, status: 'INVALID_ARGUMENT' } },
});

/** A config field under its camelCase or snake_case name. @param {unknown} record @param {string} name */
function fieldOf(record, name) {
  if (!isRecord(record)) return undefined;
  return record[name] ?? record[name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`)];
}

/** The voice names a speechConfig asks for, single or multi-speaker. @param {unknown} speech @returns {unknown[]} */
function voiceNamesOf(speech) {
  /** @param {unknown} voiceConfig */
  const nameIn = (voiceConfig) => fieldOf(fieldOf(voiceConfig, 'prebuiltVoiceConfig'), 'voiceName');
  const single = nameIn(fieldOf(speech, 'voiceConfig'));
  const speakers = fieldOf(fieldOf(speech, 'multiSpeakerVoiceConfig'), 'speakerVoiceConfigs');
  const multi = Array.isArray(speakers)
    ? speakers.map((speaker) => nameIn(fieldOf(speaker, 'voiceConfig')))
    : [];
  return [single, ...multi].filter((name) => name !== undefined);
}

/**
 * @typedef {{ model: string, text: string }} GeminiSpeech
 */

/**
 * Whether a generateContent request is (or should be) text to speech, checked: undefined for an
 * ordinary chat; a refusal; or the speech to make. Wording [R] (danielmiessler/Fabric#1607,
 * BerriAI/litellm#11118): "The requested combination of response modalities (TEXT) is not supported
 * by the model. models/…-tts accepts the following combination of response modalities:\n* AUDIO\n";
 * "Developer instruction is not enabled for this model" for a systemInstruction
 * (TheKentuckian/robot_comic#122, seen on 3.1 and taken for all TTS models [A]); the voice's [A].
 * @param {Record<string, unknown>} body @param {string} model
 * @returns {{ refused: Reply } | { speech: GeminiSpeech } | undefined}
 */
export function geminiSpeechOf(body, model) {
  const config = fieldOf(body, 'generationConfig');
  const asked = fieldOf(config, 'responseModalities');
  const modalities = Array.isArray(asked) ? asked.map((value) => String(value).toUpperCase()) : [];
  const tts = geminiTtsModels.includes(model);
  if (!tts && !modalities.includes('AUDIO')) return undefined;
  const unsupported = (/** @type {string} */ accepted) =>
    geminiInvalid(
      `The requested combination of response modalities${modalities.length > 0 ? ` (${modalities.join(', ')})` : ''} is not supported by the model. models/${model} accepts the following combination of response modalities:\n* ${accepted}\n`,
    );
  if (!tts) return { refused: unsupported('TEXT') };
  if (modalities.length !== 1 || modalities[0] !== 'AUDIO') return { refused: unsupported('AUDIO') };
  if (fieldOf(body, 'systemInstruction') !== undefined)
    return { refused: geminiInvalid('Developer instruction is not enabled for this model') };
  for (const name of voiceNamesOf(fieldOf(config, 'speechConfig'))) {
    const known = geminiVoices.some((voice) => voice.toLowerCase() === String(name).toLowerCase());
    if (!known)
      return {
        refused: geminiInvalid(
          `Voice name ${String(name)} is not supported. Allowed voice names are: ${geminiVoices
            .map((voice) => voice.toLowerCase())
            .sort()
            .join(', ')}`,
        ),
      };
  }
  const contents = fieldOf(body, 'contents');
  const text = (Array.isArray(contents) ? contents : [])
    .flatMap((content) => {
      const parts = fieldOf(content, 'parts');
      return Array.isArray(parts) ? parts : [];
    })
    .map((part) => (isRecord(part) && typeof part.text === 'string' ? part.text : ''))
    .join('');
  return { speech: { model, text } };
}

/**
 * Gemini's TTS answer: the PCM in one inlineData part, or streamed in several chunks (usage in each,
 * the candidates' count and STOP on the last); about 25 audio tokens a second [A].
 * @param {GeminiSpeech} speech @param {boolean} stream @param {import('node:http').ServerResponse} res
 * @param {Record<string, string>} cors @param {string} scenario
 */
export async function answerGeminiSpeech(speech, stream, res, cors, scenario) {
  const seconds = speechSeconds(speech.text);
  const pcm = toneSamples(seconds);
  const promptTokens = tokenize(speech.text).length;
  const audioTokens = Math.ceil(seconds * 25);
  const envelope = { modelVersion: speech.model, responseId: mockId('') };
  /** @param {boolean} done */
  const usage = (done) => ({
    promptTokenCount: promptTokens,
    ...(done && { candidatesTokenCount: audioTokens }),
    totalTokenCount: promptTokens + (done ? audioTokens : 0),
    promptTokensDetails: [{ modality: 'TEXT', tokenCount: promptTokens }],
    ...(done && { candidatesTokensDetails: [{ modality: 'AUDIO', tokenCount: audioTokens }] }),
  });
  /** @param {Buffer} bytes @param {boolean} done */
  const candidate = (bytes, done) => ({
    content: {
      role: 'model',
      parts: [{ inlineData: { mimeType: pcmMime, data: bytes.toString('base64') } }],
    },
    ...(done && { finishReason: 'STOP' }),
    index: 0,
  });
  if (!stream) {
    const body = { candidates: [candidate(pcm, true)], usageMetadata: usage(true), ...envelope };
    return sendReply(res, { status: 200, body }, cors);
  }
  const pieces = piecesOf(pcm);
  const frames = pieces.map((piece, index) => {
    const done = index === pieces.length - 1;
    const chunk = { candidates: [candidate(piece, done)], usageMetadata: usage(done), ...envelope };
    return `data: ${JSON.stringify(chunk)}\r\n\r\n`;
  });
  await writeStream(res, frames, { delayMs: pieceDelayOf(scenario), headers: cors });
}
