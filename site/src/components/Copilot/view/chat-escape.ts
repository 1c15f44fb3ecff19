import { createContext } from 'react';

/**
 * What Escape does to the floating chat when a tooltip got the key first (a tooltip is the topmost layer, so the chat
 * never sees it): the chat's own rules decide whether it closes. Absent on the assistant page, which does not close.
 */
export const ChatEscape = createContext<((event: KeyboardEvent) => void) | null>(null);
