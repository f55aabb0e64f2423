import type { Locator } from '@playwright/test';
import { ChatPage, expect, mockConfig, mockKey, test } from './fixtures.ts';
import { longestTask, watchTasks, type LongestTask } from './long-tasks.ts';

/**
 * Replies a prompt injection can make a model print, each a few bytes of recipe for the mock's
 * `repeat` scenario: the parser and the layout are super-linear on them. None may hold the page's
 * main thread for more than `budgetMs` of CPU (long-tasks.ts), neither while it streams nor when its conversation opens
 * again, and each degrades visibly: deeper structure shown as text, a block beyond the budgets
 * shown as plain text with a note. Nothing of the reply is lost.
 */
const budgetMs = 200;
const plainNote = 'This part is too large or intricate to format, so it is shown as plain text.';

interface Payload {
  name: string;
  recipe: Record<string, unknown>;
  /** The reply's length, in characters. */
  length: number;
  degraded: (reply: Locator) => Promise<void>;
}

/** Lists or quotes nested on one line stop at ten levels; the rest of the line reads as text. */
const nestingStopsAtTen = (selector: string, rest: string) => async (reply: Locator) => {
  await expect(reply.locator(Array(10).fill(selector).join(' '))).toHaveCount(1);
  await expect(reply.locator(Array(11).fill(selector).join(' '))).toHaveCount(0);
  await expect(reply).toContainText(rest);
};

const shownPlain = async (reply: Locator) => {
  await expect(reply.getByText(plainNote)).toBeVisible();
};

/** The whole reply is there, as text. */
const shownWhole = async (reply: Locator) => {
  await expect(reply).toContainText('the end');
};

// `**the end**` makes a reply markdown (the spec renders a reply as markdown when it holds `**`,
// `#`, `- `, `1. ` or a fence); without it a reply is plain text from the start.
const payloads: Payload[] = [
  {
    name: '1,000 nested list markers',
    recipe: { repeat: '- ', times: 1000, then: 'x' },
    length: 2001,
    degraded: nestingStopsAtTen('ul', '- - - - x'),
  },
  {
    name: '2,000 nested list markers',
    recipe: { repeat: '- ', times: 2000, then: 'x' },
    length: 4001,
    degraded: nestingStopsAtTen('ul', '- - - - x'),
  },
  {
    name: '10,000 nested quote markers',
    recipe: { repeat: '> ', times: 10_000, then: 'x **the end**' },
    length: 20_013,
    degraded: nestingStopsAtTen('blockquote', '> > > > x'),
  },
  {
    name: 'an indented 1,000-level list',
    recipe: { line: '- x', lines: 1000, indent: 2 },
    length: 1_002_999,
    degraded: shownPlain,
  },
  {
    name: 'a megabyte of [ (plain)',
    recipe: { repeat: '[', times: 1_000_000, then: 'the end' },
    length: 1_000_007,
    degraded: shownWhole,
  },
  {
    name: 'a megabyte of [ (markdown)',
    recipe: { repeat: '[', times: 1_000_000, then: ' **the end**' },
    length: 1_000_012,
    degraded: shownPlain,
  },
  {
    name: '100,000 quote markers',
    recipe: { repeat: '> ', times: 100_000, then: 'the end' },
    length: 200_007,
    degraded: shownWhole,
  },
  {
    name: '30,000 emphasis runs',
    recipe: { repeat: '*a', times: 30_000, then: ' **the end**' },
    length: 60_012,
    degraded: shownPlain,
  },
  {
    name: '60,000 closing brackets',
    recipe: { repeat: ']', times: 60_000, then: ' **the end**' },
    length: 60_012,
    degraded: shownPlain,
  },
  // Wide, but parsed in time and within the element bound: a table it is.
  {
    name: 'a table of 1,000 columns',
    recipe: {
      repeat: '|a',
      times: 1000,
      then: '|\n' + '|-'.repeat(1000) + '|\n' + '|b'.repeat(1000) + '| **the end**',
    },
    length: 2_050,
    degraded: async (reply) => {
      await expect(reply.locator('th')).toHaveCount(1000);
    },
  },
  // The same table at 2,000 columns holds more elements than a block may: plain text.
  {
    name: 'a table of 2,000 columns',
    recipe: {
      repeat: '|a',
      times: 2000,
      then: '|\n' + '|-'.repeat(2000) + '|\n' + '|b'.repeat(2000) + '| **the end**',
    },
    length: 12_000,
    degraded: shownPlain,
  },
  // Parsed quickly, but into 40,000 line breaks: too many elements to lay out in one task.
  {
    name: '40,000 hard line breaks',
    recipe: { repeat: 'a\\\n', times: 40_000, then: '**the end**' },
    length: 120_011,
    degraded: shownPlain,
  },
  // Twelve long code blocks: drawn without the parser, highlighted one at a time when idle.
  {
    name: 'twelve 40 KB code blocks',
    recipe: {
      repeat: '```ts\n' + 'const value = compute(a, b); // [x](y) *z*\n'.repeat(900) + '```\n\n',
      times: 12,
      then: '**the end**',
    },
    length: 12 * 900 * 43,
    degraded: async (reply) => {
      await expect(reply.locator('pre code.hljs')).toHaveCount(12);
      await expect(reply.locator('pre a')).toHaveCount(0);
    },
  },
];

test('the measure sees a long task of the page, and not the test harness reading the page', async ({
  page,
}) => {
  const chat = new ChatPage(page);
  await chat.open();
  await watchTasks(page);
  // The harness's own evaluation is left out, as the Long Tasks API leaves it out; the page's
  // timer is counted.
  await page.evaluate(() => {
    const busy = (ms: number) => {
      const start = performance.now();
      while (performance.now() - start < ms);
    };
    busy(600);
    return new Promise<void>((resolve) =>
      setTimeout(() => {
        busy(250);
        resolve();
      }),
    );
  });
  // Long enough that the app's own start-up work (idle loading, a worker starting) never outdoes it.
  const longest = await longestTask(page);
  expect(longest.wallMs).toBeGreaterThanOrEqual(250);
  expect(longest.wallMs).toBeLessThan(600);
});

for (const payload of payloads) {
  test(`a reply of ${payload.name} streams and reopens without freezing the page`, async ({ page }) => {
    const chat = new ChatPage(page);
    await chat.open(mockConfig('openai', mockKey('repeat')));
    await chat.newConversation();
    await watchTasks(page);
    await chat.ask(JSON.stringify(payload.recipe));
    const reply = chat.messages('assistant');
    await payload.degraded(reply);
    expectWithin(await longestTask(page), 'while streaming');

    // Saved whole: the app opens on it again at the next start.
    await watchTasks(page);
    await page.reload();
    await payload.degraded(reply);
    expect(await reply.evaluate((element) => element.textContent?.length ?? 0)).toBeGreaterThanOrEqual(
      payload.length - 100,
    );
    expectWithin(await longestTask(page), 'when it opens');
  });
}

/** The longest task within the budget (both its times noted in the report). */
function expectWithin(longest: LongestTask, when: string): void {
  test.info().annotations.push({
    type: `longest task ${when}`,
    description: `${longest.cpuMs.toFixed(0)} ms of CPU (${longest.wallMs.toFixed(0)} ms wall)`,
  });
  expect(longest.cpuMs, `longest task ${when} (CPU ms)`).toBeLessThan(budgetMs);
}
