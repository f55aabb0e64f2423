import type { ProviderId } from './config.ts';
import { providerCatalog } from './provider-catalog.ts';
import { claudeRetirements } from './provider-definitions/claude-retirements.ts';
import { geminiRetirements } from './provider-definitions/gemini-retirements.ts';
import { groqRetirements } from './provider-definitions/groq-retirements.ts';
import { openaiRetirements } from './provider-definitions/openai-retirements.ts';
import {
  catalogEntry,
  currentFirst,
  type CatalogEntry,
  type Day,
  type Retirements,
} from './provider-definitions/retirement.ts';

/**
 * Which models are current, retiring or retired, per provider. Loaded apart from the first screen
 * (use-retirements.ts): the model lists and the warnings are its only readers.
 */

/** Each provider's record; none where the user names the models (Azure, compatible endpoints). */
const retirementsOf: Partial<Record<ProviderId, Retirements>> = {
  openai: openaiRetirements,
  claude: claudeRetirements,
  gemini: geminiRetirements,
  groq: groqRetirements,
};

/** A model the provider's live list names, with the shutdown day it gives (OpenAI's `shutdown_date`). */
export interface LiveModel {
  id: string;
  shutdownDate?: Day;
}

/**
 * The models to offer for a provider: its built-in list, the live list's others, and `extra` (the
 * saved model), each marked current, retiring or retired; current ones first, the recommended on top.
 */
export function modelEntries(
  provider: ProviderId,
  today: Day,
  live: readonly LiveModel[] = [],
  extra: readonly string[] = [],
): CatalogEntry[] {
  const shutdowns = new Map(live.map(({ id, shutdownDate }) => [id, shutdownDate]));
  const ids = new Set([...providerCatalog[provider].models, ...live.map(({ id }) => id), ...extra]);
  return currentFirst(
    [...ids].map((id) => catalogEntry(retirementsOf[provider], id, today, shutdowns.get(id))),
  );
}

/** A model's state: the live list's shutdown day over the provider's record. */
export function modelEntry(
  provider: ProviderId,
  model: string,
  today: Day,
  live: readonly LiveModel[] = [],
): CatalogEntry {
  const liveShutdown = live.find(({ id }) => id === model)?.shutdownDate;
  return catalogEntry(retirementsOf[provider], model, today, liveShutdown);
}

/**
 * The model to offer instead of one that is gone: the built-in list's first current model that the
 * live list (when known and not empty) holds, else its first current one. None for providers
 * whose models the user names.
 */
export function recommendedModel(
  provider: ProviderId,
  today: Day,
  live: readonly LiveModel[] | null = null,
): string | undefined {
  const current = providerCatalog[provider].models.filter(
    (id) => !catalogEntry(retirementsOf[provider], id, today).retired,
  );
  const served = new Set(live?.map(({ id }) => id));
  return current.find((id) => served.has(id)) ?? current[0];
}
