import { lazyPart } from '../ui/lazy-part.tsx';
import type { ToolReplyProps } from './tool-reply.tsx';
import type { ToolsPopoverProps } from './tools-popover.tsx';

// Outside the first load: a reply that used tools, and the Tools popover, load when first shown.
const load = () => import('./tool-ui.ts');

export const ToolReply = lazyPart<ToolReplyProps>(() =>
  load().then(({ ToolReply }) => ({ default: ToolReply })),
);
export const ToolsPopover = lazyPart<ToolsPopoverProps>(() =>
  load().then(({ ToolsPopover }) => ({ default: ToolsPopover })),
);
