import type { ReceivedRequest } from './fake-model-server.js';

/** What a request to the local model stand-in carried, read the same way whichever provider's protocol it spoke. */

type Json = Record<string, unknown>;
const list = (value: unknown): Json[] => (Array.isArray(value) ? (value as Json[]) : []);
const textsOf = (value: unknown): string[] =>
  typeof value === 'string'
    ? [value]
    : list(value).flatMap((part) => (typeof part.text === 'string' ? [part.text] : []));

/** The system prompt the model was given. */
export function systemPromptOf(request: ReceivedRequest | undefined): string {
  const body = request?.body ?? {};
  if (request?.protocol === 'anthropic') return textsOf(body.system).join('\n');
  if (request?.protocol === 'google') return textsOf((body.systemInstruction as Json | undefined)?.parts).join('\n');
  return list(body.messages)
    .filter((message) => message.role === 'system')
    .flatMap((message) => textsOf(message.content))
    .join('\n');
}

/** The names of the tools the model was offered. */
export function toolsOfferedIn(request: ReceivedRequest | undefined): string[] {
  const body = request?.body ?? {};
  if (request?.protocol === 'anthropic') return list(body.tools).map((tool) => String(tool.name));
  if (request?.protocol === 'google') {
    return list(body.tools).flatMap((tool) =>
      list(tool.functionDeclarations).map((declaration) => String(declaration.name)),
    );
  }
  return list(body.tools).map((tool) => String((tool.function as Json | undefined)?.name));
}

/** The tool results sent back to the model, each as JSON text. */
export function toolResultsIn(request: ReceivedRequest | undefined): string[] {
  const body = request?.body ?? {};
  if (request?.protocol === 'anthropic') {
    return list(body.messages).flatMap((message) =>
      list(message.content)
        .filter((part) => part.type === 'tool_result')
        .map((part) => JSON.stringify(part.content)),
    );
  }
  if (request?.protocol === 'google') {
    return list(body.contents).flatMap((content) =>
      list(content.parts).flatMap((part) => (part.functionResponse ? [JSON.stringify(part.functionResponse)] : [])),
    );
  }
  return list(body.messages)
    .filter((message) => message.role === 'tool')
    .map((message) => (typeof message.content === 'string' ? message.content : JSON.stringify(message.content)));
}
