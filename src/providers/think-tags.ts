import type { StreamPart } from './types.ts';

const open = '<think>';
const close = '</think>';

/** How much of `text`'s end could be the start of `tag`: what must wait for the next chunk. */
function partialTagAt(text: string, tag: string): number {
  for (let length = Math.min(tag.length - 1, text.length); length > 0; length--) {
    if (tag.startsWith(text.slice(-length))) return length;
  }
  return 0;
}

/**
 * Splits a reply whose content opens with `<think>…</think>` (Groq's raw format, DeepSeek-style
 * and local servers) into reasoning and answer, however the tags are cut across chunks. Only a
 * leading block counts: a `<think>` later in an answer is the answer's own text.
 */
export function createThinkTagSplitter() {
  let state: 'start' | 'thinking' | 'after' | 'answer' = 'start';
  let pending = '';

  function* feed(chunk: string): Generator<StreamPart> {
    pending += chunk;
    if (state === 'start') {
      const trimmed = pending.trimStart();
      if (trimmed === '' || (open.startsWith(trimmed) && trimmed.length < open.length)) return;
      if (!trimmed.startsWith(open)) {
        state = 'answer';
      } else {
        state = 'thinking';
        pending = trimmed.slice(open.length);
      }
    }
    if (state === 'thinking') {
      const end = pending.indexOf(close);
      if (end === -1) {
        const keep = partialTagAt(pending, close);
        const reasoning = pending.slice(0, pending.length - keep);
        pending = pending.slice(pending.length - keep);
        if (reasoning) yield { type: 'reasoning-delta', text: reasoning };
        return;
      }
      if (end > 0) yield { type: 'reasoning-delta', text: pending.slice(0, end) };
      yield { type: 'reasoning-end' };
      pending = pending.slice(end + close.length);
      state = 'after';
    }
    if (state === 'after') {
      // The blank line between the thinking and the answer is not part of the answer.
      pending = pending.trimStart();
      if (pending === '') return;
      state = 'answer';
    }
    if (pending) yield { type: 'text-delta', text: pending };
    pending = '';
  }

  /** The stream ended: whatever was held back is what it looked like. */
  function* flush(): Generator<StreamPart> {
    if (pending === '') return;
    if (state === 'thinking') yield { type: 'reasoning-delta', text: pending };
    else if (state !== 'after') yield { type: 'text-delta', text: pending };
    pending = '';
  }

  return { feed, flush };
}
