import { defaultSchema, type Options as SanitizeSchema } from 'rehype-sanitize';

/**
 * GitHub's allow-list (rehype-sanitize's default) for the raw HTML a reply may contain: no
 * script, style, iframe, object, embed, form, base or meta; no event handlers or style
 * attributes; ids and names prefixed so a reply cannot clobber globals. We only drop `input`
 * (task-list checkboxes come from GFM, which we do not need to be interactive). A `sandbox:` link
 * (OpenAI's code interpreter naming a file it wrote) is let through to the renderer, which never
 * puts it in an href: it becomes a download of the reply's own file (sandbox-link.tsx).
 */
export const sanitizeSchema: SanitizeSchema = {
  ...defaultSchema,
  tagNames: (defaultSchema.tagNames ?? []).filter((tag) => tag !== 'input'),
  protocols: {
    ...defaultSchema.protocols,
    href: [...(defaultSchema.protocols?.href ?? []), 'sandbox'],
  },
};
