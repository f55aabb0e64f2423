import { lazyPart } from '../ui/lazy-part.tsx';

/**
 * The artifact panel, loaded on first use; a reply with an artifact preloads it in idle time, so
 * 'Open in panel' shows it at once.
 */
export const ArtifactPanel = lazyPart(() => import('./artifact-panel.tsx'));
