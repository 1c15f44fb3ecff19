import { useAui } from '@assistant-ui/react';
import { type RefObject, useEffect, useLayoutEffect } from 'react';
import { takeDraft, takeQueuedQuestion } from '../Launcher/draft';
import { useDraft } from '../Launcher/useDraft';
import { ImageAttachmentAdapter } from '../runtime/image-attachment-adapter';

/** The queued question's images as a sent message carries them: checked and read by the composer's own adapter. */
function completedAttachments(files: readonly File[]) {
  const adapter = new ImageAttachmentAdapter();
  return Promise.all(files.map(async (file) => adapter.send(await adapter.add({ file }))));
}

type Caret = { text: string; start: number; end: number };

/** Where the caret goes once the text taken over is in the field. Outside React: the composer may mount twice. */
let pendingCaret: Caret | null = null;

/**
 * When the real composer mounts, it takes over what the reader wrote in the light composer of the first moments
 * (Launcher/ShellComposer): the text with its caret where it was, the files as attachments, and a question already
 * sent there is asked once `canAsk` (the conversation on screen takes questions).
 */
export function useDraftHandover(input: RefObject<HTMLTextAreaElement | null>, canAsk: boolean) {
  const aui = useAui();
  // A layout effect: the text is in the composer in the first frame it is painted, never a frame without it.
  useLayoutEffect(() => {
    const draft = takeDraft();
    if (!draft) return;
    aui.composer.setText(draft.text);
    for (const file of draft.files) void aui.composer.addAttachment(file);
    pendingCaret = { text: draft.text, start: draft.selectionStart, end: draft.selectionEnd };
  }, [aui]);
  useEffect(() => {
    const wanted = pendingCaret;
    if (!wanted) return;
    // Frames later: the text is drawn a commit after it is set, and the input's own focus effect puts the caret at
    // the end first.
    let frame = 0;
    let framesLeft = 10;
    const place = () => {
      const field = input.current;
      if (pendingCaret !== wanted) return;
      if (!field || field.value !== wanted.text) {
        if (--framesLeft > 0) frame = requestAnimationFrame(place);
        return;
      }
      pendingCaret = null;
      field.focus();
      field.setSelectionRange(wanted.start, wanted.end);
    };
    frame = requestAnimationFrame(place);
    return () => cancelAnimationFrame(frame);
  }, [input]);
  const hasQueued = useDraft().queued !== null;
  useEffect(() => {
    if (!hasQueued || !canAsk) return;
    const queued = takeQueuedQuestion();
    if (!queued) return;
    void completedAttachments(queued.files).then((attachments) =>
      aui.thread.append({ role: 'user', content: [{ type: 'text', text: queued.text }], attachments }),
    );
  }, [aui, hasQueued, canAsk]);
}
