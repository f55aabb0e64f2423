import { describe, expect, it } from 'vitest';
import { listItemOf } from './chat-store.ts';

const row = (name: string) =>
  listItemOf({ id: 'c', name, createdAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-01T00:00:00.000Z' });

describe('listItemOf', () => {
  it('keeps a name as it is', () => {
    expect(row('Trip to Lisbon').name).toBe('Trip to Lisbon');
    expect(row('x'.repeat(200)).name).toBe('x'.repeat(200));
  });

  it('shows at most 200 characters of a crafted name, never half a character', () => {
    expect(row('N'.repeat(5_000_000)).name).toBe(`${'N'.repeat(200)}…`);
    expect(row(`${'N'.repeat(199)}😀more`).name).toBe(`${'N'.repeat(199)}…`);
  });
});
