// @ts-check
/**
 * The opaque values providers hand out with reasoning and check when a client sends them back:
 * Claude's thinking signatures and redacted thinking, OpenAI's encrypted reasoning, Gemini's thought
 * signatures. The mock derives each from what it sent, so it can check them without keeping state,
 * and a changed byte or a value made up by the client fails.
 */

import { createHash } from 'node:crypto';

/** @param {string} text */
export const digest = (text) => createHash('sha256').update(text).digest('base64');

/** A Claude thinking block's signature: bound to the model and to the thinking text as delivered. */
export const thinkingSignature = (/** @type {string} */ model, /** @type {string} */ thinking) =>
  `sig_${digest(`${model}\n${thinking}`)}`;

/** A Gemini thought signature. */
export const thoughtSignature = (/** @type {string} */ model, /** @type {string} */ thoughts) =>
  digest(`thought\n${model}\n${thoughts}`);

/**
 * A value that stands for text the client never sees again (redacted or encrypted reasoning), so it
 * carries its own seed: `<prefix><seed>.<digest of scope and seed>`. Base64 has no '.', so the
 * seed can be read back.
 * @param {string} prefix @param {string} scope @param {string} seed
 */
const sealed = (prefix, scope, seed) => `${prefix}${seed}.${digest(`${scope}\n${seed}`)}`;

/** @param {string} text */
const seedOf = (text) => digest(text).slice(0, 16);

/** @param {string} prefix @param {string} scope @param {unknown} value */
function isSealed(prefix, scope, value) {
  if (typeof value !== 'string' || !value.startsWith(prefix)) return false;
  return value === sealed(prefix, scope, value.slice(prefix.length).split('.')[0] ?? '');
}

/** Claude's redacted_thinking data, bound to the model as signatures are. */
export const redactedThinking = (/** @type {string} */ model, /** @type {string} */ thinking) =>
  sealed('redacted_', model, seedOf(thinking));

export const isRedactedThinking = (/** @type {string} */ model, /** @type {unknown} */ data) =>
  isSealed('redacted_', model, data);

/** OpenAI's encrypted_content of a reasoning item (real ones are Fernet tokens, hence gAAAA). */
export const encryptedReasoning = (/** @type {string} */ reasoning) =>
  sealed('gAAAA', 'openai-reasoning', seedOf(reasoning));

export const isEncryptedReasoning = (/** @type {unknown} */ value) =>
  isSealed('gAAAA', 'openai-reasoning', value);

/**
 * Gemini's thought signature on a functionCall part: sealed like encrypted reasoning, bound to the
 * model, so a changed one or one from another model fails (T2, §C).
 */
export const callSignature = (/** @type {string} */ model, /** @type {string} */ seed) =>
  sealed('', `gemini-call\n${model}`, seedOf(seed));

export const isCallSignature = (/** @type {string} */ model, /** @type {unknown} */ value) =>
  isSealed('', `gemini-call\n${model}`, value);

/**
 * A web search result's encrypted_content (Anthropic), bound to the page's address and title: a
 * client that sends a result back changed, or made up, fails. Real ones are long base64 protobufs
 * ("Er…", "Ev…"); these only look alike.
 */
export const searchResultContent = (/** @type {string} */ url, /** @type {string} */ title) =>
  `Ev${digest(`web-search-result\n${url}\n${title}`)}`;

/** A web search citation's encrypted_index (Anthropic), bound to the page and the cited text. */
export const citationIndex = (/** @type {string} */ url, /** @type {string} */ citedText) =>
  `Eo${digest(`web-search-citation\n${url}\n${citedText}`)}`;
