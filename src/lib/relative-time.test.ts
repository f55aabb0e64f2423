import { describe, expect, it } from 'vitest';
import { timeAgo } from './relative-time.ts';

describe('timeAgo', () => {
  const now = Date.parse('2026-01-10T12:00:00Z');
  it.each([
    ['2026-01-10T11:59:30Z', 'less than a minute ago'],
    ['2026-01-10T11:59:00Z', '1 minute ago'],
    ['2026-01-10T11:55:00Z', '5 minutes ago'],
    ['2026-01-10T10:00:00Z', '2 hours ago'],
    ['2026-01-09T12:00:00Z', '1 day ago'],
    ['2025-12-20T12:00:00Z', '3 weeks ago'],
    ['2024-12-01T12:00:00Z', '1 year ago'],
  ])('%s is %s', (iso, expected) => {
    expect(timeAgo(iso, now)).toBe(expected);
  });

  it('treats a future time as now and a bad time as unknown', () => {
    expect(timeAgo('2026-01-10T12:05:00Z', now)).toBe('less than a minute ago');
    expect(timeAgo('not a date', now)).toBe('');
  });
});
