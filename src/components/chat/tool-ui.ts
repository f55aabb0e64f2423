/** The tools' parts of the screen, one chunk loaded with the first one needed (lazy-tool-ui.tsx). */
export { ToolReply } from './tool-reply.tsx';
export { ToolsPopover } from './tools-popover.tsx';
