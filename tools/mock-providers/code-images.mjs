// @ts-check
/**
 * The providers' own code execution and image generation, shared by every API: one fixed program,
 * its fixed output and picture, and one fixed answer, that each API's module writes in its own
 * wire format (gemini-code.mjs, openai-code.mjs, anthropic-code.mjs).
 *
 * Scenarios (the key's name, as for every scenario):
 * - `code`: runs `squaresCode` when the request offers the provider's code tool (Gemini
 *   `tools: [{codeExecution: {}}]`; Responses a `code_interpreter` tool; Claude a
 *   `code_execution_YYYYMMDD` tool); otherwise the plain Echo. The program prints `55\n`, writes
 *   `squares.csv` (`squaresCsv`) and plots `squaresPng()` (64×64: four coloured squares), which
 *   Claude lists as output files (Files API ids). The answer is `codeAnswer`.
 * - `code-failed`: runs `failingCode` instead, which raises: its output is `failingTraceback`
 *   (Gemini `OUTCOME_FAILED`, Claude `return_code` 1 with it on stderr, Responses logs), no file
 *   or picture; the answer is `failedAnswer`.
 * - `code-unavailable`: on Claude the tool itself fails (a result of type
 *   `…_tool_result_error`, error_code `unavailable`) and the answer is `unavailableAnswer`; the
 *   other APIs run the program as under `code`.
 * - `image`: draws when the request asks for an image (a Gemini image model, `gemini-*-image*`,
 *   with `generationConfig.responseModalities` holding `IMAGE`; a Responses `image_generation`
 *   tool); otherwise the plain Echo. The picture is `squaresPng(width, height)`, the text
 *   `imageAnswer`, OpenAI's revised prompt `revisedPrompt`.
 * - `image-slow`: as `image`, the key's first reply at 300 ms per streamed chunk, so OpenAI's
 *   previews can be watched; its later replies (an edit of the picture) at the usual pace.
 */

import { quadrantsPng } from '../png.mjs';

/** The program of the code scenario. */
export const squaresCode = [
  'import matplotlib.pyplot as plt',
  'import pandas as pd',
  '',
  "squares = pd.DataFrame({'n': range(1, 6), 'square': [n * n for n in range(1, 6)]})",
  "squares.to_csv('squares.csv', index=False)",
  "print(squares['square'].sum())",
  "plt.bar(squares['n'], squares['square'])",
  "plt.savefig('squares.png')",
  '',
].join('\n');

/** What it prints. */
export const squaresOutput = '55\n';

/** The file it writes. */
export const squaresCsv = 'n,square\n1,1\n2,4\n3,9\n4,16\n5,25\n';
export const squaresCsvName = 'squares.csv';

/** The answer after it ran. */
export const codeAnswer = 'The sum of the first five squares is 55. I saved the table and plotted it.';

/** The program of the code-failed scenario, and its traceback. */
export const failingCode = 'total = sum(n * n for n in range(1, 6))\nprint(total / 0)\n';
export const failingTraceback = [
  'Traceback (most recent call last):',
  '  File "<string>", line 2, in <module>',
  'ZeroDivisionError: division by zero',
  '',
].join('\n');
export const failedAnswer = 'The code failed: it divided by zero, so there is no result.';

/** The answer of the code-unavailable scenario (Claude: the tool itself failed). */
export const unavailableAnswer = 'Code execution is unavailable right now, so I could not run the program.';

/** The image scenario's text, and OpenAI's revised prompt. */
export const imageAnswer = 'Here is the picture: four coloured squares.';
export const revisedPrompt = 'Four coloured squares, red, blue, green and amber, in a two by two grid.';

/** @param {string} scenario */
export const runsCode = (scenario) =>
  scenario === 'code' || scenario === 'code-failed' || scenario === 'code-unavailable';
/** @param {string} scenario */
export const drawsImages = (scenario) => scenario === 'image' || scenario === 'image-slow';

/** The program, its output and answer for a code scenario. @param {string} scenario */
export function codeRun(scenario) {
  const failed = scenario === 'code-failed';
  return {
    failed,
    code: failed ? failingCode : squaresCode,
    output: failed ? failingTraceback : squaresOutput,
    answer: failed ? failedAnswer : codeAnswer,
  };
}

/** The plot the code scenario draws (the test picture). */
export { quadrantsPng as squaresPng };

/** The plot of the code scenario, base64. */
export const plotBase64 = quadrantsPng().toString('base64');

/**
 * A partial image of OpenAI's streamed generation: the picture with only its top rows drawn (the
 * rest black), more of it with each index, base64.
 * @param {number} index 0-based, of `count`
 * @param {number} count
 */
export const partialPngBase64 = (index, count) =>
  quadrantsPng(64, 64, Math.round(((index + 1) * 64) / (count + 1))).toString('base64');
