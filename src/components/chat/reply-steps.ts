import type { AttachmentPart } from '../../domain/attachments.ts';
import type { CodeRunPart } from '../../domain/code-runs.ts';
import type { MessagePart, ReasoningPart } from '../../domain/conversation.ts';
import type { ToolCallPart, ToolResultPart } from '../../domain/tools.ts';
import type { WebResearch } from '../../domain/web-search.ts';

/** A call the model asked for, with what came back for it once something has. */
export interface ToolUse {
  call: ToolCallPart;
  result?: ToolResultPart;
}

/** What a step shows after its text, in the order it came: tools used, code run, pictures drawn. */
export type StepItem =
  | { kind: 'tool'; use: ToolUse }
  | { kind: 'run'; run: CodeRunPart }
  | { kind: 'picture'; picture: AttachmentPart };

/**
 * One stretch of a reply that used tools (its own, or the provider's), as the screen shows it: the
 * thinking, the text that followed, then the tools called, code run and pictures drawn after it.
 */
export interface ReplyStep {
  reasoning: ReasoningPart[];
  text: string;
  items: StepItem[];
}

/**
 * A reply's parts in the order they came, grouped into steps: thinking after text or items starts
 * a new step, and so does text after items. Each result joins its call (the first result for a
 * call counts; one answering no call before it is left out). Empty texts are not part of any step.
 */
export function replySteps(parts: readonly MessagePart[]): ReplyStep[] {
  const steps: ReplyStep[] = [];
  const uses = new Map<string, ToolUse>();
  let step: ReplyStep | undefined;
  const next = (): ReplyStep => {
    step = { reasoning: [], text: '', items: [] };
    steps.push(step);
    return step;
  };
  for (const part of parts) {
    switch (part.type) {
      case 'reasoning': {
        const into = step && step.text === '' && step.items.length === 0 ? step : next();
        into.reasoning.push(part);
        break;
      }
      case 'text': {
        if (part.text === '') break;
        const into = step && step.items.length === 0 ? step : next();
        into.text += part.text;
        break;
      }
      case 'tool-call': {
        if (uses.has(part.callId)) break;
        const use: ToolUse = { call: part };
        uses.set(part.callId, use);
        (step ?? next()).items.push({ kind: 'tool', use });
        break;
      }
      case 'tool-result': {
        const use = uses.get(part.callId);
        if (use && !use.result) use.result = part;
        break;
      }
      case 'code-run':
        (step ?? next()).items.push({ kind: 'run', run: part });
        break;
      case 'attachment':
        (step ?? next()).items.push({ kind: 'picture', picture: part });
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
