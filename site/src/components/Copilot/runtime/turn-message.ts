import {
  type AnswerSource,
  type HandbookSearchPart,
  handbookSearchPartSchema,
  handbookSearchToolName,
} from '@acme/contract';
import type { ChatModelRunResult, ThreadAssistantMessagePart } from '@assistant-ui/react';
import type { TurnSnapshot } from './turn-api';

/** Where each checked handbook link of an answer leads: an address, or null for one that leads nowhere. */
export type LinkVerdicts = Record<string, string | null>;

/** Sources become `source` parts, so the message renders them under the answer. */
export const sourceParts = (sources: readonly AnswerSource[]): ThreadAssistantMessagePart[] =>
  sources.map((source) => ({
    type: 'source',
    sourceType: 'url',
    id: source.url,
    url: source.url,
    title: source.title,
  }));

/** A search the model made, as a tool-call part the message renders (HandbookSearch) before the answer's text. */
export const searchPart = (search: Omit<HandbookSearchPart, 'type' | 'toolName'>): ThreadAssistantMessagePart => ({
  type: 'tool-call',
  toolCallId: search.toolCallId,
  toolName: handbookSearchToolName,
  args: search.args,
  argsText: JSON.stringify(search.args),
  result: search.result,
});

/** A streamed answer as the runtime shows it: its searches, text and sources, with the link verdicts for the renderer. */
export function answerParts({ message, data }: TurnSnapshot): ChatModelRunResult {
  const content: ThreadAssistantMessagePart[] = [];
  for (const part of message.parts) {
    if (part.type === 'text') content.push({ type: 'text', text: part.text });
    else if (part.type === 'tool-call' && part.toolName === handbookSearchToolName && part.state === 'result') {
      const { toolCallId, toolName, args, result } = part;
      const parsed = handbookSearchPartSchema.safeParse({ type: 'tool-call', toolCallId, toolName, args, result });
      if (parsed.success) content.push(searchPart(parsed.data));
    } else if (part.type === 'source' && part.url) {
      content.push(...sourceParts([{ title: part.title ?? part.url, url: part.url }]));
    }
  }
  const links: LinkVerdicts = Object.fromEntries(data.links.map((verdict) => [verdict.url, verdict.href]));
  return { content, metadata: { custom: { links, ...(data.confidence ? { confidence: data.confidence } : {}) } } };
}
