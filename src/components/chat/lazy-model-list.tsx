import { lazyPart } from '../ui/lazy-part.tsx';
import type { ModelListProps } from './model-list.tsx';

// The model list loads when a picker first opens, outside the chat screen's first load.
export const LazyModelList = lazyPart<ModelListProps>(
  () => import('./model-list.tsx').then((module) => ({ default: module.ModelList })),
  <p className="text-xs text-muted-foreground">Loading models…</p>,
);
