// @ts-check
/**
 * Code interpreter and image generation on the Responses API (code-images.mjs has the program,
 * the picture and the scenarios).
 *
 * Code interpreter: a tool `{type: "code_interpreter", container: {type: "auto"} | "cntr_…"}`
 * (without `container`: 400 missing_required_parameter). The output is a reasoning item, a
 * `code_interpreter_call` item `{id: "ci_…", type, status: "completed", code, container_id,
 * outputs}`, then the message. `outputs` is null unless `include` holds
 * `code_interpreter_call.outputs`; then `[{type: "logs", logs}, {type: "image", url:
 * "data:image/png;base64,…"}]` (no image when the code failed). Stream: output_item.added (status
 * in_progress, code "", outputs []) → response.code_interpreter_call.in_progress →
 * response.code_interpreter_call_code.delta {item_id, output_index, delta} … →
 * response.code_interpreter_call_code.done {code} → response.code_interpreter_call.interpreting →
 * response.code_interpreter_call.completed → output_item.done. The container is the one named, or
 * a new `cntr_…` for `{type: "auto"}`. Under `code` the program writes squares.csv: the message's
 * text ends with a markdown link to it, `[squares.csv](sandbox:/mnt/data/squares.csv)`, and its
 * output_text carries a `container_file_citation` annotation {container_id, file_id: "cfile_…",
 * filename, start_index, end_index} whose span is that link; `GET
 * /v1/containers/{container_id}/files/{file_id}/content` (a Bearer key required) returns the
 * file's bytes. [A] the link and the span (where real answers put it varies), that the citation is
 * not streamed as response.output_text.annotation.added before the deltas end (it is: after the
 * delta that completes the link, as url_citation), the download's content type
 * (application/octet-stream) and its 404 wording; under `code-failed` the call's status is still
 * `completed` (the program ran; its traceback is in the logs).
 *
 * Image generation: a tool `{type: "image_generation", partial_images?: 0-3, size?, quality?,
 * background?, output_format?}`. The output is a reasoning item, an `image_generation_call` item
 * `{id: "ig_…", type, status: "completed", background, output_format, quality, result: <base64
 * PNG>, revised_prompt, size}`, then the message. Stream: output_item.added {id, type, status:
 * in_progress} → response.image_generation_call.in_progress → .generating → one
 * response.image_generation_call.partial_image {item_id, output_index, partial_image_index,
 * partial_image_b64, size, quality, background, output_format} per partial image asked → .completed
 * → output_item.done. Options "auto" or left out resolve to 1024x1024, high, opaque, png [A]; the
 * picture itself is 64×64 whatever the size says. An earlier `image_generation_call` sent back as
 * an input item (an edit) is accepted.
 *
 * Groq's compound models (added with the clients' code execution): under a code scenario they run
 * the program on their own, unasked (the request is unchanged; openai-search.mjs has their web
 * search). The run is an `executed_tools` entry in groq-python's ExecutedTool shape: `{index,
 * type: "python", arguments: "{\"code\": …}", output, code_results: [{text?, png?}]}`, streamed
 * whole as `delta.executed_tools` after the reasoning that leads to it, and on the message when not
 * streamed, then the answer. [A] the `type` value, that `output` is what the program printed, that
 * the plot is one `code_results` entry `{png: <base64 PNG>}` (no `text`, the program ends with no
 * value), that under `code-failed` `output` is the traceback with no `code_results` and nothing
 * else marks the failure, and the reasoning text. No file downloads: squares.csv stays on Groq.
 */

import {
  codeRun,
  drawsImages,
  imageAnswer,
  partialPngBase64,
  plotBase64,
  revisedPrompt,
  runsCode,
  squaresCsv,
  squaresCsvName,
  squaresPng,
} from './code-images.mjs';
import { openaiInvalid } from './openai-validation.mjs';
import { hexId } from './tools.mjs';
import { isRecord } from './wire.mjs';

/**
 * @typedef {import('./wire.mjs').Reply} Reply
 * @typedef {import('./wire.mjs').ChatPlan} ChatPlan
 * @typedef {(type: string, fields: Record<string, unknown>) => string} EventWriter
 */

/** The request's tool of a type. @param {Record<string, unknown>} body @param {string} type */
export const toolOf = (body, type) =>
  (Array.isArray(body.tools) ? body.tools : []).find((tool) => isRecord(tool) && tool.type === type);

/** The code interpreter tools need a container. @param {Record<string, unknown>} body @returns {Reply | undefined} */
export function responsesCodeError(body) {
  const tools = Array.isArray(body.tools) ? body.tools : [];
  for (const [index, tool] of tools.entries()) {
    if (!isRecord(tool) || tool.type !== 'code_interpreter') continue;
    if (tool.container === undefined || tool.container === null) {
      return openaiInvalid(`Missing required parameter: 'tools[${index}].container'.`, {
        param: `tools[${index}].container`,
        code: 'missing_required_parameter',
      });
    }
  }
  return undefined;
}

/** Files the code scenario wrote, by `${container_id}/${file_id}`. @type {Map<string, { filename: string, bytes: Buffer }>} */
const containerFiles = new Map();

/**
 * `GET /v1/containers/{container_id}/files/{file_id}/content`: the bytes, or undefined when the
 * path is not that route.
 * @param {string} path
 * @returns {{ found: true, bytes: Buffer } | { found: false } | undefined}
 */
export function containerFileOf(path) {
  const match = /^\/v1\/containers\/([^/]+)\/files\/([^/]+)\/content$/.exec(path);
  if (!match) return undefined;
  const file = containerFiles.get(
    `${decodeURIComponent(match[1] ?? '')}/${decodeURIComponent(match[2] ?? '')}`,
  );
  return file ? { found: true, bytes: file.bytes } : { found: false };
}

const reasoningBeforeCode =
  '**Running code**\n\nI will compute the squares in Python, save them as a table and plot them.';
const reasoningBeforeImage = '**Drawing**\n\nI will generate the picture with the image tool.';

/**
 * A Responses turn with a code_interpreter call, under a code scenario with the tool offered: the
 * steps before the message (as responsesSearchTurn's), the text and annotations, and the call's
 * own events.
 * @param {ChatPlan} plan
 */
export function responsesCodeTurn(plan) {
  const tool = toolOf(plan.body, 'code_interpreter');
  if (!runsCode(plan.scenario) || !isRecord(tool)) return undefined;
  const run = codeRun(plan.scenario);
  const include = Array.isArray(plan.body.include) ? plan.body.include : [];
  const containerId = typeof tool.container === 'string' ? tool.container : hexId('cntr_');
  const outputs = include.includes('code_interpreter_call.outputs')
    ? [
        { type: 'logs', logs: run.output },
        ...(run.failed ? [] : [{ type: 'image', url: `data:image/png;base64,${plotBase64}` }]),
      ]
    : null;
  const item = {
    id: hexId('ci_'),
    type: 'code_interpreter_call',
    status: 'completed',
    code: run.code,
    container_id: containerId,
    outputs,
  };
  let text = run.answer;
  /** @type {Record<string, unknown>[]} */
  const annotations = [];
  if (!run.failed) {
    const fileId = hexId('cfile_', 16);
    containerFiles.set(`${containerId}/${fileId}`, {
      filename: squaresCsvName,
      bytes: Buffer.from(squaresCsv, 'utf8'),
    });
    const link = `[${squaresCsvName}](sandbox:/mnt/data/${squaresCsvName})`;
    text += ' ';
    annotations.push({
      type: 'container_file_citation',
      container_id: containerId,
      end_index: text.length + link.length,
      file_id: fileId,
      filename: squaresCsvName,
      start_index: text.length,
    });
    text += link;
  }
  /** @param {EventWriter} event @param {number} outputIndex */
  const callFrames = (event, outputIndex) => {
    const at = { item_id: item.id, output_index: outputIndex };
    return [
      event('response.output_item.added', {
        output_index: outputIndex,
        item: {
          type: item.type,
          id: item.id,
          status: 'in_progress',
          code: '',
          container_id: containerId,
          outputs: [],
        },
      }),
      event('response.code_interpreter_call.in_progress', at),
      ...(run.code.match(/[^\n]*\n?/g) ?? [])
        .filter(Boolean)
        .map((delta) => event('response.code_interpreter_call_code.delta', { ...at, delta })),
      event('response.code_interpreter_call_code.done', { ...at, code: run.code }),
      event('response.code_interpreter_call.interpreting', at),
      event('response.code_interpreter_call.completed', at),
      event('response.output_item.done', { output_index: outputIndex, item }),
    ];
  };
  return {
    steps: [
      { kind: /** @type {const} */ ('reasoning'), text: reasoningBeforeCode },
      { kind: /** @type {const} */ ('call'), item, callFrames },
    ],
    text,
    annotations,
  };
}

/** @param {unknown} value @param {string} fallback */
const resolved = (value, fallback) => (typeof value === 'string' && value !== 'auto' ? value : fallback);

/**
 * An image_generation call as the tool's options ask: its done item (with `picture`, base64) and
 * the frames that stream it (`preview(index, count)`: each partial image asked, base64). Shared
 * by the image scenario and the bench's long-researched one.
 * @param {Record<string, unknown>} tool
 * @param {string} picture
 * @param {(index: number, count: number) => string} preview
 * @param {string} [revised] the revised prompt the item reports
 */
export function imageGenerationCall(tool, picture, preview, revised = revisedPrompt) {
  const options = {
    background: resolved(tool.background, 'opaque'),
    output_format: resolved(tool.output_format, 'png'),
    quality: resolved(tool.quality, 'high'),
    size: resolved(tool.size, '1024x1024'),
  };
  const partials =
    typeof tool.partial_images === 'number' ? Math.max(0, Math.min(3, tool.partial_images)) : 0;
  const item = {
    id: hexId('ig_'),
    type: 'image_generation_call',
    status: 'completed',
    ...options,
    result: picture,
    revised_prompt: revised,
  };
  /** @param {EventWriter} event @param {number} outputIndex */
  const callFrames = (event, outputIndex) => {
    const at = { item_id: item.id, output_index: outputIndex };
    return [
      event('response.output_item.added', {
        output_index: outputIndex,
        item: { id: item.id, type: item.type, status: 'in_progress' },
      }),
      event('response.image_generation_call.in_progress', at),
      event('response.image_generation_call.generating', at),
      ...Array.from({ length: partials }, (_, index) =>
        event('response.image_generation_call.partial_image', {
          ...at,
          partial_image_index: index,
          partial_image_b64: preview(index, partials),
          size: options.size,
          quality: options.quality,
          background: options.background,
          output_format: options.output_format,
        }),
      ),
      event('response.image_generation_call.completed', at),
      event('response.output_item.done', { output_index: outputIndex, item }),
    ];
  };
  return { item, callFrames };
}

/**
 * A Responses turn with an image_generation call, under the image scenario with the tool offered.
 * @param {ChatPlan} plan
 */
export function responsesImageTurn(plan) {
  const tool = toolOf(plan.body, 'image_generation');
  if (!drawsImages(plan.scenario) || !isRecord(tool)) return undefined;
  const { item, callFrames } = imageGenerationCall(tool, squaresPng().toString('base64'), partialPngBase64);
  return {
    steps: [
      { kind: /** @type {const} */ ('reasoning'), text: reasoningBeforeImage },
      { kind: /** @type {const} */ ('call'), item, callFrames },
    ],
    text: imageAnswer,
    annotations: [],
  };
}

/** Groq's compound systems, and their older beta names. @param {string} model */
const isCompoundModel = (model) => /^(groq\/)?compound(-beta)?(-mini)?$/.test(model);

const compoundCodeReasoning = 'I will run the squares program in Python to compute the sum and plot it.';

/**
 * The turn of a Groq compound model under a code scenario: its reasoning, the run it made (as
 * compoundSearchTurn's searches: `tools`, one reasoning text per tool in `thoughts`) and the answer.
 * @param {ChatPlan} plan
 */
export function compoundCodeTurn(plan) {
  if (!runsCode(plan.scenario) || !isCompoundModel(plan.model)) return undefined;
  const run = codeRun(plan.scenario);
  const tool = {
    index: 0,
    type: 'python',
    arguments: JSON.stringify({ code: run.code }).replace('":"', '": "'),
    output: run.output,
    code_results: run.failed ? [] : [{ png: plotBase64 }],
  };
  return {
    reasoning: compoundCodeReasoning,
    thoughts: [compoundCodeReasoning],
    tools: [tool],
    text: run.answer,
  };
}
