import { sentImageTypes } from './attachments.ts';
import { fenced } from './markdown-fences.ts';

/**
 * The providers' own code execution: a program the provider ran on its servers while answering
 * (OpenAI's code interpreter, Anthropic's code execution tool, Gemini's codeExecution, Groq's
 * compound models), kept where it came in the reply with what it printed and produced. Shown as a
 * card; never sent back to the provider that ran it (its own answer says what it found), and
 * written out as text for another provider.
 */

/** A file a run produced (a plot, a CSV): its bytes live in the file store, as an attachment's do. */
export interface ProducedFile {
  /** Key of the bytes in the file store. */
  id: string;
  name: string;
  mimeType: string;
  size: number;
}

export interface CodeRunPart {
  type: 'code-run';
  /** The provider's id for the run (unique within the reply). */
  id: string;
  /** As the provider names it, lower case: 'python', 'bash', 'text' (a file written). */
  language: string;
  code: string;
  /** What it printed: stdout, logs, a result. */
  output: string;
  /** Kept apart where the API keeps it apart (Anthropic). */
  stderr?: string;
  /** Set when the run did not succeed: why, in one short phrase. */
  failed?: string;
  /** Still running, while the reply streams; never stored. */
  running?: true;
  files: ProducedFile[];
}

/** Bounds on what a reply keeps of its runs (what a provider or an imported file sends is hostile). */
export const codeRunLimits = {
  runs: 100,
  code: 200_000,
  output: 200_000,
  failed: 200,
  language: 32,
  files: 20,
  name: 200,
  /** One produced file's bytes. */
  fileBytes: 20 * 1024 * 1024,
} as const;

/** A file shown as a picture: only the raster types the app shows (never SVG, which can carry script). */
export const isShownImage = (mimeType: string) => sentImageTypes.includes(mimeType);

/** A file's name as kept: no folders, no control characters, bounded; 'file' when nothing is left. */
export function keptFileName(name: string): string {
  const base = name.split(/[\\/]/).at(-1) ?? '';
  const clean = [...base]
    .filter((char) => char >= ' ' && char !== '\u007f')
    .join('')
    .trim()
    .slice(0, codeRunLimits.name);
  return clean === '' || clean === '.' || clean === '..' ? 'file' : clean;
}

/** A run written out as text: what another provider reads, and what an export's Markdown shows. */
export function codeRunText(run: CodeRunPart): string {
  const lines = [
    `[Ran ${run.language} code${run.failed ? ` (failed: ${run.failed})` : ''}:`,
    fenced(run.code, run.language),
  ];
  if (run.output !== '') lines.push('Output:', fenced(run.output, ''));
  if (run.stderr) lines.push('Errors:', fenced(run.stderr, ''));
  if (run.files.length > 0) lines.push(`Files: ${run.files.map((file) => file.name).join(', ')}`);
  return `${lines.join('\n')}]`;
}
