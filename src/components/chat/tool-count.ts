import type { ToolSourceView } from '../../state/tool-commands.ts';

/** How many tools the sources switched on offer, each name once (as a request offers them). */
export function countOffered(sources: readonly ToolSourceView[]): number {
  const names = sources.filter((source) => source.on).flatMap((source) => source.tools);
  return new Set(names.map((tool) => tool.definition.name)).size;
}
