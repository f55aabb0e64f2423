/**
 * Retirements: which models a provider has shut down (still choosable: an Azure deployment or a
 * compatible server may serve them) and which go soon, from a dated, sourced record per provider.
 */

/** A calendar day, 'YYYY-MM-DD' (UTC), as providers publish shutdown dates. */
export type Day = string;

/** What one provider has announced, as checked on a day against the sources given. */
export interface Retirements {
  /** The day this record was last checked against its sources. */
  checked: Day;
  /** Where the days come from. */
  sources: readonly string[];
  /** Shutdown days the provider announced: a day past means retired. */
  shutdowns: Readonly<Record<string, Day>>;
  /** Retired upstream before `checked`, on a day not published (or not agreed between sources). */
  retired: readonly string[];
}

/** A model as a list shows it: current, retiring on a day, or retired. */
export interface CatalogEntry {
  id: string;
  retired: boolean;
  /** The shutdown day, when one is known. */
  shutdown?: Day;
}

/** A provider's shutdown date as a day, or undefined for anything else (null, a timestamp, junk). */
export function parseDay(value: unknown): Day | undefined {
  return typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value) ? value : undefined;
}

/** The day of an instant, in UTC, as shutdown dates are given. */
export function dayOf(now: Date): Day {
  return now.toISOString().slice(0, 10);
}

/** Whole days from `today` to `day` (negative when past). */
function daysBetween(today: Day, day: Day): number {
  return Math.round((Date.parse(`${day}T00:00:00Z`) - Date.parse(`${today}T00:00:00Z`)) / 86_400_000);
}

/** The header warns this many days ahead of a shutdown. */
export const retirementWarningDays = 30;

/** Whether a model shutting down on `shutdown` stops within the warning period (and not already). */
export function retiresSoon(shutdown: Day | undefined, today: Day): boolean {
  if (shutdown === undefined) return false;
  const days = daysBetween(today, shutdown);
  return days > 0 && days <= retirementWarningDays;
}

/**
 * A model's state: the provider's live list (its `shutdown_date`) over the record's day; retired
 * when that day has come, or when the record knows it gone.
 */
export function catalogEntry(
  retirements: Retirements | undefined,
  id: string,
  today: Day,
  liveShutdown?: Day,
): CatalogEntry {
  const shutdown = liveShutdown ?? retirements?.shutdowns[id];
  const retired =
    (shutdown !== undefined && daysBetween(today, shutdown) <= 0) ||
    (retirements?.retired.includes(id) ?? false);
  return shutdown === undefined ? { id, retired } : { id, retired, shutdown };
}

/** Models in the order a list offers them: current ones first (in the given order), retired ones last. */
export function currentFirst<T extends { retired: boolean }>(entries: readonly T[]): T[] {
  return [...entries.filter((entry) => !entry.retired), ...entries.filter((entry) => entry.retired)];
}

/** The few words a model list adds: 'retired', 'retires on 2026-12-11', or nothing. */
export function retirementLabel(entry: CatalogEntry): string {
  if (entry.retired) return 'retired';
  return entry.shutdown ? `retires on ${entry.shutdown}` : '';
}
