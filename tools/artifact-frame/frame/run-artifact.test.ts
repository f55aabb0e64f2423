import { describe, expect, it } from 'vitest';
import {
  chooseComponent,
  declaredNames,
  describeError,
  evaluate,
  ImportNotAvailable,
  isComponent,
  lineOffset,
  positionIn,
  renderOfError,
  transpile,
} from './run-artifact.ts';

const fakeReact = {
  createElement: (type: unknown, props: unknown, ...children: unknown[]) => ({
    $$typeof: Symbol.for('react.transitional.element'),
    type,
    props: { ...(props as object), children },
  }),
  Fragment: Symbol('Fragment'),
  useState: (value: unknown) => [value, () => undefined],
};
const modules = { react: fakeReact, 'lucide-react': { Check: () => null } };
const offset = lineOffset();

/** Transpiles and runs `source` as the frame does; returns what it threw, or its evaluation. */
function run(source: string, language: 'tsx' | 'jsx' = 'tsx', sourceName = 'artifact-1.tsx') {
  const transpiled = transpile(source, language);
  if ('error' in transpiled) throw new Error(`did not transpile: ${transpiled.error.message}`);
  const names = declaredNames(source);
  try {
    return { evaluated: evaluate({ code: transpiled.code, names, sourceName, modules, react: fakeReact }) };
  } catch (error) {
    return { thrown: error };
  }
}

describe('the engine the tests run on', () => {
  it('has a measurable line offset for new Function', () => {
    expect(offset).toBe(2);
  });
});

describe('transpile', () => {
  it('keeps every line where it was, through types, JSX and imports', () => {
    const source = [
      "import React, { useState } from 'react';",
      "import type { FC } from 'react';",
      "import { Check } from 'lucide-react';",
      'interface Props {',
      '  label: string;',
      '}',
      'export default function App({ label }: Props) {',
      '  const [count, setCount] = useState<number>(0);',
      '  return (',
      '    <div className="p-4" onClick={() => setCount(count + 1)}>',
      '      <Check /> {label} {count}',
      '    </div>',
      '  );',
      '}',
    ].join('\n');
    const result = transpile(source, 'tsx');
    expect('code' in result).toBe(true);
    if (!('code' in result)) return;
    const lines = result.code.split('\n');
    expect(lines).toHaveLength(14);
    expect(lines[6]).toContain('function App(');
    expect(lines[7]).toContain('useState');
    expect(lines[9]).toContain("'div'");
    expect(lines[10]).toContain('Check');
  });

  it('places a syntax error at its line and column, without them in the message', () => {
    const result = transpile('const a = 1;\nconst b = 2;\nconst c = <div>;\n', 'tsx');
    expect(result).toEqual({
      error: { phase: 'transpile', message: 'SyntaxError: Unexpected token', line: 3, column: 17 },
    });
  });

  it('reads JSX without types as JSX, and refuses types there', () => {
    expect('code' in transpile('const a = <b />;', 'jsx')).toBe(true);
    const typed = transpile('\nconst a: number = 1;', 'jsx');
    expect('error' in typed && typed.error.line).toBe(2);
  });
});

describe('running an artifact', () => {
  it('reports a missing module with the line of its import', () => {
    const { thrown } = run(
      "import { useState } from 'react';\n\nimport _ from 'lodash';\nexport default () => _.x;",
    );
    expect(thrown).toBeInstanceOf(ImportNotAvailable);
    expect(describeError(thrown)).toBe(
      'Cannot import "lodash": only react, react-dom, lucide-react and recharts are available here.',
    );
    expect(positionIn(thrown, 'artifact-1.tsx', offset)).toEqual({ line: 3 });
  });

  it('drops an import used only as a type, as TypeScript does', () => {
    const { evaluated } = run("import { Thing } from 'some-types';\nexport default (p: Thing) => null;");
    expect(evaluated && isComponent(evaluated.exports.default)).toBe(true);
  });

  it('places an error thrown by the module at its line in the source', () => {
    const source = [
      'type P = { n: number };', // 1
      'const helper = (p: P) => {', // 2
      "  if (p.n > 1) throw new Error('too big');", // 3
      '  return p.n;', // 4
      '};', // 5
      'helper({ n: 2 });', // 6
    ].join('\n');
    const { thrown } = run(source);
    expect(describeError(thrown)).toBe('Error: too big');
    expect(positionIn(thrown, 'artifact-1.tsx', offset)).toEqual({ line: 3 });
  });

  it('places an error in a component called later at its line', () => {
    const source = [
      "import { useState } from 'react';",
      '',
      'export default function Broken() {',
      '  const [items] = useState<string[] | null>(null);',
      '  return <ul>{items!.map((item) => <li>{item}</li>)}</ul>;',
      '}',
    ].join('\n');
    const { evaluated } = run(source);
    const component = evaluated?.exports.default as () => unknown;
    let thrown: unknown;
    try {
      component();
    } catch (error) {
      thrown = error;
    }
    expect(describeError(thrown)).toMatch(/^TypeError: /);
    expect(positionIn(thrown, 'artifact-1.tsx', offset)).toEqual({ line: 5 });
    expect(renderOfError(thrown)).toBe(1);
  });

  it('tells one render from another by the source name', () => {
    const { thrown } = run('throw new Error("x");', 'jsx', 'artifact-12.jsx');
    expect(renderOfError(thrown)).toBe(12);
    expect(positionIn(thrown, 'artifact-1.jsx', offset)).toBeUndefined();
    expect(positionIn(thrown, 'artifact-12.jsx', offset)).toEqual({ line: 1 });
  });

  it('has no line for an error thrown outside the artifact, or anything not an Error', () => {
    expect(positionIn(new Error('elsewhere'), 'artifact-1.tsx', offset)).toBeUndefined();
    expect(positionIn('a string', 'artifact-1.tsx', offset)).toBeUndefined();
    expect(positionIn({ stack: 42 }, 'artifact-1.tsx', offset)).toBeUndefined();
    expect(positionIn(new Error('x'), 'artifact-1.tsx', undefined)).toBeUndefined();
  });

  it('reads a stack in the formats engines write', () => {
    const v8 = { stack: 'Error: x\n    at App (artifact-3.tsx:9:5)\n    at renderWithHooks (frame.js:1:2)' };
    const gecko = { stack: 'App@artifact-3.tsx:9:5\nrenderWithHooks@https://host/assets/frame.js:1:2' };
    const longer = { stack: 'Error: x\n    at App (artifact-13.tsx:4:5)\n    at f (artifact-3.tsx:9:5)' };
    expect(positionIn(v8, 'artifact-3.tsx', 2)).toEqual({ line: 7 });
    expect(positionIn(gecko, 'artifact-3.tsx', 2)).toEqual({ line: 7 });
    // artifact-13 is not artifact-3: the frame below it is.
    expect(positionIn(longer, 'artifact-3.tsx', 2)).toEqual({ line: 7 });
    expect(renderOfError(longer)).toBe(13);
  });

  it('describes whatever is thrown in one line', () => {
    expect(describeError(new TypeError('bad'))).toBe('TypeError: bad');
    expect(describeError('plain')).toBe('plain');
    expect(describeError(42)).toBe('Uncaught 42');
    const hostile = {
      toString() {
        throw new Error('no');
      },
    };
    expect(describeError(hostile)).toBe('Uncaught error');
  });
});

describe('choosing the component', () => {
  it('takes the default export', () => {
    const { evaluated } = run('export function Other() {}\nexport default function App() {}');
    expect(evaluated && chooseComponent(evaluated)).toMatchObject({ name: 'default' });
  });

  it('takes a default export that is an element', () => {
    const { evaluated } = run('function App() { return null }\nexport default <App />;');
    expect(evaluated && chooseComponent(evaluated)).toHaveProperty('element');
  });

  it('else the last capitalised named export that is a component', () => {
    const { evaluated } = run(
      'export function First() {}\nexport const Second = () => null;\nexport const COLORS = [];\nexport function useThing() {}',
    );
    expect(evaluated && chooseComponent(evaluated)).toMatchObject({ name: 'Second' });
  });

  it('else the last component declared at the top level', () => {
    const source = [
      'const Card = ({ title }) => <div>{title}</div>;',
      'function Dashboard() { return <Card title="x" /> }',
      'const Theme = { dark: true };',
      'class Widget extends Object {}',
      '  const Nested = () => null;',
    ].join('\n');
    expect(declaredNames(source)).toEqual(['Card', 'Dashboard', 'Theme', 'Widget']);
    const { evaluated } = run(source, 'jsx');
    expect(evaluated && chooseComponent(evaluated)).toMatchObject({ name: 'Widget' });
  });

  it('counts memo and forwardRef objects as components, not other objects', () => {
    expect(isComponent({ $$typeof: Symbol.for('react.memo') })).toBe(true);
    expect(isComponent({ $$typeof: Symbol.for('react.forward_ref') })).toBe(true);
    expect(isComponent({ $$typeof: Symbol.for('react.transitional.element') })).toBe(false);
    expect(isComponent({})).toBe(false);
  });

  it('finds nothing when nothing is a component', () => {
    const { evaluated } = run('export const value = 1;\nconst Data = [1, 2];');
    expect(evaluated && chooseComponent(evaluated)).toBeUndefined();
  });
});
