import { useAui } from '@assistant-ui/react';
import { type RefObject, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { type QueuedQuestion, takeDraft } from '../Launcher/draft';
import { ImageAttachmentAdapter } from '../runtime/image-attachment-adapter';

/** The queued question's images as a sent message carries them: checked and read by the composer's own adapter. */
function completedAttachments(files: readonly File[]) {
  const adapter = new ImageAttachmentAdapter();
  return Promise.all(files.map(async (file) => adapter.send(await adapter.add({ file }))));
}

type Caret = { text: string; start: number; end: number };

/**
 * When the real composer mounts, it takes over what the reader wrote in the light chat of the first moments
 * (Launcher/ChatShell): the text with its caret where it was, the files as attachments, and a question already sent
 * there is asked once `canAsk` (the conversation on screen takes questions).
 */
export function useDraftHandover(input: RefObject<HTMLTextAreaElement | null>, canAsk: boolean) {
  const aui = useAui();
  const caret = useRef<Caret | null>(null);
  const [queued, setQueued] = useState<QueuedQuestion | null>(null);
  // Layout effects: the text is in the composer in the first frame it is painted, never a frame without it.
  useLayoutEffect(() => {
    const draft = takeDraft();
    if (!draft) return;
    aui.composer.setText(draft.text);
    for (const file of draft.files) void aui.composer.addAttachment(file);
    caret.current = { text: draft.text, start: draft.selectionStart, end: draft.selectionEnd };
    setQueued(draft.queued);
  }, [aui]);
  useLayoutEffect(() => {
    const field = input.current;
    const wanted = caret.current;
    // The composer renders the text a commit after it is set; the caret goes where it was once the text is there.
    if (!field || !wanted || field.value !== wanted.text) return;
    caret.current = null;
    field.focus();
    field.setSelectionRange(wanted.start, wanted.end);
  });
  useEffect(() => {
    if (!queued || !canAsk) return;
    setQueued(null);
    void completedAttachments(queued.files).then((attachments) =>
      aui.thread.append({ role: 'user', content: [{ type: 'text', text: queued.text }], attachments }),
    );
  }, [aui, queued, canAsk]);
}
