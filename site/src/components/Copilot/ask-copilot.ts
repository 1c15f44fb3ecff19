/**
 * Lets any part of the site (search, "Ask about this page") hand Dev Copilot a question, whether or not its chat
 * code has loaded yet: the question waits here until the chat takes it.
 */
type Listener = () => void;

let pendingQuestion: string | null = null;
const listeners = new Set<Listener>();

export function askCopilot(question: string): void {
  pendingQuestion = question;
  for (const listener of listeners) listener();
}

/** The waiting question, once: whoever takes it sends it. */
export function takePendingQuestion(): string | null {
  const question = pendingQuestion;
  pendingQuestion = null;
  return question;
}

export function hasPendingQuestion(): boolean {
  return pendingQuestion !== null;
}

export function onCopilotQuestion(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
