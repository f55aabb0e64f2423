// @ts-check
/* global indexedDB */
/**
 * Seeds a browser profile before the app loads: localStorage (config, active conversation) and the
 * IndexedDB database 'ai-chat', version 1, with the app's record shapes (src/storage/keys.ts,
 * src/storage/conversation-db.ts, src/domain/conversation-summary.ts):
 *   conversations: { id, name, messages: [{ role, content }], createdAt, updatedAt, provider,
 *                    toolSwitches?, toolSwitchesAt? }
 *   summaries:     { id, name, createdAt, updatedAt, provider, messageCount }
 * The writing happens in a blank page served on the app's origin by request interception, so no
 * app code runs. Message texts are built in the page from a few templates, to keep 50 MB off the
 * protocol connection.
 */

import { markdownReply } from '../tools/mock-providers/markdown.mjs';

/** The end of every markdown reply of the mock: the last words of the streamed text. */
export const finalSentence = 'That is all.';

/**
 * @typedef {object} ConversationPlan
 * @property {string} id
 * @property {string} name
 * @property {number} messageCount Visible messages, user and assistant alternating from a user
 *   one; a system message comes first.
 * @property {number} seed Varies the texts.
 * @property {number} [sections] Markdown sections per assistant message (about 2.7 KB each); 1.
 * @property {string} [marker] Appended to the last message, so a probe can tell when it shows.
 * @property {number} [branchPoints] Assistant replies, spread evenly and the last one included,
 *   that get an older second version (the tree form of src/domain/conversation-record.ts); the
 *   last one's carries `otherMarker`.
 * @property {string} [otherMarker]
 * @property {{ role: 'user' | 'assistant', content: string }[]} [messages] Given texts in place
 *   of the generated ones, after the system message (messageCount is then ignored; `marker` and
 *   `branchPoints` do not apply).
 * @property {string} [projectId] The project it is in (Conversation.projectId), on the record and
 *   its summary; the project itself is written by `addProjects` once the app has made its store.
 * @property {Record<string, boolean>} [toolSwitches] The conversation's switches
 *   (Conversation.toolSwitches, e.g. `{ 'web-search': true, 'create-images': true }`), stamped
 *   with its creation time (toolSwitchesAt).
 * @property {{ provider: string, model: string }[]} [compare] Its compare set (Conversation.compare,
 *   2 to 4 models asked at once, src/domain/compare.ts), chosen at its creation time (pinnedAt).
 *
 * @typedef {object} SeedSpec
 * @property {Record<string, string>} localStorage
 * @property {ConversationPlan[]} conversations In creation order.
 */

/** Assistant texts: the sections of the mock's long reply (headings, lists, a table, code). */
const sections = markdownReply(6000)
  .replace(/That is all\.\n$/, '')
  .split(/\n(?=## )/)
  .filter((section) => section.startsWith('## '))
  .map((section) => section.trim());

const questions = [
  'Could you walk me through how to structure this step by step? I have a list of records that I read from a text file, and I need to rank them by score, drop the empty ones and write the result as JSON. Please show the code and explain the trade-offs of each approach.',
  'That helps. Now the same for a larger input: about two million lines, with some malformed ones that should be skipped and counted. What changes, and how do I keep memory flat? A short table comparing the options would be great.',
  'I tried your version and it works, but the output order is not stable between runs when two scores are equal. Why does that happen, and what is the smallest change that fixes it without making it slower?',
  'Last question for now: how would you test this? I would like a few unit tests for the edge cases (empty file, one line, duplicates, unicode) and a quick way to benchmark it against the old script.',
];

/**
 * The app's config pointing at the mock; `thinking`: a reasoning model that streams its thinking
 * (Groq's qwen3, asked for parsed reasoning).
 * @param {string} mockUrl @param {string} apiKey @param {boolean} [thinking]
 */
export function mockConfig(mockUrl, apiKey, thinking = false) {
  if (thinking)
    return JSON.stringify({
      provider: 'groq',
      apiKey,
      model: 'qwen/qwen3-32b',
      temperature: 0.7,
      maxTokens: 8000,
      topP: 0.95,
      baseUrl: mockUrl,
    });
  return JSON.stringify({
    provider: 'openai',
    apiKey,
    model: 'gpt-4o-mini',
    temperature: 0.7,
    maxTokens: 800,
    topP: 0.95,
    frequencyPenalty: 0,
    presencePenalty: 0,
    baseUrl: mockUrl,
  });
}

/**
 * localStorage for the app: the config and the active conversation.
 * @param {string} mockUrl @param {string} apiKey @param {string} activeId @param {boolean} [thinking]
 */
export function appStorage(mockUrl, apiKey, activeId, thinking = false) {
  return {
    'ai-chat-config': mockConfig(mockUrl, apiKey, thinking),
    'ai-chat-active-conversation': activeId,
  };
}

/**
 * Runs in the page: writes localStorage and the records, 25 conversations per transaction.
 * @param {{ spec: SeedSpec, sections: string[], questions: string[], baseTime: number }} input
 * @returns {Promise<{ conversations: number, messages: number, chars: number }>}
 */
async function writeSeed({ spec, sections, questions, baseTime }) {
  for (const [key, value] of Object.entries(spec.localStorage)) localStorage.setItem(key, value);
  /** @type {IDBDatabase} */
  const db = await new Promise((resolve, reject) => {
    const request = indexedDB.open('ai-chat', 1);
    request.onupgradeneeded = () => {
      for (const store of ['conversations', 'summaries']) {
        if (!request.result.objectStoreNames.contains(store))
          request.result.createObjectStore(store, { keyPath: 'id' });
      }
    };
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
  let messageTotal = 0;
  let chars = 0;
  const plans = spec.conversations;
  for (let start = 0; start < plans.length; start += 25) {
    const tx = db.transaction(['conversations', 'summaries'], 'readwrite');
    plans.slice(start, start + 25).forEach((plan, offset) => {
      const index = start + offset;
      const at = new Date(baseTime + index * 60_000).toISOString();
      const messages = [{ role: 'system', content: 'You are a helpful assistant.' }];
      if (plan.messages) {
        messages.push(...plan.messages);
        chars += plan.messages.reduce((total, message) => total + message.content.length, 0);
      }
      for (let i = 0; !plan.messages && i < plan.messageCount; i++) {
        const turn = Math.floor(i / 2);
        let content;
        if (i % 2 === 0) {
          content = `Question ${turn + 1} in ${plan.name}: ${questions[(plan.seed + turn) % questions.length]}`;
        } else {
          const parts = [`Answer ${turn + 1} in ${plan.name}.`];
          for (let s = 0; s < (plan.sections ?? 1); s++)
            parts.push(sections[(plan.seed * 7 + turn * 3 + s) % sections.length] ?? '');
          content = parts.join('\n\n');
        }
        if (i === plan.messageCount - 1 && plan.marker) content += `\n\nLast message: ${plan.marker}`;
        chars += content.length;
        messages.push({ role: i % 2 === 0 ? 'user' : 'assistant', content });
      }
      /** @type {Record<string, unknown>} */
      const common = { id: plan.id, name: plan.name, createdAt: at, updatedAt: at, provider: 'openai' };
      if (plan.projectId) Object.assign(common, { projectId: plan.projectId, projectAt: at });
      /** @type {Record<string, unknown>} */
      let record = { ...common, messages };
      if (plan.branchPoints) {
        // Ids, timestamps and the other versions: messages off the path, each naming its parent.
        const ids = messages.map((_, i) => `${plan.id}-m${i}`);
        const path = messages.map((message, i) => ({ ...message, id: ids[i], createdAt: at }));
        const replies = path.flatMap((message, i) => (message.role === 'assistant' ? [i] : []));
        const step = replies.length / plan.branchPoints;
        const otherMessages = Array.from({ length: plan.branchPoints }, (_, k) => {
          const i = replies[Math.min(replies.length - 1, Math.round(replies.length - 1 - k * step))] ?? 1;
          let content = `Another version of answer ${i}.\n\n${sections[(plan.seed + k) % sections.length] ?? ''}`;
          if (i === path.length - 1 && plan.otherMarker) content += `\n\nLast message: ${plan.otherMarker}`;
          chars += content.length;
          // Older than the version on the path, so it is version 1 of 2.
          const older = new Date(baseTime - 60_000).toISOString();
          return {
            id: `${plan.id}-v${k}`,
            parentId: ids[i - 1],
            role: 'assistant',
            content,
            createdAt: older,
          };
        });
        messages.push(...otherMessages);
        record = { ...common, formatVersion: 2, messages: path, otherMessages };
      }
      if (plan.toolSwitches) Object.assign(record, { toolSwitches: plan.toolSwitches, toolSwitchesAt: at });
      if (plan.compare) Object.assign(record, { compare: plan.compare, pinnedAt: at });
      messageTotal += messages.length;
      tx.objectStore('conversations').put(record);
      tx.objectStore('summaries').put({ ...common, messageCount: messages.length });
    });
    await new Promise((resolve, reject) => {
      tx.oncomplete = () => resolve(undefined);
      tx.onerror = () => reject(tx.error);
      tx.onabort = () => reject(tx.error ?? new Error('seed transaction aborted'));
    });
  }
  db.close();
  return { conversations: plans.length, messages: messageTotal, chars };
}

/**
 * Writes `spec` into the context's storage for the app's origin.
 * @param {import('@playwright/test').BrowserContext} context
 * @param {string} appUrl
 * @param {SeedSpec} spec
 */
export async function seed(context, appUrl, spec) {
  const page = await context.newPage();
  const seedUrl = `${appUrl}/__bench_seed__`;
  await page.route(seedUrl, (route) =>
    route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>seed</title><p>seeding</p>' }),
  );
  try {
    await page.goto(seedUrl);
    return await page.evaluate(writeSeed, {
      spec,
      sections,
      questions,
      baseTime: Date.parse('2025-01-01T09:00:00.000Z'),
    });
  } finally {
    await page.unroute(seedUrl);
    await page.close();
  }
}

/**
 * Runs in a page of the app's origin, after the app has opened (and upgraded) its database: adds
 * projects to its 'projects' store, in the shape of src/domain/projects.ts.
 * @param {{ id: string, name: string, folded?: boolean }[]} projects
 */
export async function addProjects(projects) {
  /** @type {IDBDatabase} */
  const db = await new Promise((resolve, reject) => {
    const request = indexedDB.open('ai-chat');
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
  const tx = db.transaction('projects', 'readwrite');
  const at = new Date('2025-01-01T08:00:00.000Z').toISOString();
  for (const { id, name, folded } of projects) {
    /** @type {Record<string, unknown>} */
    const project = { id, name, instructions: '', files: [], createdAt: at, updatedAt: at };
    if (folded) project.folded = true;
    tx.objectStore('projects').put(project);
  }
  await new Promise((resolve, reject) => {
    tx.oncomplete = () => resolve(undefined);
    tx.onerror = () => reject(tx.error);
  });
  db.close();
}
