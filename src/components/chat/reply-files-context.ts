import { createContext } from 'react';
import type { ProducedFile } from '../../domain/code-runs.ts';

/**
 * The files the reply being rendered made in its code runs, by name: a `sandbox:/mnt/data/{name}`
 * link in its answer (how OpenAI's code interpreter points at a file it wrote) downloads the one
 * stored under that name.
 */
export const ReplyFilesContext = createContext<ReadonlyMap<string, ProducedFile> | undefined>(undefined);

/** A link into the provider's sandbox, which only the reply's own files can answer. */
export const isSandboxLink = (href: string) => href.startsWith('sandbox:');

/** The name a sandbox link points at: its last path segment. */
export const sandboxFileName = (href: string) => decodeURIComponent(href.slice(href.lastIndexOf('/') + 1));
