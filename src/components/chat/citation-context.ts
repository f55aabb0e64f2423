import { createContext } from 'react';
import type { WebResearch } from '../../domain/web-search.ts';

/** The research of the reply being rendered: the answer's citation markers read their source from it. */
export const CitationContext = createContext<WebResearch | undefined>(undefined);
