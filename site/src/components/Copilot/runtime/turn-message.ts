import type { AnswerSource, TurnDataParts } from '@acme/contract';
import type { ChatModelRunResult, ThreadAssistantMessagePart } from '@assistant-ui/react';
import type { TurnMessage } from './turn-api';

/** Where each checked handbook link of an answer leads: an address, or null for one that leads nowhere. */
export type LinkVerdicts = Record<string, string | null>;

/** The last `data-<name>` part of a streamed answer, if it has one. */
export function dataOf<Name extends keyof TurnDataParts>(
  message: TurnMessage,
  name: Name,
): TurnDataParts[Name] | undefined {
  const part = message.parts.filter((candidate) => candidate.type === `data-${name}`).at(-1);
  return part && 'data' in part ? (part.data as TurnDataParts[Name]) : undefined;
}

/** Sources become `source` parts, so the message renders them under the answer. */
export const sourceParts = (sources: readonly AnswerSource[]): ThreadAssistantMessagePart[] =>
  sources.map((source) => ({
    type: 'source',
    sourceType: 'url',
    id: source.url,
    url: source.url,
    title: source.title,
  }));

/**
 * A streamed answer as the runtime shows it: its text and sources, with the link verdicts (for the renderer) and the
 * answer's mode and coverage kept in the message's custom metadata.
 */
export function answerParts(message: TurnMessage): ChatModelRunResult {
  const content: ThreadAssistantMessagePart[] = [];
  const links: LinkVerdicts = {};
  for (const part of message.parts) {
    if (part.type === 'text') content.push({ type: 'text', text: part.text });
    else if (part.type === 'source-url')
      content.push(...sourceParts([{ title: part.title ?? part.url, url: part.url }]));
    else if (part.type === 'data-link') links[part.data.url] = part.data.href;
  }
  return { content, metadata: { custom: { links, ...message.metadata } } };
}
