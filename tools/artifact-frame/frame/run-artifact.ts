import { transform, type Transform } from 'sucrase';
import type {
  ArtifactErrorPhase,
  ArtifactLanguage,
} from '../../../src/components/artifacts/react-frame/protocol.ts';

/**
 * Turns a model's component source into something to render, with no DOM: transpiling, running
 * the module, choosing its component, and placing an error at its line in the source the model
 * wrote. main.ts does the rendering; the unit tests run this in node.
 *
 * Lines: Sucrase writes each output line from the same input line (it pads with blank lines and
 * puts its preamble on line 1), so a line in the transpiled code is that line of the source. The
 * code runs as the body of `new Function`, named by a `//# sourceURL` comment, so stack frames
 * name it and give its lines, shifted by the function's header; the shift is measured once by
 * `lineOffset`, not assumed.
 */

export interface ArtifactError {
  phase: ArtifactErrorPhase;
  message: string;
  /** 1-based, in the original source. */
  line?: number;
  column?: number;
}

/** The names a component may import, as the import error lists them. */
const availableList = 'react, react-dom, lucide-react and recharts';

/** Thrown by `require` for any module the frame does not bundle. */
export class ImportNotAvailable extends Error {
  constructor(readonly specifier: string) {
    const shown = specifier.length > 100 ? `${specifier.slice(0, 100)}…` : specifier;
    super(`Cannot import "${shown}": only ${availableList} are available here.`);
    this.name = 'ImportError';
  }
}

export function transpile(
  source: string,
  language: ArtifactLanguage,
): { code: string } | { error: ArtifactError } {
  const transforms: Transform[] = language === 'tsx' ? ['jsx', 'typescript', 'imports'] : ['jsx', 'imports'];
  try {
    const { code } = transform(source, {
      transforms,
      // JSX as React.createElement: `React` is always in scope (a parameter), imported or not.
      jsxRuntime: 'classic',
      production: true,
      // The browser runs modern syntax as written: class fields, optional chaining and the like.
      disableESTransforms: true,
    });
    return { code };
  } catch (error) {
    const loc = (error as { loc?: { line?: unknown; column?: unknown } }).loc;
    const line = typeof loc?.line === 'number' ? loc.line : undefined;
    const column = typeof loc?.column === 'number' ? loc.column + 1 : undefined;
    // Sucrase ends its message with the position, which the fields carry instead.
    const message = describeError(error).replace(/\s*\(\d+:\d+\)$/, '');
    return {
      error: { phase: 'transpile', message, ...(line && { line }), ...(line && column && { column }) },
    };
  }
}

const declarations = [
  /^(?:export\s+(?:default\s+)?)?(?:async\s+)?function\s*\*?\s*([A-Z][\w$]*)/,
  /^(?:export\s+(?:default\s+)?)?(?:abstract\s+)?class\s+([A-Z][\w$]*)/,
  /^(?:export\s+)?(?:const|let|var)\s+([A-Z][\w$]*)\b/,
];

/**
 * Capitalised names declared at the start of a line (top level, as models write it), in source
 * order: the candidates for the component when the module exports none. A name that turns out to
 * be no declaration in scope reads as undefined, so a wrong guess costs nothing.
 */
export function declaredNames(source: string): string[] {
  const names: string[] = [];
  for (const line of source.split('\n'))
    for (const pattern of declarations) {
      const name = pattern.exec(line)?.[1];
      if (name && !names.includes(name)) names.push(name);
    }
  return names;
}

export interface Evaluated {
  exports: Record<string, unknown>;
  /** The declared candidates' values after the module ran, by name, in source order. */
  declared: [string, unknown][];
}

/** Makes a function from parameter names and a body: `new Function`, from the page's inline script. */
export type Compile = (parameters: string[], body: string) => (...args: unknown[]) => unknown;

const compileHere: Compile = (parameters, body) =>
  new Function(...parameters, body) as (...args: unknown[]) => unknown;

export interface EvaluateOptions {
  /** Transpiled code. */
  code: string;
  /** From `declaredNames` on the source. */
  names: string[];
  /** Unique per render: stack frames name it (see `positionIn`). */
  sourceName: string;
  modules: Readonly<Record<string, unknown>>;
  react: unknown;
  /** The frame's: see main.ts. */
  compile?: Compile;
}

/** Runs the module; throws what it throws (an `ImportNotAvailable` for a missing module). */
export function evaluate({
  code,
  names,
  sourceName,
  modules,
  react,
  compile = compileHere,
}: EvaluateOptions): Evaluated {
  const module: { exports: Record<string, unknown> } = { exports: {} };
  const declared: [string, unknown][] = [];
  const require = (specifier: unknown) => {
    const name = String(specifier);
    if (Object.hasOwn(modules, name)) return modules[name];
    throw new ImportNotAvailable(name);
  };
  const report = (values: Record<string, unknown>) => {
    for (const name of names) declared.push([name, values[name]]);
  };
  const candidates = names.map((name) => `${name}: typeof ${name} === 'undefined' ? undefined : ${name}`);
  // Appended after the last line, so no line of the source moves.
  const body = `${code}\n;__artifactDeclared__({ ${candidates.join(', ')} });\n//# sourceURL=${sourceName}`;
  const run = compile(['require', 'module', 'exports', 'React', '__artifactDeclared__'], body);
  run(require, module, module.exports, react, report);
  return { exports: module.exports, declared };
}

const componentTypes = new Set([
  Symbol.for('react.memo'),
  Symbol.for('react.forward_ref'),
  Symbol.for('react.lazy'),
]);

export function isComponent(value: unknown): boolean {
  if (typeof value === 'function') return true;
  if (typeof value !== 'object' || value === null) return false;
  return componentTypes.has((value as { $$typeof?: unknown }).$$typeof as symbol);
}

const isElement = (value: unknown) =>
  typeof value === 'object' &&
  value !== null &&
  (value as { $$typeof?: unknown }).$$typeof === Symbol.for('react.transitional.element');

const capitalised = (name: string) => /^[A-Z]/.test(name);

/**
 * What to render: the default export (a component, or an element); else the last capitalised
 * named export that is a component; else the last capitalised top-level declaration that is one.
 */
export function chooseComponent({
  exports,
  declared,
}: Evaluated): { component: unknown; name: string } | { element: unknown } | undefined {
  const fallback = exports.default;
  if (isComponent(fallback)) return { component: fallback, name: 'default' };
  if (isElement(fallback)) return { element: fallback };
  const named = Object.entries(exports).filter(
    ([name, value]) => name !== 'default' && capitalised(name) && isComponent(value),
  );
  const declaredComponents = declared.filter(([, value]) => isComponent(value));
  const [name, component] = named.at(-1) ?? declaredComponents.at(-1) ?? [];
  return name === undefined ? undefined : { component, name };
}

/** A thrown value as one line of text, whatever it is (its getters may throw too). */
export function describeError(error: unknown): string {
  try {
    if (error instanceof ImportNotAvailable) return error.message;
    if (error instanceof Error) return error.message ? `${error.name}: ${error.message}` : error.name;
    if (typeof error === 'string') return error;
    return `Uncaught ${String(error)}`;
  } catch {
    return 'Uncaught error';
  }
}

function stackOf(error: unknown): string {
  try {
    const stack = (error as { stack?: unknown } | null)?.stack;
    return typeof stack === 'string' ? stack : '';
  } catch {
    return '';
  }
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The position, in the original source, of the innermost stack frame in the code named
 * `sourceName`: the line the artifact's code was on when it threw, or called what threw.
 * Undefined when no frame is in that code (an error inside a library the code only configured).
 */
export function positionIn(
  error: unknown,
  sourceName: string,
  offset: number | undefined,
): { line: number } | undefined {
  if (offset === undefined) return undefined;
  const frame = new RegExp(`(?:^|[\\s(@/])${escapeRegExp(sourceName)}:(\\d+):(\\d+)`, 'm').exec(
    stackOf(error),
  );
  if (!frame) return undefined;
  const line = Number(frame[1]) - offset;
  return line >= 1 ? { line } : undefined;
}

/** The number in `artifact-N.tsx` of the innermost artifact frame on the stack, if any. */
export function renderOfError(error: unknown): number | undefined {
  const frame = /(?:^|[\s(@/])artifact-(\d+)\.(?:tsx|jsx):\d+:\d+/m.exec(stackOf(error));
  return frame ? Number(frame[1]) : undefined;
}

/**
 * How many lines this engine's `new Function` puts before the body (2 in V8: the
 * `function anonymous(…` line and the `) {` line): a probe throws on the body's first line.
 */
export function lineOffset(compile: Compile = compileHere): number | undefined {
  const sourceName = 'artifact-probe.js';
  try {
    compile(['a', 'b'], `throw new Error('probe');\n//# sourceURL=${sourceName}`)();
  } catch (error) {
    const frame = new RegExp(`${escapeRegExp(sourceName)}:(\\d+):\\d+`).exec(stackOf(error));
    if (frame) return Number(frame[1]) - 1;
  }
  return undefined;
}
