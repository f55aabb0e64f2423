import { describe, expect, it } from 'vitest';
import { isQuotaError, storageFailure } from './result.ts';

describe('storageFailure', () => {
  it.each([
    new DOMException('full', 'QuotaExceededError'),
    { name: 'QuotaExceededError', message: 'idb' },
    { name: 'NS_ERROR_DOM_QUOTA_REACHED' },
    { code: 22, name: 'Error' },
    { code: 1014 },
  ])('recognises quota errors: %o', (error) => {
    expect(isQuotaError(error)).toBe(true);
    expect(storageFailure(error).reason).toBe('quota');
  });

  it('maps blocked storage to unavailable', () => {
    expect(storageFailure(new DOMException('no', 'SecurityError'))).toEqual({
      ok: false,
      reason: 'unavailable',
      message: 'Browser storage is not available: no',
    });
    expect(storageFailure(new DOMException('closing', 'InvalidStateError')).reason).toBe('unavailable');
  });

  it('keeps the message of anything else', () => {
    expect(storageFailure(new Error('boom'))).toEqual({ ok: false, reason: 'unknown', message: 'boom' });
    expect(storageFailure('weird')).toEqual({ ok: false, reason: 'unknown', message: 'weird' });
    expect(isQuotaError(null)).toBe(false);
  });
});
