import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { termMatcher } from '../search/search-text.ts';

/**
 * Model replies, imports, attachments and pasted text are hostile input, and a regex that
 * backtracks super-linearly on one freezes the page. So every regex of the app is timed on classic
 * ReDoS shapes, prefix + pump × 64,000 + suffix, made of its own characters: a linear regex takes
 * under 10 ms there, the quadratic ones this test found took 1.2 to 4.3 s, and the bound sits
 * between, far from both.
 */

const srcDir = fileURLToPath(new URL('..', import.meta.url));
const repeats = 64_000;
/** Long pumps are repeated less, to keep the test fast. */
const maxTextLength = 512_000;
const boundMs = 200;

interface Subject {
  where: string;
  regex: RegExp;
  /** Run to the end, match after match: a /g or /y regex, or a split separator. */
  repeated: boolean;
}

/** The regexes the app builds at run time, by file, from typical values (the first test keeps the list whole). */
const built: Readonly<Record<string, readonly RegExp[]>> = {
  // `^ {0,${indent.length}}`, an indent of 0 to 3 spaces.
  'components/chat/markdown/split-blocks.ts': [/^ {0,3}/],
  // The same, for the fences artifacts are read from.
  'lib/code-fences.ts': [/^ {0,3}/],
  // A typed word, escaped, after a word start.
  'lib/fuzzy-match.ts': [/(^|[\s\-_:/.(])con\.v/],
  // A body field the provider may refuse.
  'providers/parameter-retry.ts': [/(^|[^a-z_])max_tokens([^a-z_]|$)/],
  'search/search-text.ts': [termMatcher(new Set(['conv', 'conversation', 'a', 'é']))],
};

function sourceFiles(): string[] {
  return readdirSync(srcDir, { recursive: true, encoding: 'utf8' })
    .map((path) => path.replaceAll('\\', '/'))
    .filter((path) => /\.tsx?$/.test(path) && !/\.test\.tsx?$|__fixtures__/.test(path))
    .sort();
}

/** Every regex literal of the app's sources, and how many regexes each file builds with RegExp(). */
function scan(): { literals: Subject[]; constructed: Map<string, number> } {
  const literals: Subject[] = [];
  const constructed = new Map<string, number>();
  for (const path of sourceFiles()) {
    const file = ts.createSourceFile(path, readFileSync(srcDir + path, 'utf8'), ts.ScriptTarget.Latest, true);
    const visit = (node: ts.Node): void => {
      if (ts.isRegularExpressionLiteral(node)) {
        const slash = node.text.lastIndexOf('/');
        const flags = node.text.slice(slash + 1);
        const { parent } = node;
        const splits =
          ts.isCallExpression(parent) &&
          ts.isPropertyAccessExpression(parent.expression) &&
          parent.expression.name.text === 'split';
        const line = file.getLineAndCharacterOfPosition(node.getStart()).line + 1;
        literals.push({
          where: `${path}:${line} ${node.text}`,
          regex: new RegExp(node.text.slice(1, slash), flags),
          repeated: /[gy]/.test(flags) || splits,
        });
      }
      if (
        (ts.isNewExpression(node) || ts.isCallExpression(node)) &&
        ts.isIdentifier(node.expression) &&
        node.expression.text === 'RegExp'
      )
        constructed.set(path, (constructed.get(path) ?? 0) + 1);
      ts.forEachChild(node, visit);
    };
    visit(file);
  }
  return { literals, constructed };
}

const { literals, constructed } = scan();
const subjects: Subject[] = [
  ...literals,
  ...Object.entries(built).flatMap(([path, regexes]) =>
    regexes.map((regex) => ({ where: `${path} (built) ${regex}`, regex, repeated: regex.global })),
  ),
];

/** What a pathological input is made of: the regex's characters and literal runs, and common ones. */
function pieces(regex: RegExp): string[] {
  const source = regex.source;
  const literalRuns = source
    .replace(/\(\?(?:[:=!]|<[=!])/g, '(')
    .split(/\\[dDsSwWbBpPnrtfv]|[[\](){}|*+?^$.]/)
    .map((run) => run.replace(/\\(.)/g, '$1'))
    .filter((run) => run.length > 1);
  return [...new Set([...source, ' ', '\t', '\n', 'a', '0', ...literalRuns])];
}

function run(subject: Subject, text: string): void {
  const { regex } = subject;
  if (!subject.repeated) {
    regex.test(text);
    return;
  }
  // Replacing every match searches as matchAll does, without building each match.
  text.replace(new RegExp(regex.source, regex.global ? regex.flags : `${regex.flags}g`), '');
}

/**
 * The fastest of up to three runs, in ms: a linear regex that met a pause of the machine (a busy
 * shared runner, a garbage collection) is not failed for it; a super-linear one is slow every time.
 */
function fastest(subject: Subject, text: string): number {
  let best = Infinity;
  for (let attempt = 0; attempt < 3 && best > boundMs; attempt++) {
    const start = performance.now();
    run(subject, text);
    best = Math.min(best, performance.now() - start);
  }
  return best;
}

/** A character in no regex: put last, it makes the match fail after the pumped part. */
const stranger = '\u0001';

function expectLinear(subject: Subject, prefix: string, pump: string, suffix: string): void {
  const text = prefix + pump.repeat(Math.min(repeats, Math.ceil(maxTextLength / pump.length))) + suffix;
  const shape = `${JSON.stringify(prefix)} + ${JSON.stringify(pump)} × n + ${JSON.stringify(suffix)}`;
  expect(fastest(subject, text), shape).toBeLessThan(boundMs);
}

describe('regular expressions on hostile input', () => {
  it('finds the regexes of the sources, and every regex built at run time is listed above', () => {
    expect(literals.length).toBeGreaterThan(50);
    expect(Object.fromEntries(constructed)).toEqual(
      Object.fromEntries(Object.entries(built).map(([path, regexes]) => [path, regexes.length])),
    );
  });

  it.each(subjects.map((subject) => [subject.where, subject] as const))('stays linear: %s', (_, subject) => {
    const parts = pieces(subject.regex);
    // Each piece pumped alone, at the start and after other text: the classic shapes, every time.
    for (const pump of parts)
      for (const prefix of ['', stranger]) expectLinear(subject, prefix, pump, stranger);
    // Then random mixes of them.
    const mix = (minLength: number, maxLength: number, extra: string[] = []) =>
      fc
        .array(fc.constantFrom(...parts, ...extra), { minLength, maxLength })
        .map((chosen) => chosen.join(''));
    fc.assert(
      fc.property(mix(0, 3), mix(1, 3), mix(0, 2, [stranger]), (prefix, pump, suffix) =>
        expectLinear(subject, prefix, pump, suffix),
      ),
      // Shrinking would time many more slow runs: the failing shape is reported as found.
      { numRuns: 15, endOnFailure: true },
    );
  });
});
