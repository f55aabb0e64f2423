import { builtinServer } from '../domain/tools.ts';
import type { ToolSource } from '../tools/tool-source.ts';

const implementation = () => import('./builtin-tools.ts').then((module) => module.builtinToolsImpl);

/**
 * The tools that need no server: 'Run JavaScript' (off until a conversation turns it on). Its
 * name is known at once; its definition and runner load when first listed or called.
 */
export const builtinTools: ToolSource = {
  id: builtinServer,
  label: 'Built-in',
  list: async () => (await implementation()).list(),
  call: async (name, args, signal) => (await implementation()).call(name, args, signal),
};
