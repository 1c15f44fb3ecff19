import { maxImagesPerMessage } from '@acme/contract';
import type { ReactNode } from 'react';
import { Icon } from './icons';
import shared from './shared.module.css';

/**
 * What stops a question from being sent, in the same words in the light composer of the chat's first moments and in
 * the real one: why the last file was refused (until a file is accepted, a message sent or the notice dismissed) and
 * too many images.
 */
export function ComposerNotices({
  attachmentProblem,
  onDismiss,
  tooManyImages,
}: {
  attachmentProblem: string | null;
  onDismiss: () => void;
  tooManyImages: boolean;
}): ReactNode {
  return (
    <>
      {attachmentProblem && (
        <p className={shared.problem} role="alert" data-testid="attachment-error">
          {attachmentProblem}
          <button type="button" className="clean-btn" onClick={onDismiss} aria-label="Dismiss">
            <Icon name="close" size={12} />
          </button>
        </p>
      )}
      {tooManyImages && (
        <p className={shared.problem} role="alert" data-testid="too-many-images">
          A question can carry at most {maxImagesPerMessage} images: remove some to send it.
        </p>
      )}
    </>
  );
}
