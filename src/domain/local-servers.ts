/**
 * 'Find local models': the model servers people run on their own computer, how to tell them apart
 * by their model list, and what to say about each. Pure rules; the probing is
 * state/local-servers.ts. Facts and their sources: docs/providers.md#local-model-servers.
 */

import { withoutTrailingSlashes } from '../lib/trailing-slashes.ts';
import { isRecord, ownField } from './json-guards.ts';

export type LocalServerKind = 'ollama' | 'lmstudio' | 'llamacpp' | 'jan' | 'vllm';

export interface LocalServer {
  kind: LocalServerKind;
  /** What the endpoint is called, and how the outcome names it. */
  name: string;
  /** The port the server listens on unless told otherwise. */
  port: number;
}

/** Each server at its default port; every one serves OpenAI's `GET /v1/models`. */
export const localServers: readonly LocalServer[] = [
  { kind: 'ollama', name: 'Ollama', port: 11434 },
  { kind: 'lmstudio', name: 'LM Studio', port: 1234 },
  { kind: 'llamacpp', name: 'llama.cpp', port: 8080 },
  { kind: 'jan', name: 'Jan', port: 1337 },
  { kind: 'vllm', name: 'vLLM', port: 8000 },
];

const nameOf = Object.fromEntries(localServers.map(({ kind, name }) => [kind, name])) as Record<
  LocalServerKind,
  string
>;

export function localServerName(kind: LocalServerKind): string {
  return nameOf[kind];
}

/** The base URL an OpenAI-compatible endpoint takes (custom.ts adds /models and /chat/completions). */
export function localBaseUrl(port: number, host = 'localhost'): string {
  return `http://${host}:${port}/v1`;
}

/** A model a server listed: its id, and its context length where the list says (vLLM). */
export interface LocalModel {
  id: string;
  contextWindow?: number;
}

/** What a port gave: a model list, a refusal of this page (CORS), a demand for a key, something else, or nothing. */
export type LocalServerOutcome = 'found' | 'refused' | 'needs-key' | 'other' | 'absent';

export interface LocalServerReport {
  port: number;
  /** Recognised from its answer where it can be, else the port's usual server. */
  kind: LocalServerKind;
  name: string;
  baseUrl: string;
  outcome: LocalServerOutcome;
  /** 'found': the ids it listed, in its order. */
  models: string[];
  /** 'found' with models: the endpoint's connection, added now (`added`) or already there. */
  connectionId?: string;
  added?: boolean;
  /** 'refused': how to let this page in, in one or two sentences. */
  fix?: string;
}

function entriesOf(json: unknown): unknown[] | null {
  if (!isRecord(json)) return null;
  const data = ownField(json, 'data');
  return Array.isArray(data) ? data : null;
}

function textField(entry: unknown, key: string): string | undefined {
  if (!isRecord(entry)) return undefined;
  const value = ownField(entry, key);
  return typeof value === 'string' ? value : undefined;
}

function countField(entry: unknown, key: string): number | undefined {
  if (!isRecord(entry)) return undefined;
  const value = ownField(entry, key);
  return typeof value === 'number' && Number.isSafeInteger(value) && value > 0 ? value : undefined;
}

/** The models of an OpenAI-shaped list (`{data: [{id}]}`), each id once; null when it is not one. */
export function readModelList(json: unknown): LocalModel[] | null {
  const entries = entriesOf(json);
  if (!entries) return null;
  const models = new Map<string, LocalModel>();
  for (const entry of entries) {
    const id = textField(entry, 'id')?.trim();
    if (!id || models.has(id)) continue;
    // vLLM's max_model_len is what it serves; llama.cpp's n_ctx_train is the training length, not
    // the server's context, so it is not taken.
    const contextWindow = countField(entry, 'max_model_len');
    models.set(id, contextWindow ? { id, contextWindow } : { id });
  }
  return [...models.values()];
}

/**
 * Which server answered, by the shape of its list where it tells: llama.cpp's entries are owned by
 * "llamacpp" and its answer carries an Ollama-style `models` array beside `data`; vLLM's by "vllm"
 * with a `max_model_len`; LM Studio's by "organization_owner"; Ollama's by the model's namespace,
 * "library" for its own models. Undefined when the shape says nothing (Jan, Ollama with only
 * others' models, an empty list): the port's usual server is assumed.
 */
export function recogniseServer(json: unknown): LocalServerKind | undefined {
  const entries = entriesOf(json);
  if (!entries || !isRecord(json)) return undefined;
  const owners = entries.map((entry) => textField(entry, 'owned_by'));
  if (owners.includes('llamacpp') || Array.isArray(ownField(json, 'models'))) return 'llamacpp';
  if (owners.includes('vllm') || entries.some((entry) => countField(entry, 'max_model_len'))) return 'vllm';
  if (owners.includes('organization_owner')) return 'lmstudio';
  return owners.includes('library') ? 'ollama' : undefined;
}

/** Embedding and reranking models cannot chat: the endpoint starts on the first model that can. */
export function firstChatModel(models: readonly string[]): string | undefined {
  return models.find((id) => !/embed|rerank/i.test(id)) ?? models[0];
}

/** An address with loopback hosts made one, so `127.0.0.1` and `localhost` are the same server. */
function comparableUrl(url: string): string {
  try {
    const parsed = new URL(url.trim());
    const host = ['127.0.0.1', '[::1]'].includes(parsed.hostname) ? 'localhost' : parsed.hostname;
    return `${parsed.protocol}//${host}:${parsed.port}${withoutTrailingSlashes(parsed.pathname)}`;
  } catch {
    return withoutTrailingSlashes(url.trim());
  }
}

export function sameBaseUrl(a: string, b: string): boolean {
  return comparableUrl(a) === comparableUrl(b);
}

/** The server's name, or with its address when an endpoint elsewhere already has that name. */
export function endpointName(name: string, baseUrl: string, takenNames: readonly string[]): string {
  if (!takenNames.includes(name)) return name;
  try {
    return `${name} (${new URL(baseUrl).host})`;
  } catch {
    return `${name} (${baseUrl})`;
  }
}

/**
 * How to let a page of `origin` call the server: each server's own switch for allowed origins.
 * llama-server and vLLM allow every origin unless started with a list; Ollama allows loopback
 * origins only; LM Studio answers browsers once CORS is switched on; Jan has a CORS switch.
 */
export function corsFix(kind: LocalServerKind, origin: string): string {
  switch (kind) {
    case 'ollama':
      return `Ollama allows only pages on this computer unless told otherwise: quit it and start it with OLLAMA_ORIGINS=${origin} ollama serve.`;
    case 'lmstudio':
      return 'In LM Studio, turn on Developer → Server settings → Enable CORS, or start the server with lms server start --cors.';
    case 'llamacpp':
      return `llama-server allows every origin unless started with --cors-origins: add ${origin} to that list.`;
    case 'jan':
      return 'In Jan, open Settings → Local API Server and switch CORS on.';
    case 'vllm':
      return `vLLM allows every origin unless started with --allowed-origins: start it with --allowed-origins '["${origin}"]'.`;
  }
}

function modelCount(count: number): string {
  return `${count} model${count === 1 ? '' : 's'}`;
}

function listed(reports: readonly LocalServerReport[]): string {
  return reports.map(({ name, models }) => `${name} (${modelCount(models.length)})`).join(', ');
}

function isLoopbackOrigin(origin: string): boolean {
  try {
    return ['localhost', '127.0.0.1', '[::1]'].includes(new URL(origin).hostname);
  } catch {
    return false;
  }
}

/**
 * The outcome in sentences, one per line: what was found and added, each refusal with its fix,
 * each server that wants a key or lists no model; or that nothing answered, naming where it looked.
 * Chrome asks before a page elsewhere reaches this device (Local Network Access): when nothing
 * answered such a page (`pageOrigin`), a refusal given there may be why.
 */
export function describeLocalServers(reports: readonly LocalServerReport[], pageOrigin?: string): string[] {
  const found = reports.filter(({ outcome, models }) => outcome === 'found' && models.length > 0);
  const added = found.filter((report) => report.added);
  const known = found.filter((report) => !report.added);
  const lines: string[] = [];
  if (added.length > 0)
    lines.push(`Found ${listed(added)}: added as ${added.length === 1 ? 'an endpoint' : 'endpoints'}.`);
  if (known.length > 0) lines.push(`Found ${listed(known)}: already among your endpoints.`);
  for (const report of reports) {
    const where = `${report.name} (port ${report.port})`;
    if (report.outcome === 'found' && report.models.length === 0)
      lines.push(`${where} answered but lists no models: download or load one in it, then look again.`);
    if (report.outcome === 'refused')
      lines.push(`${where} answered but refused this page (CORS). ${report.fix ?? ''}`.trim());
    if (report.outcome === 'needs-key')
      lines.push(
        `${where} asks for an API key: add it with Add OpenAI-compatible endpoint…, base URL ${report.baseUrl} and that key.`,
      );
  }
  if (lines.length === 0) {
    // Nothing recognised any of them: each is named after its port's usual server.
    const places = reports.map(({ name, port }) => `${name} ${port}`);
    lines.push(`No model server answered on this computer (${places.join(', ')}).`);
    if (pageOrigin && !isLoopbackOrigin(pageOrigin))
      lines.push(
        "If you blocked Chrome's request to access this device, allow it again in the site settings (left of the address), then look again.",
      );
  }
  for (const report of reports)
    if (report.outcome === 'other')
      lines.push(`Something on port ${report.port} answered, but not with a list of models.`);
  return lines;
}
