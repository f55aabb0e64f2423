import type { MessagePart, ReasoningPart } from '../../domain/conversation.ts';
import type { ToolCallPart, ToolResultPart } from '../../domain/tools.ts';

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
