// @ts-check
/**
 * Code execution and image output on Gemini (code-images.mjs has the program, the picture and the
 * scenarios).
 *
 * Code execution: the request offers `tools: [{codeExecution: {}}]` (or `code_execution`). The
 * model's turn holds an `executableCode` part `{language: "PYTHON", code}`, then a
 * `codeExecutionResult` part `{outcome: "OUTCOME_OK" | "OUTCOME_FAILED", output}`, then the plot
 * as an `inlineData` part `{mimeType: "image/png", data}` (not when the code failed), then the
 * answer's text. Streamed, each of those parts is a chunk of its own, then the text in chunks of a
 * few tokens, the last with finishReason STOP. [A] that no text comes before the code, and
 * candidatesTokenCount (the text, the code and its output, counted as text).
 *
 * Images: an image model (`gemini-2.5-flash-image`, `gemini-3-pro-image`, `gemini-3.1-flash-image`,
 * any `gemini-*-image*`) with `generationConfig.responseModalities` holding `IMAGE` answers with a
 * text part, then an `inlineData` image part; `imageConfig.aspectRatio` ("16:9", …) shapes the
 * picture (64 px on its short side: a stand-in, not the real 1K/2K/4K sizes; `imageSize` is
 * accepted and not acted on). On Gemini 3 image models both parts carry a `thoughtSignature`
 * (the first part of the turn and every image part, as the thought-signatures docs say); a turn
 * sent back for an edit is accepted with or without them (the 400 for a dropped signature is not
 * reproduced: its wording is not known).
 */

import { codeRun, drawsImages, imageAnswer, plotBase64, runsCode, squaresPng } from './code-images.mjs';
import { thoughtSignature } from './signatures.mjs';
import { isRecord } from './wire.mjs';

/** @typedef {import('./wire.mjs').ChatPlan} ChatPlan */

/** @param {Record<string, unknown>} body */
const offersCode = (body) =>
  (Array.isArray(body.tools) ? body.tools : []).some(
    (tool) => isRecord(tool) && ('codeExecution' in tool || 'code_execution' in tool),
  );

/** @param {Record<string, unknown>} body */
function configOf(body) {
  const config = body.generationConfig ?? body.generation_config;
  return isRecord(config) ? config : {};
}

/** Whether a model draws images. @param {string} model */
export const isImageModel = (model) => /^gemini-.*-image/.test(model);

/** @param {Record<string, unknown>} body */
function asksForImages(body) {
  const modalities = configOf(body).responseModalities ?? configOf(body).response_modalities;
  return (
    Array.isArray(modalities) && modalities.some((modality) => String(modality).toUpperCase() === 'IMAGE')
  );
}

/**
 * The parts before the text of a code turn, and the text, under a code scenario when the request
 * offers code execution.
 * @param {ChatPlan} plan
 */
export function geminiCodeTurn(plan) {
  if (!runsCode(plan.scenario) || !offersCode(plan.body)) return undefined;
  const run = codeRun(plan.scenario);
  /** @type {Record<string, unknown>[]} */
  const parts = [
    { executableCode: { language: 'PYTHON', code: run.code } },
    { codeExecutionResult: { outcome: run.failed ? 'OUTCOME_FAILED' : 'OUTCOME_OK', output: run.output } },
    ...(run.failed ? [] : [{ inlineData: { mimeType: 'image/png', data: plotBase64 } }]),
  ];
  return { before: parts, after: [], text: run.answer, counted: `${run.code}${run.output}` };
}

/** Width and height for an aspect ratio, 64 px on the short side. @param {unknown} ratio */
function sizeOf(ratio) {
  const match = /^(\d+):(\d+)$/.exec(String(ratio ?? '1:1'));
  const wide = Number(match?.[1] ?? 1);
  const high = Number(match?.[2] ?? 1);
  if (!wide || !high) return { width: 64, height: 64 };
  return wide >= high
    ? { width: Math.round((64 * wide) / high), height: 64 }
    : { width: 64, height: Math.round((64 * high) / wide) };
}

/**
 * The text and image parts under the image scenario, for an image model asked for images.
 * @param {ChatPlan} plan
 */
export function geminiImageTurn(plan) {
  if (!drawsImages(plan.scenario) || !isImageModel(plan.model) || !asksForImages(plan.body)) return undefined;
  const config = configOf(plan.body).imageConfig ?? configOf(plan.body).image_config;
  const { width, height } = sizeOf(
    isRecord(config) ? (config.aspectRatio ?? config.aspect_ratio) : undefined,
  );
  const data = squaresPng(width, height).toString('base64');
  const signed = /^gemini-3/.test(plan.model);
  /** @param {string} what */
  const signature = (what) => (signed ? { thoughtSignature: thoughtSignature(plan.model, what) } : {});
  return {
    before: [],
    // The text goes first, then the picture.
    textSignature: signature(imageAnswer),
    after: [{ inlineData: { mimeType: 'image/png', data }, ...signature(data) }],
    text: imageAnswer,
    counted: '',
  };
}
