import type { KeyboardEvent } from 'react';

/**
 * Safari sends the Enter that confirms an input-method word after compositionend, no longer marked as composing but
 * with keyCode 229; that Enter picks the word and must not send the message.
 */
export function ignoreInputMethodEnter(event: KeyboardEvent<HTMLTextAreaElement>) {
  if (event.key === 'Enter' && !event.nativeEvent.isComposing && event.nativeEvent.keyCode === 229) {
    event.preventDefault();
  }
}
