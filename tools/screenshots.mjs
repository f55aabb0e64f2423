#!/usr/bin/env node
// @ts-check
/* global document, requestAnimationFrame, self */
/**
 * Retakes the README's screenshots from the current build:
 *
 *   npm run screenshots                  (node tools/screenshots.mjs)
 *   node tools/screenshots.mjs --build   rebuild dist/ first even if it looks current
 *   node tools/screenshots.mjs --only=light,models --out=/tmp/shots
 *   node tools/screenshots.mjs --only=voice    just the one shot (any names from the list below)
 *
 * It builds the app (`npx vite build`) when dist/ is missing or older than the sources, serves it
 * with `npx vite preview` and starts the mock provider APIs (tools/mock-providers/cli.mjs), both on
 * 127.0.0.1 and free ports, then drives headless Debian Chromium (CHROMIUM_PATH overrides
 * /usr/bin/chromium) at 1280×800 through the real UI. Every connection points at the mock with the
 * key `attachments.readme`, so the mock answers with what it received. The written conversations
 * are imported through the Import tab, as the e2e tests do, so their text reads like real use;
 * the message with files is sent live. Into docs/ it writes screenshot-
 *   light        a conversation with a markdown reply (code block, table, list) and its figures
 *   dark         the same in the dark theme (the system's, as the browser reports it)
 *   versions     an edited question at version 2 of 2, the pointer over the reply to show its actions
 *   models       the model picker open over the conversation, its model ticked
 *   reasoning    a reply with its thinking opened, and its figures
 *   attachments  a message with an image, a PDF and a text file, and the mock's list of what it got
 *   code-run     a reply that ran a program: its code, output, chart and file (dark theme)
 *   artifact     a React artifact running in the panel beside the chat
 *   projects     a project's settings with its files, over the sidebar's projects
 *   voice        a hands-free talk while it reads the reply aloud ('Speaking…'), in a new
 *                conversation with the mock's OpenAI (key scenario `ok`) at half speed
 * and stops everything it started, also on error or Ctrl+C. The voice shot has a browser of its
 * own whose fake microphone (tools/fake-microphone.mjs) plays espeak-ng speaking the mock's
 * `spokenQuestion`: it needs espeak-ng (`sudo apt-get install espeak-ng`).
 */

import { spawn } from 'node:child_process';
import { chromiumFlags, chromiumPath } from './chromium.mjs';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { chromium } from '@playwright/test';
import { fakeMicrophoneArgs } from './fake-microphone.mjs';
import { spokenQuestion } from './mock-providers/voice.mjs';
import { encodePng } from './png.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const host = '127.0.0.1';
const shots = [
  'light',
  'dark',
  'versions',
  'models',
  'reasoning',
  'attachments',
  'code-run',
  'artifact',
  'projects',
  'voice',
];

const usage = `Usage: node tools/screenshots.mjs [--build] [--only=${shots.join(',')}] [--out=docs]`;
/** @type {{ build: boolean, only: string, out: string }} */
let values;
try {
  ({ values } = parseArgs({
    options: {
      build: { type: 'boolean', default: false },
      only: { type: 'string', default: shots.join(',') },
      out: { type: 'string', default: join(root, 'docs') },
    },
  }));
} catch (error) {
  console.error(`${error instanceof Error ? error.message : String(error)}\n${usage}`);
  process.exit(2);
}
const wanted = new Set(values.only.split(',').map((name) => name.trim()));
for (const name of wanted)
  if (!shots.includes(name)) {
    console.error(`No screenshot named '${name}'.\n${usage}`);
    process.exit(2);
  }

const started = Date.now();
/** @param {string} message */
const progress = (message) =>
  process.stderr.write(
    `[screenshots ${((Date.now() - started) / 1000).toFixed(1).padStart(5)} s] ${message}\n`,
  );

// ---------------------------------------------------------------------------------------------
// Processes: everything started is stopped at the end, also on error, Ctrl+C or a hang.

/** @type {(() => Promise<unknown>)[]} */
const cleanups = [];
let stopping = false;

async function cleanup() {
  while (cleanups.length > 0) {
    const step = cleanups.pop();
    try {
      await step?.();
    } catch (error) {
      progress(`cleanup failed: ${String(error)}`);
    }
  }
}

for (const signal of /** @type {const} */ (['SIGINT', 'SIGTERM'])) {
  process.once(signal, () => {
    progress(`${signal}: stopping`);
    stopping = true;
    void cleanup().finally(() => process.exit(130));
  });
}
setTimeout(() => {
  progress('gave up after 10 minutes');
  void cleanup().finally(() => process.exit(2));
}, 600_000).unref();

/**
 * Runs a command in its own process group, so stopping it stops what it started (npx → vite).
 * @param {string} command @param {string[]} args
 */
function start(command, args) {
  const child = spawn(command, args, { cwd: root, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const keep = (/** @type {Buffer} */ chunk) => {
    output = (output + chunk.toString()).slice(-4000);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const exited = new Promise((resolve) => child.once('exit', resolve));
  return {
    child,
    output: () => output,
    exited,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
      try {
        process.kill(-child.pid, 'SIGTERM');
      } catch {
        return;
      }
      const timer = setTimeout(() => {
        try {
          if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
        } catch {
          // Already gone.
        }
      }, 5000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** Runs a command to its end; fails with its output when it fails. @param {string} command @param {string[]} args */
async function run(command, args) {
  const job = start(command, args);
  cleanups.push(job.stop);
  const code = await job.exited;
  cleanups.splice(cleanups.indexOf(job.stop), 1);
  if (code !== 0) throw new Error(`${command} ${args.join(' ')} failed (${String(code)}):\n${job.output()}`);
}

/** A TCP port that was free a moment ago. @returns {Promise<number>} */
function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, host, () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/**
 * Starts a server and waits until `url` answers.
 * @param {string} name @param {string} command @param {string[]} args @param {string} url
 */
async function serve(name, command, args, url) {
  const job = start(command, args);
  cleanups.push(job.stop);
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (job.child.exitCode !== null) throw new Error(`${name} exited early:\n${job.output()}`);
    try {
      const response = await fetch(url);
      if (response.ok) return;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) throw new Error(`${name} did not answer at ${url}:\n${job.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** The newest modification time under `path` (tests left out), in ms. @param {string} path @returns {number} */
function newest(path) {
  const stat = statSync(path);
  if (!stat.isDirectory()) return /\.test\.tsx?$/.test(path) ? 0 : stat.mtimeMs;
  return Math.max(0, ...readdirSync(path).map((name) => newest(join(path, name))));
}

function buildIsCurrent() {
  const built = join(root, 'dist', 'index.html');
  if (!existsSync(built)) return false;
  const sources = [
    'src',
    'public',
    'tools/service-worker',
    'tools/diagram-frame',
    'index.html',
    'vite.config.ts',
  ]
    .map((path) => join(root, path))
    .filter((path) => existsSync(path));
  return Math.max(...sources.map(newest)) <= statSync(built).mtimeMs;
}

// ---------------------------------------------------------------------------------------------
// The data: a configuration per provider, pointed at the mock, and the written conversations.

const apiKey = 'attachments.readme';

/** @param {string} mockUrl */
function connections(mockUrl) {
  const common = { apiKey, temperature: 0.7, baseUrl: mockUrl };
  return {
    // The newest Claude model the mock lists, so the panel has nothing to warn about.
    claude: { ...common, provider: 'claude', model: 'claude-opus-4-8', maxTokens: 4096 },
    openai: {
      ...common,
      provider: 'openai',
      model: 'gpt-5.5',
      maxTokens: 4096,
      topP: 1,
      frequencyPenalty: 0,
      presencePenalty: 0,
    },
    gemini: {
      ...common,
      provider: 'gemini',
      model: 'gemini-3.8-flash',
      maxTokens: 4096,
      topP: 0.95,
      topK: 40,
    },
  };
}

const minute = 60_000;
const hour = 60 * minute;
const day = 24 * hour;

const debounceReply = `Update a *debounced* copy of the text only once typing pauses, and search on that copy:

\`\`\`tsx
import { useEffect, useState } from 'react';
export function useDebounced<T>(value: T, delay = 300): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), delay);
    return () => clearTimeout(timer);
  }, [value, delay]);
  return debounced;
}
\`\`\`

Then fetch in an effect that depends on \`useDebounced(input)\`.

| Delay | Feels | Requests while typing "react hooks" |
| --- | --- | ---: |
| none | instant | 11 |
| 300 ms | responsive | 1–2 |

- **Cancel stale requests** with an \`AbortController\`.
- Skip the request while the query is empty.`;

const versionOneReply = `A few ideas:

1. **Spoke & Spirit**
2. **The Chain Gang**
3. **Pedal Pushers**`;

const versionTwoReply = `Short, friendly and Dutch enough to make the locals smile:

1. **Zondag Zoef**: *zoef* is the sound of a bike whooshing past.
2. **Canal Cranks**: you will ride along a few.
3. **De Koffiestop**: honest about the best part of the ride.
4. **Utrecht Freewheelers**: relaxed, and it says where you are.
5. **Dom Riders**: after the Dom tower, everyone's meeting point.

*Zondag Zoef* is my pick: it is easy to say, fits on a jersey, and tells people the club rides on Sundays.`;

const sevensReasoning = `**Splitting by position**

Numbers 1 to 100 have at most two digits that can be a 7: the units and the tens (100 has none).

- Units digit 7: 7, 17, 27, …, 97. That is one per ten, so **10**.
- Tens digit 7: 70 to 79, so **10**.

**Checking the overlap**

77 appears in both lists, but it really contains two 7s, so counting it twice is right: the question asks for digits, not numbers. The total is 20 sevens, in 19 different numbers.`;

const sevensReply = `The digit 7 appears **20 times**.

| Position | Numbers | Sevens |
| --- | --- | ---: |
| Units | 7, 17, 27, …, 97 | 10 |
| Tens | 70, 71, …, 79 | 10 |
| **Total** | | **20** |

Only **19 numbers** contain a 7, because 77 has two of them.`;

/**
 * A conversation in the export format: `turns` are [question, answer, answer's fields] in order,
 * the last one `ago` ms before now; `otherMessages` for versions off the shown path.
 * @param {{ id: string, name: string, ago: number, provider: string, model: string, pin?: boolean,
 *   turns: [string, string, Record<string, unknown>?][], extra?: (now: number) => Record<string, unknown> }} spec
 * @param {number} now
 */
function conversation({ id, name, ago, provider, model, pin = false, turns, extra }, now) {
  const last = now - ago;
  const first = last - turns.length * 2 * minute;
  const at = (/** @type {number} */ index) => new Date(first + index * minute).toISOString();
  /** @type {Record<string, unknown>[]} */
  const messages = [
    { id: `${id}-system`, role: 'system', content: 'You are a helpful assistant.', createdAt: at(0) },
  ];
  turns.forEach(([question, answer, fields = {}], index) => {
    messages.push({ id: `${id}-q${index}`, role: 'user', content: question, createdAt: at(2 * index + 1) });
    messages.push({
      id: `${id}-a${index}`,
      role: 'assistant',
      content: answer,
      createdAt: at(2 * index + 2),
      provider,
      model,
      ...fields,
    });
  });
  return {
    id,
    name,
    createdAt: at(0),
    updatedAt: new Date(last).toISOString(),
    activeAt: new Date(last).toISOString(),
    provider,
    ...(pin && { pin: { provider, model } }),
    messages,
    ...extra?.(first),
  };
}

/**
 * The figures of a reply: token counts and timings as a provider reports them.
 * @param {number} inputTokens @param {number} outputTokens @param {number} firstTokenMs @param {number} totalMs
 * @param {{ usage?: Record<string, number>, timing?: Record<string, number> }} [more]
 */
function stats(inputTokens, outputTokens, firstTokenMs, totalMs, more = {}) {
  return {
    stats: { usage: { inputTokens, outputTokens, ...more.usage }, firstTokenMs, totalMs, ...more.timing },
  };
}

/** A bar chart of the squares of 1 to 5, as a program would plot it (white, with blue bars). */
function squaresChart() {
  const [width, height] = [480, 300];
  return encodePng(width, height, (x, y) => {
    const bar = Math.floor((x - 40) / 84);
    const inBar = x >= 40 && bar < 5 && (x - 40) % 84 >= 14 && (x - 40) % 84 < 70;
    const top = height - 30 - ((bar + 1) ** 2 / 25) * (height - 60);
    if (y === height - 30 && x >= 30) return [60, 60, 60];
    return inBar && y >= top && y < height - 30 ? [37, 99, 235] : [255, 255, 255];
  });
}

/** A reply that ran a program: its code, output, chart and table, in the export's `parts`. */
function codeRunReply() {
  const csv = 'n,square\n1,1\n2,4\n3,9\n4,16\n5,25\n';
  const chart = squaresChart();
  return {
    parts: [
      { type: 'text', text: "I'll compute it and plot the squares." },
      {
        type: 'code-run',
        id: 'ci_squares',
        language: 'python',
        code: [
          'import pandas as pd',
          'import matplotlib.pyplot as plt',
          '',
          "squares = pd.DataFrame({'n': range(1, 6), 'square': [n * n for n in range(1, 6)]})",
          "squares.to_csv('squares.csv', index=False)",
          "print(squares['square'].sum())",
          "plt.bar(squares['n'], squares['square'])",
          "plt.savefig('squares.png')",
        ].join('\n'),
        output: '55\n',
        files: [
          {
            id: 'squares-chart',
            name: 'squares.png',
            mimeType: 'image/png',
            size: chart.length,
            data: chart.toString('base64'),
          },
          {
            id: 'squares-csv',
            name: 'squares.csv',
            mimeType: 'text/csv',
            size: csv.length,
            data: Buffer.from(csv).toString('base64'),
          },
        ],
      },
      {
        type: 'text',
        text: 'The sum of the first five squares is **55**. The table is in [squares.csv](sandbox:/mnt/data/squares.csv).',
      },
    ],
    ...stats(52, 118, 900, 6400),
  };
}

/** A small React artifact: a budget with a chart, as a model would write it. */
const budgetTracker = `import { useState } from 'react';
import { Wallet } from 'lucide-react';
import { BarChart, Bar, XAxis, YAxis } from 'recharts';

export default function BudgetTracker() {
  const [items, setItems] = useState([
    { name: 'Flights', amount: 312 },
    { name: 'Hotel', amount: 246 },
    { name: 'Food', amount: 180 },
  ]);
  const total = items.reduce((sum, item) => sum + item.amount, 0);
  return (
    <div className="space-y-4 p-4">
      <h1 className="flex items-center gap-2 text-xl font-semibold">
        <Wallet className="text-indigo-600" /> Lisbon weekend
      </h1>
      <ul className="divide-y rounded-lg border">
        {items.map((item) => (
          <li key={item.name} className="flex justify-between px-3 py-2">
            <span>{item.name}</span>
            <span className="font-mono">{item.amount} EUR</span>
          </li>
        ))}
      </ul>
      <p className="font-semibold">Total: {total} EUR</p>
      <button
        className="rounded bg-indigo-600 px-3 py-1 text-white"
        onClick={() => setItems([...items, { name: 'Museum', amount: 40 }])}
      >
        Add the museum
      </button>
      <BarChart width={320} height={160} data={items}>
        <XAxis dataKey="name" />
        <YAxis />
        <Bar dataKey="amount" fill="#6366f1" />
      </BarChart>
    </div>
  );
}`;

/** Every written conversation, newest first, as an import file. @param {number} now */
function importFile(now) {
  const conversations = [
    conversation(
      {
        id: 'budget',
        name: 'Trip budget tracker',
        ago: 3 * day,
        provider: 'claude',
        model: 'claude-opus-4-8',
        pin: true,
        turns: [
          [
            'Make me a small budget tracker for the Lisbon weekend, with a chart.',
            'Here is a budget tracker you can add items to:\n\n```tsx title="Budget tracker"\n' +
              budgetTracker +
              '\n```\n\nThe chart updates as you add items.',
            stats(64, 512, 700, 9800),
          ],
        ],
      },
      now,
    ),
    conversation(
      {
        id: 'squares',
        name: 'Sum of squares',
        ago: 2 * day,
        provider: 'openai',
        model: 'gpt-5.5',
        pin: true,
        turns: [
          [
            'What is the sum of the first five squares? Plot them and save the table.',
            "I'll compute it and plot the squares.\n\nThe sum of the first five squares is **55**. The table is in [squares.csv](sandbox:/mnt/data/squares.csv).",
            codeRunReply(),
          ],
        ],
      },
      now,
    ),
    conversation(
      {
        id: 'debounce',
        name: 'Debounce hook',
        ago: 4 * minute,
        provider: 'claude',
        model: 'claude-opus-4-8',
        turns: [
          [
            "How do I debounce a React search box so it doesn't fetch on every key?",
            debounceReply,
            stats(1_284, 312, 640, 5_900),
          ],
        ],
      },
      now,
    ),
    conversation(
      {
        id: 'club',
        name: 'Cycling club name',
        ago: 38 * minute,
        provider: 'openai',
        model: 'gpt-5.5',
        pin: true,
        turns: [
          [
            'Suggest a name for our Sunday cycling club in Utrecht. Something short and friendly.',
            versionTwoReply,
            stats(46, 168, 710, 4_100),
          ],
        ],
        // The first version of the question and its reply: an edit keeps them beside the new one.
        extra: (first) => ({
          otherMessages: [
            {
              id: 'club-q-old',
              role: 'user',
              content: 'Suggest a name for our cycling club',
              parentId: 'club-system',
              createdAt: new Date(first + 10 * 1000).toISOString(),
            },
            {
              id: 'club-a-old',
              role: 'assistant',
              content: versionOneReply,
              parentId: 'club-q-old',
              createdAt: new Date(first + 20 * 1000).toISOString(),
              provider: 'openai',
              model: 'gpt-5.5',
              ...stats(22, 31, 650, 1_500),
            },
          ],
        }),
      },
      now,
    ),
    conversation(
      {
        id: 'sevens',
        name: 'Counting sevens',
        ago: 2 * hour,
        provider: 'claude',
        model: 'claude-opus-4-8',
        turns: [
          [
            'How many times does the digit 7 appear when you write out the numbers from 1 to 100?',
            sevensReply,
            {
              reasoning: [{ text: sevensReasoning, signature: 'screenshot-signature' }],
              ...stats(58, 418, 820, 9_350, {
                usage: { reasoningTokens: 236 },
                timing: { thinkingMs: 5_600 },
              }),
            },
          ],
        ],
      },
      now,
    ),
    conversation(
      {
        id: 'lisbon',
        name: 'Weekend in Lisbon',
        ago: day + 3 * hour,
        provider: 'gemini',
        model: 'gemini-3.8-flash',
        turns: [['Plan two relaxed days in Lisbon for the first weekend of December.', 'Day 1: Alfama…']],
        extra: () => ({ projectId: 'lisbon-trip' }),
      },
      now,
    ),
    conversation(
      {
        id: 'crdt',
        name: 'CRDTs, explained simply',
        ago: 3 * day,
        provider: 'openai',
        model: 'gpt-5.5',
        turns: [
          ['Explain CRDTs as if I were a new developer on the team.', 'Think of a shared shopping list…'],
        ],
        extra: () => ({ projectId: 'thesis' }),
      },
      now,
    ),
    conversation(
      {
        id: 'sql',
        name: 'Running totals in SQL',
        ago: 5 * day,
        provider: 'claude',
        model: 'claude-opus-4-8',
        turns: [['How do I compute a running total per customer in Postgres?', 'Use a window function…']],
      },
      now,
    ),
    conversation(
      {
        id: 'poem',
        name: 'A birthday poem for Ana',
        ago: 26 * day,
        provider: 'gemini',
        model: 'gemini-3.8-flash',
        turns: [
          [
            'Write a short birthday poem for my sister Ana, who loves climbing.',
            'Another year, another wall…',
          ],
        ],
      },
      now,
    ),
  ];
  const at = new Date(now - 7 * day).toISOString();
  const projects = [
    {
      id: 'thesis',
      name: 'Thesis: local-first sync',
      color: 'violet',
      instructions:
        'I am writing a master thesis on local-first software. Answer precisely, cite papers where you can, and say when something is contested.',
      files: [],
      createdAt: at,
      updatedAt: at,
    },
    {
      id: 'lisbon-trip',
      name: 'Lisbon trip',
      color: 'teal',
      instructions: '',
      files: [],
      createdAt: at,
      updatedAt: at,
    },
  ];
  return { version: '2.0', projects, conversations, activeConversationId: 'debounce' };
}

// ---------------------------------------------------------------------------------------------
// Files to attach, made here: a one-page PDF and a notes file (the photo is drawn in the page).

/** A one-page PDF showing `lines` (Helvetica), with a correct cross-reference table. @param {string[]} lines */
function pdf(lines) {
  const text = lines
    .map((line, index) => `BT /F1 ${index === 0 ? 20 : 12} Tf 72 ${720 - index * 24} Td (${line}) Tj ET`)
    .join('\n');
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${text.length} >>\nstream\n${text}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  let body = '%PDF-1.4\n';
  /** @type {number[]} */
  const offsets = [];
  objects.forEach((object, index) => {
    offsets.push(body.length);
    body += `${index + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xref = body.length;
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) body += `${String(offset).padStart(10, '0')} 00000 n \n`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body, 'latin1');
}

const budget = pdf([
  'Lisbon weekend: budget',
  'Flights (2 people)   312 EUR',
  'Hotel, 2 nights      246 EUR',
  'Food and trams       180 EUR',
  'Total                738 EUR',
]);

const relatedWork = Buffer.from(
  '# Related work\n\n- Kleppmann et al., Local-first software (2019)\n- Shapiro et al., CRDTs (2011)\n',
);

const paper = pdf([
  'A Conflict-Free Replicated JSON Datatype',
  'Martin Kleppmann, Alastair R. Beresford',
  'Abstract: a JSON datatype that can be modified concurrently',
  'on several replicas and merged automatically.',
]);

const packingList = Buffer.from(
  '# Packing list\n\n- passports\n- rain jacket\n- walking shoes\n- charger and adapter\n',
);

/**
 * A 1200×800 photo-like PNG (a sunset over the water), drawn on a canvas in the page.
 * @param {import('@playwright/test').Page} page
 */
async function sunset(page) {
  const base64 = await page.evaluate(() => {
    const canvas = /** @type {HTMLCanvasElement} */ (document.createElement('canvas'));
    canvas.width = 1200;
    canvas.height = 800;
    const g = /** @type {CanvasRenderingContext2D} */ (canvas.getContext('2d'));
    const sky = g.createLinearGradient(0, 0, 0, 520);
    sky.addColorStop(0, '#2b1b5a');
    sky.addColorStop(0.55, '#e0596b');
    sky.addColorStop(1, '#ffb35c');
    g.fillStyle = sky;
    g.fillRect(0, 0, 1200, 520);
    g.fillStyle = '#ffe3a3';
    g.beginPath();
    g.arc(600, 500, 90, 0, Math.PI * 2);
    g.fill();
    const sea = g.createLinearGradient(0, 520, 0, 800);
    sea.addColorStop(0, '#3a3f7a');
    sea.addColorStop(1, '#141a3a');
    g.fillStyle = sea;
    g.fillRect(0, 520, 1200, 280);
    g.fillStyle = 'rgba(255, 214, 150, 0.55)';
    for (let row = 0; row < 14; row += 1) {
      const width = 180 - row * 10;
      g.fillRect(600 - width / 2, 530 + row * 18, width, 4);
    }
    g.fillStyle = '#1b1530';
    g.beginPath();
    g.moveTo(0, 520);
    g.lineTo(160, 430);
    g.lineTo(300, 470);
    g.lineTo(420, 520);
    g.fill();
    return canvas.toDataURL('image/png').split(',')[1] ?? '';
  });
  return Buffer.from(base64, 'base64');
}

// ---------------------------------------------------------------------------------------------
// The page.

/**
 * The app's page, with what it asks of the mock counted, so a screenshot waits for the live
 * model lists and the replies.
 * @param {import('@playwright/test').BrowserContext} context @param {string} mockUrl
 */
async function appPage(context, mockUrl) {
  const page = await context.newPage();
  let inFlight = 0;
  const counts = (/** @type {import('@playwright/test').Request} */ request) =>
    request.url().startsWith(mockUrl);
  page.on('request', (request) => void (counts(request) && (inFlight += 1)));
  page.on('requestfinished', (request) => void (counts(request) && (inFlight -= 1)));
  page.on('requestfailed', (request) => void (counts(request) && (inFlight -= 1)));
  /** @type {string[]} */
  const problems = [];
  page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console.error: ${message.text().slice(0, 300)}`);
  });

  /** Waits until nothing is asked of the mock, no finite animation runs and the layout holds still. */
  async function settle() {
    for (let quiet = 0; quiet < 5;) {
      quiet = inFlight === 0 ? quiet + 1 : 0;
      await page.waitForTimeout(100);
    }
    await page.evaluate(async () => {
      await document.fonts.ready;
      const frame = () => new Promise((resolve) => requestAnimationFrame(resolve));
      let last = '';
      for (let frames = 0, same = 0; frames < 600 && same < 10; frames += 1) {
        await frame();
        const moving = document
          .getAnimations()
          .filter(
            (animation) =>
              animation.playState === 'running' && animation.effect?.getComputedTiming().endTime !== Infinity,
          ).length;
        const list = document.querySelector('[data-testid="message-list"]');
        const now = `${moving}:${list?.scrollHeight}:${list?.scrollTop}:${document.body.scrollHeight}`;
        same = moving === 0 && now === last ? same + 1 : 0;
        last = now;
      }
    });
  }

  /**
   * Writes docs/screenshot-{name}.png once the page is still. Unless kept, the pointer rests
   * where it shows nothing and no field shows a focus ring.
   * @param {string} name @param {{ keepPointer?: boolean, keepFocus?: boolean }} [options]
   */
  async function shoot(name, { keepPointer = false, keepFocus = false } = {}) {
    if (!keepPointer) await page.mouse.move(640, 790);
    if (!keepFocus)
      await page.evaluate(() => /** @type {HTMLElement | null} */ (document.activeElement)?.blur());
    await settle();
    const toast = page.locator('[data-sonner-toast]');
    if ((await toast.count()) > 0)
      throw new Error(`a toast shows on ${name}: ${await toast.first().innerText()}`);
    if (await page.getByText('Loading…').or(page.getByText('Loading models…')).count())
      throw new Error(`${name} is still loading`);
    const path = join(values.out, `screenshot-${name}.png`);
    await page.screenshot({ path, animations: 'disabled', caret: 'hide' });
    progress(`wrote ${path} (${Math.round(statSync(path).size / 1024)} kB)`);
  }

  return { page, shoot, problems };
}

/** @param {import('@playwright/test').Page} page @param {string} name */
async function openConversation(page, name) {
  await page.getByTestId('conversation-row').filter({ hasText: name }).click();
  await page.getByRole('heading', { level: 1, name }).waitFor();
  await page.getByTestId('message').first().waitFor();
}

/** The last reply on screen. @param {import('@playwright/test').Page} page */
function lastReply(page) {
  return page.getByTestId('message').and(page.locator('[data-role="assistant"]')).last();
}

/** Renames the open conversation from its row. @param {import('@playwright/test').Page} page @param {string} name */
async function renameActive(page, name) {
  const row = page.locator('[data-testid=conversation-row][data-active=true]');
  await row.hover();
  await row.getByRole('button', { name: 'Rename conversation' }).click();
  const nameBox = page.getByRole('textbox', { name: 'Conversation name' });
  await nameBox.fill(name);
  await nameBox.press('Enter');
  await page.getByRole('heading', { level: 1, name }).waitFor();
}

/** @param {import('@playwright/test').Page} page */
async function closeToasts(page) {
  const toasts = page.locator('[data-sonner-toast]');
  await toasts.first().waitFor();
  for (const toast of await toasts.all()) await toast.getByRole('button', { name: 'Close toast' }).click();
  await toasts.first().waitFor({ state: 'detached' });
}

/**
 * A page of the app at 1280×800 in the light theme, its storage pointed at the mock (`storage`
 * adds to or replaces the entries), with the written conversations imported.
 * @param {import('@playwright/test').Browser} browser @param {string} appUrl @param {string} mockUrl
 * @param {Record<string, string>} [storage]
 */
async function openApp(browser, appUrl, mockUrl, storage = {}) {
  const context = await browser.newContext({
    viewport: { width: 1280, height: 800 },
    deviceScaleFactor: 1,
    colorScheme: 'light',
    locale: 'en-US',
    timezoneId: 'Europe/Amsterdam',
    // The app's service worker would answer from its cache; the e2e tests block it too.
    serviceWorkers: 'block',
    reducedMotion: 'reduce',
  });
  cleanups.push(() => context.close());
  const all = connections(mockUrl);
  await context.addInitScript(
    (entries) => {
      // Also runs in the sandboxed frames (previews, artifacts), which have no storage.
      if (self.origin === 'null' || localStorage.getItem('ai-chat-config')) return;
      for (const [key, value] of Object.entries(entries)) localStorage.setItem(key, value);
    },
    {
      'ai-chat-config': JSON.stringify(all.claude),
      'ai-chat-connections': JSON.stringify(all),
      // A title request would get the mock's reply as a name: the one conversation sent live is renamed.
      'ai-chat-auto-title': 'off',
      theme: 'system',
      ...storage,
    },
  );
  const app = await appPage(context, mockUrl);
  const { page } = app;
  await page.goto(appUrl);
  await page.getByRole('heading', { name: 'Conversations' }).waitFor();

  progress('importing the written conversations');
  await page.getByRole('button', { name: 'Import / Export' }).click();
  await page.getByRole('tab', { name: 'Import' }).click();
  await page.getByPlaceholder('Paste JSON data here...').fill(JSON.stringify(importFile(Date.now())));
  await page.getByRole('button', { name: 'Import Data' }).click();
  await page.getByRole('dialog').waitFor({ state: 'detached' });
  await closeToasts(page);
  return app;
}

/** @param {string[]} problems */
function reportProblems(problems) {
  if (problems.length > 0) progress(`the page reported:\n  ${[...new Set(problems)].join('\n  ')}`);
}

/**
 * Every shot but the voice one, in one page.
 * @param {import('@playwright/test').Browser} browser @param {string} appUrl @param {string} mockUrl
 */
async function takeAll(browser, appUrl, mockUrl) {
  const { page, shoot, problems } = await openApp(browser, appUrl, mockUrl);

  if (wanted.has('light') || wanted.has('dark')) {
    await openConversation(page, 'Debounce hook');
    await page.locator('pre code').first().waitFor();
    if (wanted.has('light')) await shoot('light');
    if (wanted.has('dark')) {
      await page.emulateMedia({ colorScheme: 'dark' });
      await shoot('dark');
      await page.emulateMedia({ colorScheme: 'light' });
    }
  }

  if (wanted.has('versions')) {
    await openConversation(page, 'Cycling club name');
    await page.getByTestId('message-version').first().waitFor();
    // The reply's actions show while the pointer is over it.
    await lastReply(page).hover();
    await shoot('versions', { keepPointer: true });
  }

  if (wanted.has('models')) {
    await openConversation(page, 'Debounce hook');
    await page.getByRole('button', { name: 'Model: claude-opus-4-8' }).click();
    const picker = page.getByRole('dialog', { name: 'Choose a model' });
    await picker.getByRole('group').first().waitFor();
    // The conversation's model, ticked, in the middle of the list: the end of one provider's
    // group above it, its own group's heading and models around it.
    await picker
      .locator('[aria-pressed="true"]')
      .evaluate((chosen) => chosen.scrollIntoView({ block: 'center' }));
    await shoot('models', { keepPointer: true, keepFocus: true });
    await page.keyboard.press('Escape');
    await picker.waitFor({ state: 'detached' });
  }

  if (wanted.has('reasoning')) {
    await openConversation(page, 'Counting sevens');
    await lastReply(page)
      .getByRole('button', { name: /^Thought for \d+ s$/ })
      .click();
    await lastReply(page)
      .getByRole('region', { name: /^Thought for \d+ s$/ })
      .waitFor();
    await shoot('reasoning');
  }

  if (wanted.has('attachments')) {
    await page.getByRole('button', { name: 'New', exact: true }).click();
    const chooser = page.waitForEvent('filechooser');
    await page.getByRole('button', { name: 'Attach files' }).click();
    await (
      await chooser
    ).setFiles([
      { name: 'harbour-sunset.png', mimeType: 'image/png', buffer: await sunset(page) },
      { name: 'lisbon-budget.pdf', mimeType: 'application/pdf', buffer: budget },
      { name: 'packing-list.md', mimeType: 'text/markdown', buffer: packingList },
    ]);
    const chips = page.getByRole('list', { name: 'Files to send' }).getByTestId('file-chip');
    await chips.nth(2).waitFor();
    await chips.filter({ hasText: 'Preparing…' }).first().waitFor({ state: 'detached' });
    const composer = page.getByRole('textbox', { name: 'Message' });
    await composer.fill('Here are the photo, the budget and my packing list. Anything missing?');
    await composer.press('Enter');
    await lastReply(page).getByText('message:').waitFor({ timeout: 30_000 });
    await page.getByTestId('streaming-cursor').waitFor({ state: 'detached' });
    await renameActive(page, 'Trip checklist');
    await shoot('attachments');
  }

  if (wanted.has('code-run')) {
    await page.emulateMedia({ colorScheme: 'dark' });
    await openConversation(page, 'Sum of squares');
    await lastReply(page).getByTestId('code-run').getByRole('img').waitFor();
    await shoot('code-run');
    await page.emulateMedia({ colorScheme: 'light' });
  }

  if (wanted.has('artifact')) {
    await openConversation(page, 'Trip budget tracker');
    await page.getByRole('button', { name: 'Collapse settings' }).click();
    await lastReply(page).getByRole('button', { name: 'Open in panel' }).click();
    const frame = page
      .getByRole('complementary', { name: 'Budget tracker' })
      .frameLocator('iframe[title="React preview"]');
    await frame.getByRole('button', { name: 'Add the museum' }).click();
    await frame.getByText('Total: 778 EUR').waitFor();
    await shoot('artifact');
    await page.getByRole('button', { name: 'Close panel' }).click();
    await page.getByRole('button', { name: 'Expand settings' }).click();
  }

  if (wanted.has('projects')) {
    await openConversation(page, 'CRDTs, explained simply');
    const thesis = page.getByTestId('project-row').filter({ hasText: 'Thesis' });
    await thesis.hover();
    await page.getByRole('button', { name: 'Actions for Thesis: local-first sync' }).click();
    await page.getByRole('button', { name: 'Project settings' }).click();
    const settings = page.getByRole('dialog', { name: 'Project settings' });
    await settings.locator('input[type=file]').setInputFiles([
      { name: 'related-work.md', mimeType: 'text/markdown', buffer: relatedWork },
      { name: 'automerge-paper.pdf', mimeType: 'application/pdf', buffer: paper },
    ]);
    const files = settings.getByRole('list', { name: 'Project files' });
    await files.getByText('automerge-paper.pdf').waitFor();
    await files.scrollIntoViewIfNeeded();
    await shoot('projects');
    await settings.getByRole('button', { name: 'Done' }).click();
  }

  reportProblems(problems);
}

/**
 * The hands-free talk while it reads the reply aloud, in a browser with the fake microphone: it
 * hears the question, sends it to the mock's OpenAI, and reads the echo at half speed (~4 s).
 * @param {import('@playwright/test').Browser} browser @param {string} appUrl @param {string} mockUrl
 */
async function takeVoice(browser, appUrl, mockUrl) {
  const all = connections(mockUrl);
  const openai = { ...all.openai, apiKey: 'ok.readme' };
  const { page, shoot, problems } = await openApp(browser, appUrl, mockUrl, {
    'ai-chat-config': JSON.stringify(openai),
    'ai-chat-connections': JSON.stringify({ ...all, openai }),
    'ai-chat-voice': JSON.stringify({ speed: 0.5 }),
  });
  progress('talking hands-free');
  await page.getByRole('button', { name: 'New', exact: true }).click();
  await renameActive(page, 'Capital of France');
  await page.getByRole('button', { name: 'Talk hands-free' }).click();
  const talk = page.getByRole('region', { name: 'Hands-free conversation' });
  const status = talk.getByRole('status');
  await status.filter({ hasText: 'Speaking…' }).waitFor({ timeout: 30_000 });
  await lastReply(page).getByText(`Echo: ${spokenQuestion}`).waitFor();
  await shoot('voice');
  // Still reading after the shot, so it was while the shot was taken.
  const after = await status.innerText();
  if (!after.includes('Speaking…'))
    throw new Error(`the reply was read out before the voice shot was taken: the status says '${after}'`);
  await talk.getByRole('button', { name: 'Stop' }).click();
  await talk.waitFor({ state: 'detached' });
  reportProblems(problems);
}

async function main() {
  // First, so a missing espeak-ng fails before the build and the servers.
  const microphone = wanted.has('voice') ? fakeMicrophoneArgs() : undefined;
  if (values.build || !buildIsCurrent()) {
    progress('building the app (npx vite build)');
    await run('npx', ['vite', 'build', '--logLevel', 'warn']);
  } else progress('dist/ is current; pass --build to rebuild');

  const [appPort, mockPort] = [await freePort(), await freePort()];
  const appUrl = `http://${host}:${appPort}/`;
  const mockUrl = `http://${host}:${mockPort}`;
  await Promise.all([
    serve(
      'vite preview',
      'npx',
      ['vite', 'preview', '--host', host, '--port', String(appPort), '--strictPort'],
      appUrl,
    ),
    serve(
      'mock providers',
      'node',
      ['tools/mock-providers/cli.mjs', '--port', String(mockPort), '--max-lifetime', '600'],
      `${mockUrl}/__mock/requests`,
    ),
  ]);
  progress(`app ${appUrl}, mock ${mockUrl}`);

  await mkdir(values.out, { recursive: true });
  if (shots.some((name) => name !== 'voice' && wanted.has(name)))
    await withChromium([], (browser) => takeAll(browser, appUrl, mockUrl));
  if (microphone) await withChromium(microphone, (browser) => takeVoice(browser, appUrl, mockUrl));
}

/**
 * Launches headless Debian Chromium with `extraArgs`, runs `steps` with it, then closes it and
 * whatever was opened in it (on error the final cleanup does).
 * @param {string[]} extraArgs @param {(browser: import('@playwright/test').Browser) => Promise<void>} steps
 */
async function withChromium(extraArgs, steps) {
  const depth = cleanups.length;
  const browser = await chromium.launch({
    executablePath: chromiumPath(),
    headless: true,
    args: [...chromiumFlags, ...extraArgs],
  });
  cleanups.push(() => browser.close());
  await steps(browser);
  while (cleanups.length > depth) await cleanups.pop()?.();
}

try {
  await main();
} catch (error) {
  process.exitCode = 1;
  // After Ctrl+C the page closes under whatever step was running: not worth a stack.
  if (!stopping)
    progress(`failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
} finally {
  await cleanup();
  progress(process.exitCode ? 'stopped everything it started' : 'done; stopped everything it started');
}
