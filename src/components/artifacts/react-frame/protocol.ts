/**
 * The messages between the app and the React artifact frame (`artifact.html`, built by
 * tools/artifact-frame/plugin.ts). Both sides import this file and both check what they receive:
 * the frame reads only render requests from its parent, the app reads only well-formed answers
 * from its own frame. The frame runs code a model wrote, so whatever it sends is untrusted: a
 * component can post messages of its own through the same window. Nothing here is ever treated
 * as markup or code on the app's side, only as text and numbers, and every size is bounded.
 * No DOM, no React: the frame's bundle and the node tests both load it.
 */

/** The modules a component may import in the frame, all bundled into it. */
export const artifactModules = [
  'react',
  'react-dom',
  'react-dom/client',
  'lucide-react',
  'recharts',
] as const;

export type ArtifactLanguage = 'tsx' | 'jsx';
export type ArtifactTheme = 'light' | 'dark';
/** Where a failure happened: reading the code, resolving an import, or running it. */
export type ArtifactErrorPhase = 'transpile' | 'import' | 'runtime';

/** App to frame. `id` is echoed in every answer about this render; the frame accepts it without. */
export interface RenderRequest {
  type: 'render';
  code: string;
  language: ArtifactLanguage;
  theme: ArtifactTheme;
  id?: number;
}

/** Frame to app. */
export type FrameMessage =
  /** The frame has loaded and can render; sent again if it ever reloads. */
  | { type: 'ready' }
  /** The render's first paint: the content's height in CSS pixels. */
  | { type: 'rendered'; height: number; id?: number }
  /** The content's height changed after the first paint (state, layout, a chart sizing itself). */
  | { type: 'resized'; height: number; id?: number }
  /** `line` and `column` are 1-based, in the source the app sent, when they are known. */
  | {
      type: 'error';
      message: string;
      phase: ArtifactErrorPhase;
      line?: number;
      column?: number;
      id?: number;
    };

export const artifactLimits = {
  /** Characters of source a render request may carry (a long component is 20 000). */
  code: 1_000_000,
  /** Characters of an error message; the frame cuts longer ones to this. */
  message: 4_000,
  /** CSS pixels of height; the frame reports at most this. */
  height: 100_000,
  /** Lines of source, for the line and column of an error. */
  line: 1_000_000,
} as const;

type Fields = Record<string, unknown>;

function isRecord(value: unknown): value is Fields {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Only the named keys: a message with anything else is not one of ours. */
function hasOnly(record: Fields, keys: readonly string[]): boolean {
  return Object.keys(record).every((key) => keys.includes(key));
}

function isOptionalId(value: unknown): boolean {
  return value === undefined || (Number.isSafeInteger(value) && (value as number) >= 0);
}

function isOptionalPosition(value: unknown): boolean {
  return (
    value === undefined ||
    (Number.isSafeInteger(value) && (value as number) >= 1 && (value as number) <= artifactLimits.line)
  );
}

function isHeight(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 && value <= artifactLimits.height;
}

const phases: readonly string[] = ['transpile', 'import', 'runtime'] satisfies ArtifactErrorPhase[];

/** What the frame sent, if it is exactly one of the messages above; otherwise undefined. */
export function parseFrameMessage(data: unknown): FrameMessage | undefined {
  if (!isRecord(data) || typeof data.type !== 'string') return undefined;
  switch (data.type) {
    case 'ready':
      return hasOnly(data, ['type']) ? { type: 'ready' } : undefined;
    case 'rendered':
    case 'resized': {
      if (!hasOnly(data, ['type', 'height', 'id']) || !isHeight(data.height) || !isOptionalId(data.id))
        return undefined;
      const message = { type: data.type, height: data.height } as const;
      return data.id === undefined ? message : { ...message, id: data.id as number };
    }
    case 'error': {
      const { message, phase, line, column, id } = data;
      if (
        !hasOnly(data, ['type', 'message', 'phase', 'line', 'column', 'id']) ||
        typeof message !== 'string' ||
        message.length > artifactLimits.message ||
        typeof phase !== 'string' ||
        !phases.includes(phase) ||
        !isOptionalPosition(line) ||
        !isOptionalPosition(column) ||
        !isOptionalId(id)
      )
        return undefined;
      return {
        type: 'error',
        message,
        phase: phase as ArtifactErrorPhase,
        ...(line === undefined ? {} : { line: line as number }),
        ...(column === undefined ? {} : { column: column as number }),
        ...(id === undefined ? {} : { id: id as number }),
      };
    }
    default:
      return undefined;
  }
}

/** The render request the app sent, if it is exactly that; otherwise undefined. */
export function parseRenderRequest(data: unknown): RenderRequest | undefined {
  if (!isRecord(data) || data.type !== 'render') return undefined;
  const { code, language, theme, id } = data;
  if (
    !hasOnly(data, ['type', 'code', 'language', 'theme', 'id']) ||
    typeof code !== 'string' ||
    code.length > artifactLimits.code ||
    (language !== 'tsx' && language !== 'jsx') ||
    (theme !== 'light' && theme !== 'dark') ||
    !isOptionalId(id)
  )
    return undefined;
  return { type: 'render', code, language, theme, ...(id === undefined ? {} : { id: id as number }) };
}
