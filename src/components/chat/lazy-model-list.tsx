import { lazy, Suspense, type ComponentProps } from 'react';

// The model list loads when a picker first opens, outside the chat screen's first load.
const ModelList = lazy(() => import('./model-list.tsx').then((module) => ({ default: module.ModelList })));

export function LazyModelList(props: ComponentProps<typeof ModelList>) {
  return (
    <Suspense fallback={<p className="text-xs text-gray-600 dark:text-gray-400">Loading models…</p>}>
      <ModelList {...props} />
    </Suspense>
  );
}
