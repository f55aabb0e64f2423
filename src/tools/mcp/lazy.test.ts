import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

/**
 * What the app imports at start (index.ts and what it imports) must not pull in the MCP SDK:
 * it is loaded with connection.ts, the first time a server is used. (The build check: the SDK is
 * in a lazy chunk of its own.)
 */

/** The modules `file` imports for their values (type-only imports are erased). */
function valueImports(file: string): string[] {
  const source = readFileSync(new URL(file, import.meta.url), 'utf8');
  return [...source.matchAll(/^(?:import|export)\s+(?!type\b)[^;]*?from\s+'([^']+)'/gms)].map(
    (match) => match[1] ?? '',
  );
}

describe('the first-load part of the MCP client', () => {
  it('imports neither the SDK nor connection.ts', () => {
    const seen = new Set<string>();
    const queue = ['./index.ts'];
    for (let file = queue.shift(); file; file = queue.shift()) {
      if (seen.has(file)) continue;
      seen.add(file);
      for (const target of valueImports(file)) {
        expect(target, `${file} imports ${target}`).not.toMatch(
          /@modelcontextprotocol|connection|oauth|failure|results/,
        );
        if (target.startsWith('./')) queue.push(target);
      }
    }
    expect([...seen].sort()).toEqual(['./index.ts', './popup.ts']);
    expect(readFileSync(new URL('./index.ts', import.meta.url), 'utf8')).toContain(
      "import('./connection.ts')",
    );
  });
});
