import { describe, expect, it } from 'vitest';
import { providerIds } from './config.ts';
import { modelEntries, modelEntry, recommendedModel } from './model-retirements.ts';
import { providerCatalog } from './provider-catalog.ts';

/** The day the built-in records were checked: what they say is read as of then. */
const checked = '2026-11-26';

describe('the built-in model lists', () => {
  // The browser's own model is one model, which the browser updates in place: nothing retires.
  it.each(providerIds.filter((id) => providerCatalog[id].models.length > 1))(
    '%s offers its recommended model first and current, retired ones last, and keeps the original default',
    (id) => {
      const { models, defaults } = providerCatalog[id];
      const entries = modelEntries(id, checked);
      expect(entries[0]).toMatchObject({ id: models[0], retired: false });
      expect(recommendedModel(id, checked)).toBe(models[0]);
      const firstRetired = entries.findIndex(({ retired }) => retired);
      expect(firstRetired).toBeGreaterThan(0);
      expect(entries.slice(firstRetired).every(({ retired }) => retired)).toBe(true);
      expect(entries.find(({ id: model }) => model === defaults.model)).toMatchObject({ retired: true });
    },
  );

  it('lists the live models and the saved one too, with the live shutdown day', () => {
    const live = [{ id: 'gpt-5.9', shutdownDate: '2026-12-01' }, { id: 'gpt-3.5-turbo' }];
    const entries = modelEntries('openai', checked, live, ['my-fine-tune']);
    expect(entries.find(({ id }) => id === 'gpt-5.9')).toEqual({
      id: 'gpt-5.9',
      retired: false,
      shutdown: '2026-12-01',
    });
    expect(entries.find(({ id }) => id === 'my-fine-tune')).toEqual({ id: 'my-fine-tune', retired: false });
    expect(entries.at(-1)?.retired).toBe(true);
  });

  it('knows a retiring model by its day, and nothing of the models the user names', () => {
    expect(modelEntry('openai', 'o3', checked)).toEqual({ id: 'o3', retired: false, shutdown: '2026-12-11' });
    expect(modelEntry('openai', 'o3', '2026-12-11').retired).toBe(true);
    expect(modelEntry('azure', 'prod-4o', checked)).toEqual({ id: 'prod-4o', retired: false });
    expect(recommendedModel('azure', checked)).toBeUndefined();
  });

  it("recommends the first current model the key's live list holds", () => {
    expect(recommendedModel('openai', checked, [{ id: 'gpt-5.4' }, { id: 'gpt-4o' }])).toBe('gpt-5.4');
    expect(recommendedModel('openai', checked, [{ id: 'something-else' }])).toBe('gpt-5.5');
    expect(recommendedModel('groq', checked, [])).toBe('openai/gpt-oss-120b');
  });
});
