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
 */

import { crc32, deflateSync } from 'node:zlib';

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
export const drawsImages = (scenario) => scenario === 'image';

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

const colours = [
  [0xe1, 0x1d, 0x48],
  [0x25, 0x63, 0xeb],
  [0x16, 0xa3, 0x4a],
  [0xf5, 0x9e, 0x0b],
];

/** @param {string} type @param {Buffer} data */
function pngChunk(type, data) {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

/**
 * A real PNG (8-bit RGB, no interlace), built byte by byte: four coloured quadrants, red, blue,
 * green, amber (top left, top right, bottom left, bottom right); rows from `drawnRows` on are
 * left black.
 */
export function squaresPng(width = 64, height = width, drawnRows = height) {
  const raw = Buffer.alloc(height * (1 + width * 3));
  for (let y = 0; y < drawnRows; y++) {
    const row = y * (1 + width * 3); // filter type 0 (none)
    for (let x = 0; x < width; x++) {
      const colour = colours[(y < height / 2 ? 0 : 2) + (x < width / 2 ? 0 : 1)] ?? [0, 0, 0];
      raw.set(colour, row + 1 + x * 3);
    }
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', deflateSync(raw)),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/** The plot of the code scenario, base64. */
export const plotBase64 = squaresPng().toString('base64');

/**
 * A partial image of OpenAI's streamed generation: the picture with only its top rows drawn (the
 * rest black), more of it with each index, base64.
 * @param {number} index 0-based, of `count`
 * @param {number} count
 */
export const partialPngBase64 = (index, count) =>
  squaresPng(64, 64, Math.round(((index + 1) * 64) / (count + 1))).toString('base64');
