import type { Root } from 'hast';
import { markdownBudget } from './markdown-budget.ts';
import type { ParseRequest, ParseResponse } from './markdown.worker.ts';

/**
 * Blocks parsed in a worker, one at a time, each within a deadline: a parse that runs over is
 * abandoned (the worker is ended and a fresh one takes the next block), and its block stays plain
 * text. Results are kept by text, as the page's own parses are, so a block shown again is not
 * parsed again. Callers ask with `requestParse`, then read `parsedTree` and subscribe to the text.
 */

/** A block's tree, or 'plain' when it could not be parsed in time (or at all). */
export type ParseResult = Root | 'plain';

const results = new Map<string, ParseResult>();
const resultsLimit = 200;
const listeners = new Map<string, Set<() => void>>();
/** Blocks waiting for the worker, oldest first; a block no longer shown is taken out. */
const queue = new Set<string>();
/**
 * Texts whose parse ran over the deadline. A streaming block only grows, and the parser's cost
 * with it: a block that starts with one of these is not tried again.
 */
const slowPrefixes: string[] = [];
const slowPrefixesLimit = 8;

let worker: Worker | undefined;
/** The worker has loaded: a parse's deadline counts from here, not from the module's download. */
let workerReady = false;
let running: { text: string; timer?: ReturnType<typeof setTimeout> } | undefined;

/** The block's result; undefined until it is known. */
export function parsedTree(text: string): ParseResult | undefined {
  return results.get(text);
}

/** Queues the block for the worker, unless its result is known or on its way. */
export function requestParse(text: string): void {
  if (results.has(text) || running?.text === text || queue.has(text)) return;
  if (slowPrefixes.some((prefix) => text.startsWith(prefix))) return settle(text, 'plain');
  queue.add(text);
  next();
}

/** A block that is no longer shown: not parsed if it has not started. */
export function forgetBlock(text: string): void {
  queue.delete(text);
}

export function subscribeParsed(text: string, listener: () => void): () => void {
  let set = listeners.get(text);
  if (!set) listeners.set(text, (set = new Set()));
  set.add(listener);
  return () => {
    set.delete(listener);
    if (set.size === 0) listeners.delete(text);
  };
}

function settle(text: string, result: ParseResult): void {
  if (results.size >= resultsLimit) {
    const oldest = results.keys().next().value;
    if (oldest !== undefined) results.delete(oldest);
  }
  results.set(text, result);
  for (const listener of listeners.get(text) ?? []) listener();
}

function next(): void {
  if (running) return;
  const text = queue.values().next().value;
  if (text === undefined) return;
  queue.delete(text);
  running = { text };
  parser().postMessage({ text } satisfies ParseRequest);
  if (workerReady) startDeadline();
}

function startDeadline(): void {
  const job = running;
  if (!job || job.timer !== undefined) return;
  job.timer = setTimeout(() => {
    // Over the deadline: the parser may never finish, so the worker goes with it.
    endWorker();
    running = undefined;
    if (slowPrefixes.push(job.text) > slowPrefixesLimit) slowPrefixes.shift();
    settle(job.text, 'plain');
    next();
  }, markdownBudget.workerDeadlineMs);
}

function endWorker(): void {
  worker?.terminate();
  worker = undefined;
  workerReady = false;
}

function finish(text: string, result: ParseResult): void {
  if (running?.text !== text) return;
  clearTimeout(running.timer);
  running = undefined;
  settle(text, result);
  next();
}

function parser(): Worker {
  if (worker) return worker;
  const started = new Worker(new URL('./markdown.worker.ts', import.meta.url), { type: 'module' });
  started.addEventListener('message', (event: MessageEvent<ParseResponse>) => {
    const response = event.data;
    if ('ready' in response) {
      workerReady = true;
      startDeadline();
    } else finish(response.text, response.tree ?? 'plain');
  });
  // It failed to load (offline) or broke: the block in hand stays plain text, without a verdict on
  // it (nothing is remembered); the next block asked for tries a fresh worker.
  started.addEventListener('error', (event) => {
    event.preventDefault();
    console.error('Could not load the markdown parser', event.message);
    if (worker !== started) return;
    endWorker();
    clearTimeout(running?.timer);
    running = undefined;
  });
  worker = started;
  return started;
}
