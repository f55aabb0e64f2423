/** What a write to browser storage reports instead of throwing. */
export type StorageFailureReason = 'quota' | 'unavailable' | 'unknown';

export interface StorageFailure {
  ok: false;
  reason: StorageFailureReason;
  message: string;
}

export type StorageResult = { ok: true } | StorageFailure;

export function storageOk(): StorageResult {
  return { ok: true };
}

function errorName(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null || !('name' in error)) return undefined;
  return typeof error.name === 'string' ? error.name : undefined;
}

function errorMessage(error: unknown): string {
  if (
    typeof error === 'object' &&
    error !== null &&
    'message' in error &&
    typeof error.message === 'string'
  ) {
    return error.message;
  }
  return String(error);
}

function errorCode(error: unknown): unknown {
  return typeof error === 'object' && error !== null && 'code' in error ? error.code : undefined;
}

/**
 * Browsers disagree on how a full store is reported: the standard name, Firefox's legacy name,
 * or only the legacy DOMException codes 22 and 1014. IndexedDB aborts a transaction with the same
 * QuotaExceededError as its `error`.
 */
export function isQuotaError(error: unknown): boolean {
  const name = errorName(error);
  if (name === 'QuotaExceededError' || name === 'NS_ERROR_DOM_QUOTA_REACHED') return true;
  const code = errorCode(error);
  return code === 22 || code === 1014;
}

/** Storage switched off or gone: a sandboxed page, blocked cookies, a database closed under us. */
const unavailableNames = new Set(['SecurityError', 'InvalidStateError', 'NotAllowedError']);

export function storageFailure(error: unknown): StorageFailure {
  if (isQuotaError(error)) {
    return { ok: false, reason: 'quota', message: 'Browser storage for this site is full' };
  }
  const detail = errorMessage(error);
  const name = errorName(error);
  if (name !== undefined && unavailableNames.has(name)) {
    return { ok: false, reason: 'unavailable', message: `Browser storage is not available: ${detail}` };
  }
  return { ok: false, reason: 'unknown', message: detail };
}

export function unavailable(what: string): StorageFailure {
  return { ok: false, reason: 'unavailable', message: `${what} is not available` };
}
