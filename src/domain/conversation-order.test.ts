import { describe, expect, it } from 'vitest';
import { dateGroupOf, groupConversations, orderConversations, type Orderable } from './conversation-order.ts';

// Local calendar dates, so the boundaries hold in any time zone the tests run in.
const now = new Date(2026, 10, 12, 9, 30); // Thursday 12 November 2026, 09:30
const local = (...parts: [number, number, number, number?, number?]) => new Date(...parts);
const justBefore = (date: Date) => new Date(date.getTime() - 1);

function row(id: string, activeAt: Date | undefined, more: Partial<Orderable> = {}): Orderable {
  const item: Orderable = {
    id,
    createdAt: local(2026, 0, 1).toISOString(),
    updatedAt: (activeAt ?? local(2026, 0, 1)).toISOString(),
    ...more,
  };
  if (activeAt) item.activeAt = activeAt.toISOString();
  return item;
}

const ids = (items: readonly Orderable[]) => items.map((item) => item.id);

describe('dateGroupOf', () => {
  it.each([
    [local(2026, 10, 12, 0, 0), 'Today'],
    [local(2026, 10, 12, 23, 59), 'Today'],
    [justBefore(local(2026, 10, 12)), 'Yesterday'],
    [local(2026, 10, 11), 'Yesterday'],
    [justBefore(local(2026, 10, 11)), 'Previous 7 days'],
    [local(2026, 10, 5), 'Previous 7 days'],
    [justBefore(local(2026, 10, 5)), 'November 2026'],
    [local(2026, 10, 1), 'November 2026'],
    [local(2026, 9, 31, 23, 0), 'October 2026'],
    [local(2025, 11, 31), 'December 2025'],
  ])('%s is under %s', (at, label) => expect(dateGroupOf(at, now)).toBe(label));

  it('puts a moment ahead of the clock (another device) under Today', () =>
    expect(dateGroupOf(local(2026, 10, 14), now)).toBe('Today'));

  it('counts days across a month and a year boundary', () => {
    const newYear = local(2027, 0, 2, 8);
    expect(dateGroupOf(local(2027, 0, 1, 22), newYear)).toBe('Yesterday');
    expect(dateGroupOf(local(2026, 11, 27), newYear)).toBe('Previous 7 days');
    expect(dateGroupOf(justBefore(local(2026, 11, 26)), newYear)).toBe('December 2026');
  });
});

describe('orderConversations', () => {
  it('lists the most recently active first, pinned on top and archived last', () => {
    const list = [
      row('old', local(2026, 9, 1)),
      row('archived', local(2026, 10, 12), { place: 'archived' }),
      row('recent', local(2026, 10, 12, 9)),
      row('pinned-old', local(2025, 0, 1), { place: 'pinned' }),
      row('middle', local(2026, 10, 10)),
      row('pinned-new', local(2026, 10, 1), { place: 'pinned' }),
    ];
    expect(ids(orderConversations(list))).toEqual([
      'pinned-new',
      'pinned-old',
      'recent',
      'middle',
      'old',
      'archived',
    ]);
  });

  it('reads updatedAt where an earlier release wrote no activeAt', () => {
    const legacy = row('legacy', undefined, { updatedAt: local(2026, 10, 11).toISOString() });
    expect(ids(orderConversations([row('new', local(2026, 10, 10)), legacy]))).toEqual(['legacy', 'new']);
  });

  it('breaks ties by the newest created, then by id', () => {
    const at = local(2026, 10, 12, 9);
    const list = [
      row('b', at),
      row('older', at, { createdAt: local(2025, 0, 1).toISOString() }),
      row('a', at),
      row('newer', at, { createdAt: local(2026, 5, 1).toISOString() }),
    ];
    expect(ids(orderConversations(list))).toEqual(['newer', 'a', 'b', 'older']);
    expect(ids(orderConversations([...list].reverse()))).toEqual(['newer', 'a', 'b', 'older']);
  });
});

describe('groupConversations', () => {
  it('groups in list order under Pinned and the date of the last activity, leaving archived out', () => {
    const list = [
      row('october', local(2026, 9, 20)),
      row('today', local(2026, 10, 12, 8)),
      row('archived', local(2026, 10, 12), { place: 'archived' }),
      row('week', local(2026, 10, 9)),
      row('pinned', local(2024, 0, 1), { place: 'pinned' }),
      row('yesterday', local(2026, 10, 11, 20)),
      row('today-earlier', local(2026, 10, 12, 0, 5)),
      row('last-year', local(2025, 9, 20)),
    ];
    expect(groupConversations(list, now).map(({ label, items }) => [label, ids(items)])).toEqual([
      ['Pinned', ['pinned']],
      ['Today', ['today', 'today-earlier']],
      ['Yesterday', ['yesterday']],
      ['Previous 7 days', ['week']],
      ['October 2026', ['october']],
      ['October 2025', ['last-year']],
    ]);
  });

  it('is empty when every conversation is archived', () =>
    expect(groupConversations([row('a', now, { place: 'archived' })], now)).toEqual([]));
});
