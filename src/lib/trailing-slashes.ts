/**
 * An address without its trailing slashes. The lookbehind matches a run from its first slash
 * only: without it the regex is quadratic on a long run of slashes not at the end.
 */
export const withoutTrailingSlashes = (text: string): string => text.replace(/(?<!\/)\/+$/, '');
