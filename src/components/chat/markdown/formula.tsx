// With the markdown renderer (its fonts load only when a formula uses them): a dynamic import of
// a stylesheet that failed once, offline, would fail for good.
import 'katex/dist/katex.min.css';
import { useCallback, useSyncExternalStore } from 'react';
import { formulaKey, subscribeFormula, typesetFormula } from '../../../lib/typeset-math.ts';

/**
 * A formula from the reply (`$…$` inline, `$$…$$` on its own lines as a display). Typeset off the
 * main thread; until then, or if KaTeX cannot typeset it, it shows as written. KaTeX's HTML is
 * trusted: it comes from the formula's text alone, with `trust` off.
 */
export function Formula({ tex, display }: { tex: string; display: boolean }) {
  const key = formulaKey(tex, display);
  const subscribe = useCallback((listener: () => void) => subscribeFormula(key, listener), [key]);
  // Asking for the HTML starts the typesetting; asking again while it runs does nothing more.
  const html = useSyncExternalStore(subscribe, () => typesetFormula(tex, display));
  if (typeof html !== 'string')
    return display ? <div className="whitespace-pre-wrap">{`$$\n${tex}\n$$`}</div> : <>{`$${tex}$`}</>;
  return display ? (
    <div dangerouslySetInnerHTML={{ __html: html }} />
  ) : (
    <span dangerouslySetInnerHTML={{ __html: html }} />
  );
}
