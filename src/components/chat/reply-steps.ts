import type { MessagePart, ReasoningPart } from '../../domain/conversation.ts';
import type { ToolCallPart, ToolResultPart } from '../../domain/tools.ts';
import type { WebResearch } from '../../domain/web-search.ts';

/** A call the model asked for, with what came back for it once something has. */
export interface ToolUse {
  call: ToolCallPart;
  result?: ToolResultPart;
}

/**
 * One stretch of a reply that used tools, as the screen shows it: the thinking, the text that
 * followed, then the tools called after that text.
 */
export interface ReplyStep {
  reasoning: ReasoningPart[];
  text: string;
  tools: ToolUse[];
}

/**
 * A reply's parts in the order they came, grouped into steps: thinking after text or tools starts
 * a new step, and so does text after tools. Each result joins its call (the first result for a
 * call counts; one answering no call before it is left out). Empty texts and files are not part
 * of any step.
 */
export function replySteps(parts: readonly MessagePart[]): ReplyStep[] {
  const steps: ReplyStep[] = [];
  const uses = new Map<string, ToolUse>();
  let step: ReplyStep | undefined;
  const next = (): ReplyStep => {
    step = { reasoning: [], text: '', tools: [] };
    steps.push(step);
    return step;
  };
  for (const part of parts) {
    switch (part.type) {
      case 'reasoning': {
        const into = step && step.text === '' && step.tools.length === 0 ? step : next();
        into.reasoning.push(part);
        break;
      }
      case 'text': {
        if (part.text === '') break;
        const into = step && step.tools.length === 0 ? step : next();
        into.text += part.text;
        break;
      }
      case 'tool-call': {
        if (uses.has(part.callId)) break;
        const use: ToolUse = { call: part };
        uses.set(part.callId, use);
        (step ?? next()).tools.push(use);
        break;
      }
      case 'tool-result': {
        const use = uses.get(part.callId);
        if (use && !use.result) use.result = part;
        break;
      }
      case 'attachment':
        break;
    }
  }
  return steps;
}

/**
 * Each step's share of the reply's research: the citations in its text, their offsets made the
 * text's own (the answer joins the steps' texts with a blank line, as messageText does); the
 * sources whole, so markers keep their numbers. Undefined for a step that cites nothing.
 */
export function stepResearch(
  steps: readonly ReplyStep[],
  web: WebResearch | undefined,
): (WebResearch | undefined)[] {
  let start = 0;
  let first = true;
  return steps.map((step) => {
    if (step.text === '') return undefined;
    if (!first) start += 2;
    first = false;
    const from = start;
    start += step.text.length;
    if (!web) return undefined;
    const citations = web.citations
      .filter((citation) => citation.at >= from && citation.at <= start)
      .map((citation) => ({ ...citation, at: citation.at - from }));
    return citations.length > 0 ? { ...web, citations } : undefined;
  });
}
