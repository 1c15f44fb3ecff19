import { ActionBarPrimitive, AuiIf, useAuiState } from '@assistant-ui/react';
import { type ReactNode, useState } from 'react';
import { useCopilotActions } from '../useCopilotActions';
import styles from './AssistantActionBar.module.css';
import { FeedbackReason } from './FeedbackReason';
import { Icon } from './icons';
import { TooltipButton } from './TooltipButton';
import { useCanSpeak } from './useCanSpeak';
import { useCopyAnswer } from './useCopyAnswer';

/**
 * Copy (links made absolute, useCopyAnswer), Read aloud / Stop, Refresh, Good / Bad response. Each is left out when
 * the site config switches it off, and Read aloud also when the browser cannot speak (no speech synthesis, or no voice
 * yet). An answer without a word (the reader stopped it before any came) has nothing to copy, hear or rate: it keeps
 * Refresh only.
 */
export function AssistantActionBar(): ReactNode {
  const actions = useCopilotActions();
  const canSpeak = useCanSpeak();
  const rated = useAuiState((s) => s.message.metadata.submittedFeedback?.type);
  const hasText = useAuiState((s) => s.message.content.some((part) => part.type === 'text' && part.text.trim() !== ''));
  const isCopied = useAuiState((s) => s.message.isCopied);
  const copyAnswer = useCopyAnswer();
  // Each press of Bad response takes the reader to the reason field, so what they type next is the reason.
  const [badResponsePresses, setBadResponsePresses] = useState(0);
  return (
    <>
      <ActionBarPrimitive.Root
        hideWhenRunning
        autohide="never"
        className={styles.actionBar}
        data-testid="copilot-actions"
      >
        {actions.allowCopy && hasText && (
          <TooltipButton tooltip="Copy" onClick={copyAnswer} {...(isCopied ? { 'data-copied': 'true' } : {})}>
            {isCopied ? <Icon name="check" /> : <Icon name="copy" />}
          </TooltipButton>
        )}
        {actions.allowSpeak && canSpeak && hasText && (
          <AuiIf condition={(s) => s.thread.capabilities.speech}>
            <AuiIf condition={(s) => s.message.speech === undefined}>
              <ActionBarPrimitive.Speak asChild>
                <TooltipButton tooltip="Read aloud">
                  <Icon name="speak" />
                </TooltipButton>
              </ActionBarPrimitive.Speak>
            </AuiIf>
            <AuiIf condition={(s) => s.message.speech !== undefined}>
              <ActionBarPrimitive.StopSpeaking asChild>
                <TooltipButton tooltip="Stop">
                  <Icon name="mute" />
                </TooltipButton>
              </ActionBarPrimitive.StopSpeaking>
            </AuiIf>
          </AuiIf>
        )}
        {actions.allowReload && (
          <ActionBarPrimitive.Reload asChild>
            <TooltipButton tooltip="Refresh">
              <Icon name="refresh" />
            </TooltipButton>
          </ActionBarPrimitive.Reload>
        )}
        {actions.allowFeedbackPositive && hasText && (
          <ActionBarPrimitive.FeedbackPositive asChild>
            <TooltipButton tooltip="Good response" aria-pressed={rated === 'positive'}>
              <Icon name="thumbsUp" />
            </TooltipButton>
          </ActionBarPrimitive.FeedbackPositive>
        )}
        {actions.allowFeedbackNegative && hasText && (
          <ActionBarPrimitive.FeedbackNegative asChild onClick={() => setBadResponsePresses((presses) => presses + 1)}>
            <TooltipButton tooltip="Bad response" aria-pressed={rated === 'negative'}>
              <Icon name="thumbsDown" />
            </TooltipButton>
          </ActionBarPrimitive.FeedbackNegative>
        )}
        {/* Said in words, on screen and to screen readers, for as long as the copied state lasts (an icon swap alone
            is seen by few and heard by none). Always present, so screen readers watch it before it speaks. */}
        {actions.allowCopy && hasText && (
          <span role="status" className={styles.copied} data-testid="copied-notice">
            <AuiIf condition={(s) => s.message.isCopied}>Copied</AuiIf>
          </span>
        )}
      </ActionBarPrimitive.Root>
      {actions.allowFeedbackNegative && rated === 'negative' && <FeedbackReason focusRequests={badResponsePresses} />}
    </>
  );
}
