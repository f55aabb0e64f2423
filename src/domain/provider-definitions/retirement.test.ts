import { describe, expect, it } from 'vitest';
import {
  catalogEntry,
  currentFirst,
  dayOf,
  parseDay,
  retirementLabel,
  retiresSoon,
  type Retirements,
} from './retirement.ts';

const models = ['new', 'soon', 'later', 'old-dated', 'old-undated'];
const catalog: Retirements = {
  checked: '2026-11-26',
  sources: ['https://example.com/deprecations'],
  shutdowns: { soon: '2026-12-11', later: '2027-01-14', 'old-dated': '2026-10-23' },
  retired: ['old-undated'],
};
const today = '2026-11-26';

describe('parseDay', () => {
  it.each([
    ['2026-12-11', '2026-12-11'],
    [null, undefined],
    ['2026-12-11T00:00:00Z', undefined],
    [1765411200, undefined],
    ['soon', undefined],
  ])('%s → %s', (value, day) => {
    expect(parseDay(value)).toBe(day);
  });

  it("takes an instant's UTC day", () => {
    expect(dayOf(new Date('2026-11-26T23:30:00-05:00'))).toBe('2026-11-27');
  });
});

describe('catalogEntry', () => {
  it('is retired from its shutdown day on, or when the catalog knows it gone', () => {
    expect(catalogEntry(catalog, 'new', today)).toEqual({ id: 'new', retired: false });
    expect(catalogEntry(catalog, 'soon', today)).toEqual({
      id: 'soon',
      retired: false,
      shutdown: '2026-12-11',
    });
    expect(catalogEntry(catalog, 'soon', '2026-12-11').retired).toBe(true);
    expect(catalogEntry(catalog, 'old-dated', today).retired).toBe(true);
    expect(catalogEntry(catalog, 'old-undated', today)).toEqual({ id: 'old-undated', retired: true });
    expect(catalogEntry(undefined, 'a-deployment', today)).toEqual({ id: 'a-deployment', retired: false });
  });

  it("takes the live list's shutdown day over the catalog's", () => {
    expect(catalogEntry(catalog, 'soon', today, '2026-12-10').shutdown).toBe('2026-12-10');
    expect(catalogEntry(catalog, 'new', today, '2026-11-20').retired).toBe(true);
  });
});

describe('order and labels', () => {
  it('puts current models first, in their order, and retired ones last', () => {
    const entries = currentFirst(models.map((id) => catalogEntry(catalog, id, '2026-12-20')));
    expect(entries.map(({ id }) => id)).toEqual(['new', 'later', 'soon', 'old-dated', 'old-undated']);
    expect(entries.map(retirementLabel)).toEqual([
      '',
      'retires on 2027-01-14',
      'retired',
      'retired',
      'retired',
    ]);
  });
});

describe('retiresSoon (the header warning)', () => {
  it.each([
    ['2026-11-26', true],
    ['2026-11-11', true],
    ['2026-11-10', false],
    ['2026-12-10', true],
    ['2026-12-11', false],
    ['2026-12-12', false],
  ])('a model shutting down on 2026-12-11, on %s: %s', (day, warns) => {
    expect(retiresSoon('2026-12-11', day)).toBe(warns);
  });

  it('never warns without a day', () => {
    expect(retiresSoon(undefined, today)).toBe(false);
  });
});
