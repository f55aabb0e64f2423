import { useEffect, useState } from 'react';
import type * as Retirements from '../domain/model-retirements.ts';
import { providerCatalog } from '../domain/provider-catalog.ts';

type RetirementsModule = Pick<typeof Retirements, 'modelEntries' | 'modelEntry' | 'recommendedModel'>;

/** Until the record arrives: every model current, none recommended. */
const unknown: RetirementsModule = {
  modelEntries: (provider, _today, live = [], extra = []) =>
    [...new Set([...providerCatalog[provider].models, ...live.map(({ id }) => id), ...extra])].map((id) => ({
      id,
      retired: false,
    })),
  modelEntry: (_provider, id) => ({ id, retired: false }),
  recommendedModel: () => undefined,
};

let loaded: RetirementsModule | null = null;
let loading: Promise<RetirementsModule> | null = null;

/**
 * Which models are retired or retiring. The record is loaded on first use, apart from the first
 * screen (and from every lazy chunk: each reader asks for it here); until then nothing is retired.
 */
export function useRetirements(): RetirementsModule {
  const [module, setModule] = useState(loaded);
  useEffect(() => {
    if (module) return;
    let mounted = true;
    loading ??= import('../domain/model-retirements.ts');
    void loading.then((arrived) => {
      loaded = arrived;
      if (mounted) setModule(arrived);
    });
    return () => {
      mounted = false;
    };
  }, [module]);
  return module ?? unknown;
}
