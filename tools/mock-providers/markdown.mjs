// @ts-check
/** Deterministic markdown replies of a chosen length, for rendering tests and the benchmark. */

import { tokenize } from './tokens.mjs';

/** @param {number} lines @param {number} seed */
function typescriptBlock(lines, seed) {
  const out = [`interface Record${seed} {`, '  id: string;', '  score: number;', '}', ''];
  out.push(`export function rank${seed}(records: Record${seed}[]): Record${seed}[] {`);
  for (let i = 0; out.length < lines - 2; i += 1) {
    out.push(
      `  const step${i} = records.filter((r) => r.score > ${i * 3}).map((r) => ({ ...r, score: r.score - ${i} }));`,
    );
    out.push(`  if (step${i}.length === 0) return records; // \`step${i}\` is empty`);
  }
  out.push('  return [...records].sort((a, b) => b.score - a.score);', '}');
  return out;
}

/** @param {number} lines @param {number} seed */
function pythonBlock(lines, seed) {
  const out = [
    'from dataclasses import dataclass',
    '',
    '',
    '@dataclass',
    `class Point${seed}:`,
    '    x: float',
    '    y: float',
    '',
  ];
  out.push(
    `def walk_${seed}(points: list[Point${seed}]) -> float:`,
    '    """Sum of the distances between neighbours."""',
    '    total = 0.0',
  );
  for (let i = 0; out.length < lines - 1; i += 1) {
    out.push(
      `    for a, b in zip(points[${i}:], points[${i + 1}:]):`,
      `        total += ((a.x - b.x) ** 2 + (a.y - b.y) ** 2) ** 0.5 * ${i + 1}`,
    );
  }
  out.push('    return total');
  return out;
}

/** @param {number} lines @param {number} seed */
function bashBlock(lines, seed) {
  const out = [
    '#!/usr/bin/env bash',
    'set -euo pipefail',
    '',
    `readonly TARGET="build-${seed}"`,
    'mkdir -p "$TARGET"',
  ];
  for (let i = 0; out.length < lines - 1; i += 1) {
    out.push(
      `if [[ -f "src/part-${i}.txt" ]]; then`,
      `  sort -u "src/part-${i}.txt" | grep -v '^#' > "$TARGET/part-${i}.txt"`,
      'fi',
    );
  }
  out.push('echo "done: $(ls "$TARGET" | wc -l) files"');
  return out;
}

/** @param {number} lines @param {number} seed */
function sqlBlock(lines, seed) {
  const out = [
    `-- report ${seed}`,
    'WITH recent AS (',
    '  SELECT user_id, created_at, amount',
    '  FROM orders',
    "  WHERE created_at > now() - interval '30 days'",
    ')',
  ];
  out.push('SELECT');
  for (let i = 0; out.length < lines - 4; i += 1)
    out.push(`  sum(CASE WHEN amount > ${i * 10} THEN 1 ELSE 0 END) AS over_${i * 10},`);
  out.push('  count(*) AS total', 'FROM recent', 'GROUP BY user_id', 'ORDER BY total DESC;');
  return out;
}

/** @param {number} lines @param {number} seed */
function rustBlock(lines, seed) {
  const out = [
    'use std::collections::HashMap;',
    '',
    `pub fn histogram_${seed}(words: &[&str]) -> HashMap<&str, usize> {`,
    '    let mut counts = HashMap::new();',
  ];
  for (let i = 0; out.length < lines - 2; i += 1) {
    out.push(
      `    for word in words.iter().skip(${i}).step_by(${i + 1}) {`,
      '        *counts.entry(*word).or_insert(0) += 1;',
      '    }',
    );
  }
  out.push('    counts', '}');
  return out;
}

/** @param {number} lines @param {number} seed */
function jsonBlock(lines, seed) {
  const out = ['{', `  "name": "example-${seed}",`, '  "items": ['];
  for (let i = 0; out.length < lines - 3; i += 1)
    out.push(`    { "id": ${i}, "label": "item ${i}", "enabled": ${i % 2 === 0} },`);
  out.push('    { "id": -1, "label": "last", "enabled": false }', '  ]', '}');
  return out;
}

const languages = [
  ['typescript', typescriptBlock],
  ['python', pythonBlock],
  ['bash', bashBlock],
  ['sql', sqlBlock],
  ['rust', rustBlock],
  ['json', jsonBlock],
];

/** @param {number} index */
function section(index) {
  const [language, block] = /** @type {[string, (lines: number, seed: number) => string[]]} */ (
    languages[index % languages.length]
  );
  const lines = 30 + ((index * 17) % 51);
  return [
    `## ${index + 1}. Working with ${language}`,
    '',
    `This section shows a **${language}** example with \`${lines}\` lines. Call \`run_${index}()\` once, then check the *output* below.`,
    '',
    '- Read the input and validate it',
    `- Transform it with \`step_${index}\``,
    '  - nested detail: keep the order stable',
    '  - nested detail: avoid quadratic loops',
    '- Write the result',
    '',
    '1. Install the tools',
    '2. Run the example',
    '3. Compare with the table',
    '',
    '| Step | Input | Output | Time (ms) |',
    '| --- | --- | --- | ---: |',
    `| parse | \`data-${index}.txt\` | records | ${12 + index} |`,
    `| rank | records | sorted | ${40 + index * 2} |`,
    `| write | sorted | \`out-${index}.json\` | ${7 + index} |`,
    '',
    '```' + language,
    ...block(lines, index),
    '```',
    '',
    `> Note: section ${index + 1} keeps its examples small. See [the docs](https://example.com/docs/${index}).`,
    '',
  ].join('\n');
}

/**
 * A markdown reply of at least `tokenCount` tokens (as the mock streams them): headings, lists, a
 * table, inline code and fenced code blocks of 30 to 80 lines in several languages.
 * @param {number} tokenCount
 * @returns {string}
 */
export function markdownReply(tokenCount) {
  return `${markdownSections(tokenCount)}That is all.\n`;
}

/**
 * A reply with 20 formulas in the four ways models write them and two Mermaid diagrams, ending
 * as the long replies do (the bench waits for that sentence).
 * @returns {string}
 */
export function richReply(filler = 0) {
  const formulas = [];
  for (let n = 1; n <= 5; n += 1) {
    formulas.push(
      `- Inline ${n}: $\\sum_{k=1}^{${n}} k = \\frac{${n}(${n}+1)}{2}$ and \\(x_${n}^2 + y_${n}^2 = r^2\\).`,
      '',
      '$$',
      `\\int_0^{${n}} t^${n}\\,dt = \\frac{${n}^{${n + 1}}}{${n + 1}}`,
      '$$',
      '',
      '\\[',
      `e^{i\\pi ${n}} = (-1)^{${n}}`,
      '\\]',
      '',
    );
  }
  const diagram = (/** @type {string} */ name) => [
    '```mermaid',
    'graph TD',
    `  A[${name} start] --> B{Check}`,
    '  B -->|yes| C[Done]',
    '  B -->|no| A',
    '```',
    '',
  ];
  return [
    '# Math and diagrams',
    '',
    ...formulas.slice(0, 20),
    ...diagram('First'),
    ...formulas.slice(20),
    ...diagram('Second'),
    'A price is not a formula: $5 and $10.',
    '',
    ...(filler > 0 ? [markdownSections(filler)] : []),
    'That is all.',
    '',
  ].join('\n');
}

/**
 * Long markdown reasoning of at least `tokenCount` tokens, not ending as a reply does (the bench
 * waits for the reply's last sentence).
 * @param {number} tokenCount
 */
export function markdownReasoning(tokenCount) {
  return `${markdownSections(tokenCount)}Now to write the answer.\n`;
}

/** @param {number} tokenCount */
function markdownSections(tokenCount) {
  let text =
    '# Markdown reply\n\nA long reply with **bold**, _italic_, `inline code` and several code blocks.\n\n';
  for (let index = 0; tokenize(text).length < tokenCount; index += 1) text += section(index);
  return text;
}
