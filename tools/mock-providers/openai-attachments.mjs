// @ts-check
/**
 * Images and PDFs in Chat Completions (OpenAI, Azure, Groq) and Responses requests
 * (docs/providers.md#attachments), checked as the real APIs check them, each with its own error wording.
 *
 * Wording sources, [R] as reported verbatim in public issue threads, [A] plausible only:
 * - [R] `Invalid value: 'thinking'. Supported values are: 'text', 'image_url', 'input_audio', 'refusal',
 *   'audio', and 'file'.` param messages[i].content[j].type (code corpus, several client comments).
 * - [R] `Invalid image URL: 'messages[0].content[1].image_url.url'. Expected a base64-encoded data URL
 *   with an image MIME type (e.g. 'data:image/png;base64,aW1nIGJ5dGVzIGhlcmU='), but got a value
 *   without the 'data:' prefix.` code invalid_value (Alibaba-NLP/OmniSearch#3); the Responses form
 *   `Invalid 'input[0].content[1].image_url'. …, but got unsupported MIME type 'application/pdf'.`
 *   (mkht/PSOpenAI#43) and `…, but got empty base64-encoded bytes.` (anomalyco/opencode#23983).
 * - [R] `Invalid file data: 'messages[3].content[2].file.file_data'. Expected a base64-encoded data URL
 *   with an application/pdf MIME type (e.g. 'data:application/pdf;base64,SGVsbG8sIFdvcmxkIQ=='), but
 *   got unsupported MIME type 'text/markdown'.` code invalid_value (trpc-group/trpc-agent-go#1816,
 *   openai/openai-dotnet#613), `…, but got an invalid base64-encoded value.` (vercel/ai#7266), and
 *   the Responses form with `a valid file MIME type (e.g. 'data:text/plain;base64,…')` and the
 *   supported-files link (vercel/ai#7776).
 * - [R] `You uploaded an unsupported image. Please make sure your image has of one the following
 *   formats: ['png', 'jpeg', 'gif', 'webp'].` code invalid_image_format (STranslate/STranslate#277);
 *   the `is below 20 MB in size and is of one…` variant (CosmosShadow/gptpdf#6, OpenAdapt#853), whose
 *   code here is [A].
 * - [R] `Invalid 'messages[4]'. Image URLs are only allowed for messages with role 'user', but this
 *   message with role 'system' contains an image URL.` code invalid_value (code corpus).
 * - [R] Groq, a model without vision: `messages[1].content must be a string`, param
 *   messages[1].content (sam3gp8/jarvis-aio#17, 2026-09).
 * - [A] everything else: the 50 MB and 500-image totals, a PDF whose bytes are not a PDF, the file
 *   counterpart of the role rule, and all other Groq wording (in Groq's validator style).
 */

import { groqInvalid, openaiInvalid } from './openai-validation.mjs';
import {
  MB,
  decodeBase64,
  imageTypes,
  isImageOf,
  magicType,
  parseDataUrl,
  typeName,
} from './attachments.mjs';
import { isRecord } from './wire.mjs';

/** @typedef {import('./wire.mjs').Reply} Reply */

const chatPartTypes = ['text', 'image_url', 'input_audio', 'refusal', 'audio', 'file'];
const groqPartTypes = ['text', 'image_url'];

/**
 * Groq models that see images: those whose capabilities say `images: true` in the app's table,
 * src/domain/provider-definitions/groq.ts (`^meta-llama/llama-4`). Mirrored here, since the mock
 * runs without the app's TypeScript.
 * @param {unknown} model
 */
export const isGroqVisionModel = (model) => /^meta-llama\/llama-4/.test(String(model));

const maxImageBytes = 20 * MB;
const maxImagesBytes = 50 * MB;
const maxImages = 500;

const imageExample = "(e.g. 'data:image/png;base64,aW1nIGJ5dGVzIGhlcmU=')";
const pdfExample = "(e.g. 'data:application/pdf;base64,SGVsbG8sIFdvcmxkIQ==')";
const fileExample = "(e.g. 'data:text/plain;base64,SGVsbG8sIFdvcmxkIQ==')";
const supportedFilesLink =
  ' Please see https://platform.openai.com/docs/assistants/tools/file-search#supported-files for supported file types.';
const unsupportedImage =
  "You uploaded an unsupported image. Please make sure your image has of one the following formats: ['png', 'jpeg', 'gif', 'webp'].";
const tooLargeImage =
  "You uploaded an unsupported image. Please make sure your image is below 20 MB in size and is of one the following formats: ['png', 'jpeg', 'gif', 'webp'].";

/** 'a' and 'b'; 'a', 'b', and 'c'. @param {string[]} values */
function quotedList(values) {
  const quoted = values.map((value) => `'${value}'`);
  return quoted.length < 3 ? quoted.join(' and ') : `${quoted.slice(0, -1).join(', ')}, and ${quoted.at(-1)}`;
}

/** What got in the way of a data URL, in the words that end OpenAI's message. @param {string} url @param {(mime: string) => boolean} accepts */
function dataUrlProblem(url, accepts) {
  const parsed = parseDataUrl(url);
  if ('problem' in parsed)
    return {
      tail:
        parsed.problem === 'prefix'
          ? "a value without the 'data:' prefix"
          : 'an invalid base64-encoded value',
    };
  if (!accepts(parsed.mime)) return { tail: `unsupported MIME type '${parsed.mime}'` };
  if (parsed.data === '') return { tail: 'empty base64-encoded bytes' };
  const bytes = decodeBase64(parsed.data);
  if (!bytes) return { tail: 'an invalid base64-encoded value' };
  return { mime: parsed.mime, bytes };
}

/** Images in a request: their count and decoded bytes, for the per-request limits. */
class ImageTally {
  count = 0;
  bytes = 0;
  /** @param {string} param where the request's images are: messages, input @returns {Reply | undefined} */
  limitError(param) {
    if (this.count > maxImages) {
      const message = `Too many images: this request has ${this.count} images, more than the ${maxImages} allowed per request.`;
      return openaiInvalid(message, { param, code: 'invalid_value' });
    }
    if (this.bytes > maxImagesBytes) {
      const message = `Too much image data: the images in this request total ${this.bytes} bytes, more than the ${maxImagesBytes} bytes (50 MB) allowed per request.`;
      return openaiInvalid(message, { param, code: 'invalid_value' });
    }
    return undefined;
  }
}

/**
 * An image sent as a URL (OpenAI Chat `image_url.url`, Responses `image_url`): http(s) URLs are
 * taken as they come (the mock fetches nothing), data URLs are checked down to their bytes.
 * @param {string} url @param {string} param @param {string} lead the message's start, e.g. "Invalid image URL: 'x'."
 * @param {ImageTally} tally @returns {Reply | undefined}
 */
function imageUrlError(url, param, lead, tally) {
  tally.count += 1;
  if (/^https?:\/\//i.test(url)) return undefined;
  const checked = dataUrlProblem(url, (mime) => mime.startsWith('image/'));
  if ('tail' in checked) {
    const message = `${lead} Expected a base64-encoded data URL with an image MIME type ${imageExample}, but got ${checked.tail}.`;
    return openaiInvalid(message, { param, code: 'invalid_value' });
  }
  if (checked.bytes.length > maxImageBytes)
    return openaiInvalid(tooLargeImage, { code: 'invalid_image_format' });
  // Unsupported formats (BMP, TIFF, …) and bytes that are not the image the URL declares.
  if (!imageTypes.includes(checked.mime) || !isImageOf(checked.bytes, checked.mime))
    return openaiInvalid(unsupportedImage, { code: 'invalid_image_format' });
  tally.bytes += checked.bytes.length;
  return undefined;
}

/** @param {unknown} detail @param {string[]} allowed @param {string} param @returns {Reply | undefined} */
function detailError(detail, allowed, param) {
  if (detail === undefined || allowed.includes(String(detail))) return undefined;
  const message = `Invalid value: '${String(detail)}'. Supported values are: ${quotedList(allowed)}.`;
  return openaiInvalid(message, { param, code: 'invalid_value' });
}

/**
 * A Chat Completions `file` part: `file_id`, or `file_data` holding a PDF data URL (PDF only).
 * @param {unknown} file @param {string} at @returns {Reply | undefined}
 */
function chatFileError(file, at) {
  if (!isRecord(file)) {
    const message = `Invalid type for '${at}.file': expected an object, but got ${typeName(file)} instead.`;
    return openaiInvalid(message, { param: `${at}.file`, code: 'invalid_type' });
  }
  if (file.file_data === undefined && typeof file.file_id === 'string') return undefined;
  const param = `${at}.file.file_data`;
  if (typeof file.file_data !== 'string') {
    return openaiInvalid(`Missing required parameter: '${param}'.`, {
      param,
      code: 'missing_required_parameter',
    });
  }
  const checked = dataUrlProblem(file.file_data, (mime) => mime === 'application/pdf');
  const tail =
    'tail' in checked
      ? checked.tail
      : magicType(checked.bytes) === 'application/pdf'
        ? ''
        : 'data that is not a PDF';
  if (!tail) return undefined;
  const message = `Invalid file data: '${param}'. Expected a base64-encoded data URL with an application/pdf MIME type ${pdfExample}, but got ${tail}.`;
  return openaiInvalid(message, { param, code: 'invalid_value' });
}

/**
 * The content parts of OpenAI's and Azure's Chat Completions messages. Images and files only in
 * user messages; any role may send text parts.
 * @param {Record<string, unknown>} body @returns {Reply | undefined}
 */
export function chatAttachmentsError(body) {
  const messages = Array.isArray(body.messages) ? body.messages : [];
  const tally = new ImageTally();
  for (const [index, message] of messages.entries()) {
    if (!isRecord(message) || !Array.isArray(message.content)) continue;
    const role = String(message.role);
    for (const [partIndex, part] of message.content.entries()) {
      const at = `messages[${index}].content[${partIndex}]`;
      const type = isRecord(part) ? String(part.type) : typeName(part);
      if (!isRecord(part) || !chatPartTypes.includes(type)) {
        const message = `Invalid value: '${type}'. Supported values are: ${quotedList(chatPartTypes)}.`;
        return openaiInvalid(message, { param: `${at}.type`, code: 'invalid_value' });
      }
      if (type === 'text' && typeof part.text !== 'string') {
        const message = `Invalid type for '${at}.text': expected a string, but got ${typeName(part.text)} instead.`;
        return openaiInvalid(message, { param: `${at}.text`, code: 'invalid_type' });
      }
      if ((type === 'image_url' || type === 'file') && role !== 'user') {
        const what = type === 'file' ? ['Files', 'a file'] : ['Image URLs', 'an image URL'];
        const message = `Invalid 'messages[${index}]'. ${what[0]} are only allowed for messages with role 'user', but this message with role '${role}' contains ${what[1]}.`;
        return openaiInvalid(message, { param: `messages[${index}]`, code: 'invalid_value' });
      }
      if (type === 'file') {
        const error = chatFileError(part.file, at);
        if (error) return error;
      }
      if (type !== 'image_url') continue;
      const image = part.image_url;
      if (!isRecord(image) || typeof image.url !== 'string') {
        const [name, expected] = isRecord(image)
          ? [`${at}.image_url.url`, 'a string']
          : [`${at}.image_url`, 'an object'];
        const got = isRecord(image) ? image.url : image;
        const message = `Invalid type for '${name}': expected ${expected}, but got ${typeName(got)} instead.`;
        return openaiInvalid(message, { param: name, code: 'invalid_type' });
      }
      const error =
        detailError(image.detail, ['auto', 'low', 'high'], `${at}.image_url.detail`) ??
        imageUrlError(image.url, `${at}.image_url.url`, `Invalid image URL: '${at}.image_url.url'.`, tally);
      if (error) return error;
    }
  }
  return tally.limitError('messages');
}

/** The file types Responses takes as `input_file` data (D): PDF, text and code, Office documents. @param {string} mime */
const responsesFileType = (mime) =>
  mime === 'application/pdf' ||
  mime.startsWith('text/') ||
  mime === 'application/json' ||
  mime.startsWith('application/vnd.openxmlformats-officedocument.');

/**
 * One content part of a Responses user message (input_image, input_file); the part types were
 * checked before.
 * @param {Record<string, unknown>} part @param {string} at e.g. input[0].content[1]
 * @param {ImageTally} tally @returns {Reply | undefined}
 */
function responsesPartError(part, at, tally) {
  if (part.type === 'input_image') {
    if (part.image_url === undefined && typeof part.file_id === 'string') return undefined;
    if (typeof part.image_url !== 'string') {
      const message = `Invalid type for '${at}.image_url': expected a string, but got ${typeName(part.image_url)} instead.`;
      return openaiInvalid(message, { param: `${at}.image_url`, code: 'invalid_type' });
    }
    return (
      detailError(part.detail, ['low', 'high', 'auto', 'original'], `${at}.detail`) ??
      imageUrlError(part.image_url, `${at}.image_url`, `Invalid '${at}.image_url'.`, tally)
    );
  }
  if (part.type !== 'input_file' || part.file_data === undefined) return undefined;
  const param = `${at}.file_data`;
  if (typeof part.file_data !== 'string') {
    const message = `Invalid type for '${param}': expected a string, but got ${typeName(part.file_data)} instead.`;
    return openaiInvalid(message, { param, code: 'invalid_type' });
  }
  const checked = dataUrlProblem(part.file_data, responsesFileType);
  let tail = 'tail' in checked ? checked.tail : '';
  if (!('tail' in checked)) {
    // Binary formats must be what they say; text is taken as it is.
    const magic = magicType(checked.bytes);
    if (checked.mime === 'application/pdf' && magic !== 'application/pdf') tail = 'data that is not a PDF';
    if (checked.mime.startsWith('application/vnd.openxmlformats') && magic !== 'application/zip')
      tail = `data that is not a ${checked.mime} document`;
  }
  if (!tail) return undefined;
  const message = `Invalid file data: '${param}'. Expected a base64-encoded data URL with a valid file MIME type ${fileExample}, but got ${tail}.${supportedFilesLink}`;
  return openaiInvalid(message, { param, code: 'invalid_value' });
}

/**
 * The images and files of a Responses request's input items.
 * @param {unknown[]} input @returns {Reply | undefined}
 */
export function responsesAttachmentsError(input) {
  const tally = new ImageTally();
  for (const [index, item] of input.entries()) {
    if (!isRecord(item) || (item.type ?? 'message') !== 'message' || !Array.isArray(item.content)) continue;
    for (const [partIndex, part] of item.content.entries()) {
      if (!isRecord(part)) continue;
      const error = responsesPartError(part, `input[${index}].content[${partIndex}]`, tally);
      if (error) return error;
    }
  }
  return tally.limitError('input');
}

/**
 * Groq's content parts: text and image_url only (groq-sdk ChatCompletionContentPart), images only
 * for vision models and in user messages, no files.
 * @param {Record<string, unknown>} body @returns {Reply | undefined}
 */
export function groqAttachmentsError(body) {
  const messages = Array.isArray(body.messages) ? body.messages : [];
  for (const [index, message] of messages.entries()) {
    if (!isRecord(message) || !Array.isArray(message.content)) continue;
    const role = String(message.role);
    const rule = (/** @type {string} */ detail) =>
      groqInvalid(`'messages.${index}' : for 'role:${role}' the following must be satisfied[(${detail})]`);
    for (const [partIndex, part] of message.content.entries()) {
      const type = isRecord(part) ? String(part.type) : typeName(part);
      if (!isRecord(part) || !groqPartTypes.includes(type)) {
        return rule(
          `'messages.${index}.content.${partIndex}.type' : value is not one of the allowed values ['text', 'image_url']`,
        );
      }
      if (type !== 'image_url') continue;
      if (!isGroqVisionModel(body.model)) {
        const reply = groqInvalid(`messages[${index}].content must be a string`);
        const { error } = /** @type {{ error: Record<string, unknown> }} */ (reply.body);
        return { ...reply, body: { error: { ...error, param: `messages[${index}].content` } } };
      }
      if (role !== 'user') return rule(`'messages.${index}.content' : value must be a string`);
      const url = isRecord(part.image_url) ? part.image_url.url : undefined;
      if (typeof url !== 'string')
        return rule(`'messages.${index}.content.${partIndex}.image_url.url' : property 'url' is missing`);
      if (/^https?:\/\//i.test(url)) continue;
      const checked = dataUrlProblem(url, (mime) => imageTypes.includes(mime));
      const where = `messages[${index}].content[${partIndex}].image_url.url`;
      if ('tail' in checked) return groqInvalid(`invalid image data URL at ${where}: got ${checked.tail}`);
      if (!isImageOf(checked.bytes, checked.mime))
        return groqInvalid(`invalid image at ${where}: the data is not a valid ${checked.mime} image`);
    }
  }
  return undefined;
}
