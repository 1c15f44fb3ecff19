import { allowedImageTypes, maxImageBytes } from '@acme/contract';
import type { AttachmentAdapter, CompleteAttachment, PendingAttachment } from '@assistant-ui/react';
import { imageTypeOf, signatureBytes } from './image-signature';

const megabytes = (bytes: number) => `${(bytes / 1_048_576).toFixed(1)} MB`;

/** Why a file cannot be attached, in words the reader can act on; null when it can. */
export function refusalOf(file: { name: string; type: string; size: number }): string | null {
  if (!(allowedImageTypes as readonly string[]).includes(file.type)) {
    return `${file.name} is not an image Dev Copilot can read. Attach a PNG, JPEG, GIF or WebP image.`;
  }
  if (file.size > maxImageBytes) {
    return `${file.name} is ${megabytes(file.size)}; an image can be at most 5 MB. Crop it or save it as JPEG.`;
  }
  return null;
}

/**
 * The image type the file's bytes say it is, or why it cannot be attached (a renamed .png only claims to be an
 * image). The light composer shown while the chat loads checks files with this too.
 */
export async function checkImage(file: File): Promise<{ contentType: string } | { refusal: string }> {
  const refusal = refusalOf(file);
  if (refusal) return { refusal };
  const contentType = imageTypeOf(new Uint8Array(await file.slice(0, signatureBytes).arrayBuffer()));
  if (contentType) return { contentType };
  return {
    refusal: `${file.name} is not really an image: its contents are not PNG, JPEG, GIF or WebP. Attach a screenshot saved in one of those formats.`,
  };
}

const readAsDataUrl = (file: File) =>
  new Promise<string>((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error ?? new Error(`${file.name} could not be read.`));
    reader.readAsDataURL(file);
  });

/** The data URL under the type the bytes were found to have (a JPEG saved as .png is sent as the JPEG it is). */
const withType = (dataUrl: string, contentType: string) => dataUrl.replace(/^data:[^;,]*/, `data:${contentType}`);

/** Images only, their bytes checked as they are attached, before anything is sent; on send the image becomes a data URL (spec sections 3 and 4). */
export class ImageAttachmentAdapter implements AttachmentAdapter {
  accept = 'image/*';
  private readonly idsGiven = new Set<string>();

  /**
   * The file name, as the spec has it, made unique and never given twice: every pasted screenshot is called
   * image.png, and attachments sharing an id replace each other (an edit keeps its message's attachments).
   */
  private idFor(name: string): string {
    let id = name;
    for (let copy = 2; this.idsGiven.has(id); copy++) id = `${name} (${copy})`;
    this.idsGiven.add(id);
    return id;
  }

  async add({ file }: { file: File }): Promise<PendingAttachment> {
    const checked = await checkImage(file);
    if ('refusal' in checked) throw new Error(checked.refusal);
    return {
      id: this.idFor(file.name),
      type: 'image',
      name: file.name,
      contentType: checked.contentType,
      file,
      status: { type: 'requires-action', reason: 'composer-send' },
    };
  }

  async send(attachment: PendingAttachment): Promise<CompleteAttachment> {
    return {
      ...attachment,
      status: { type: 'complete' },
      content: [
        {
          type: 'image',
          image: withType(await readAsDataUrl(attachment.file), attachment.contentType ?? attachment.file.type),
          filename: attachment.name,
        },
      ],
    };
  }

  async remove(): Promise<void> {}
}
