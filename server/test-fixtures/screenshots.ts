/**
 * Renders the screenshots that the OCR tests and `bench/ocr.ts` read: a terminal showing an error from our docs, drawn
 * by a real browser (Debian's chromium through playwright-core) so the text has a real capture's fonts and
 * antialiasing. `npx tsx server/test-fixtures/screenshots.ts` rewrites the committed fixtures.
 */
import { writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { type Browser, chromium } from 'playwright-core';
import { encodeGrayGif } from './gif.js';

/**
 * What a developer sees when their GitLab token is missing or expired. The handbook answers it in the
 * troubleshooting table of /getting-started-acme-cli/ (and in the FAQ entry "npm fails with E401 or 404").
 */
export const npmUnauthorizedError = [
  '$ npm i -g @acme/cli',
  'npm ERR! code E401',
  'npm ERR! 401 Unauthorized - GET https://gitlab.com/api/v4/groups/acme-apps/-/packages/npm/@acme%2fcli',
  'npm ERR! A complete log of this run can be found in: /home/dev/.npm/_logs/2026-11-20T09_14_03_512Z-debug-0.log',
] as const;

export type ScreenshotOptions = {
  width: number;
  height: number;
  /** 2 is a HiDPI ("retina") capture: the same layout with twice the pixels each way. */
  scale?: 1 | 2;
  /** PNG and JPEG come from the browser's screenshot, WebP from a canvas, GIF from our own grey-level encoder. */
  format?: 'png' | 'jpeg' | 'webp' | 'gif';
  /** An empty terminal, without even its title bar. */
  blank?: boolean;
};

const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;');

const terminalPage = (blank: boolean) => `<!doctype html>
<html><body style="margin:0;background:#1e1e1e;color:#d4d4d4;font:15px/1.5 'DejaVu Sans Mono',monospace">${
  blank
    ? ''
    : `<div style="padding:8px 16px;background:#252526;color:#ccc;font:12px 'DejaVu Sans',sans-serif">TERMINAL</div>
<pre style="margin:0;padding:12px 16px;white-space:pre-wrap;word-break:break-all">${npmUnauthorizedError
        .map((line) => (line.startsWith('npm ERR!') ? `<span style="color:#f48771">${escapeHtml(line)}</span>` : line))
        .join('\n')}</pre>`
}</body></html>`;

/** The flags of e2e/harness.ts `launchBrowser`, without importing the server that file starts. */
function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-sync'],
  });
}

/** Renders each screenshot in one browser session. */
export async function renderTerminalScreenshots(shots: readonly ScreenshotOptions[]): Promise<Buffer[]> {
  const browser = await launchChromium();
  try {
    const images: Buffer[] = [];
    for (const shot of shots) {
      const context = await browser.newContext({
        viewport: { width: shot.width, height: shot.height },
        deviceScaleFactor: shot.scale ?? 1,
      });
      const tab = await context.newPage();
      await tab.setContent(terminalPage(shot.blank ?? false));
      if (shot.format === 'jpeg') {
        images.push(await tab.screenshot({ type: 'jpeg', quality: 85 }));
      } else if (shot.format === 'webp' || shot.format === 'gif') {
        images.push(await convertInBrowser(tab, await tab.screenshot({ type: 'png' }), shot.format));
      } else {
        images.push(await tab.screenshot({ type: 'png' }));
      }
      await context.close();
    }
    return images;
  } finally {
    await browser.close();
  }
}

type Tab = Awaited<ReturnType<Awaited<ReturnType<Browser['newContext']>>['newPage']>>;

/** Chromium encodes WebP itself; for GIF it hands back grey levels, which `encodeGrayGif` packs. */
async function convertInBrowser(tab: Tab, png: Buffer, format: 'webp' | 'gif'): Promise<Buffer> {
  const result = await tab.evaluate(
    async ({ base64, format }) => {
      const bitmap = await createImageBitmap(await (await fetch(`data:image/png;base64,${base64}`)).blob());
      const canvas = document.createElement('canvas');
      canvas.width = bitmap.width;
      canvas.height = bitmap.height;
      const context = canvas.getContext('2d');
      if (!context) throw new Error('no 2d canvas');
      context.drawImage(bitmap, 0, 0);
      if (format === 'webp') return { width: 0, height: 0, data: canvas.toDataURL('image/webp', 0.9).split(',')[1] };
      const rgba = context.getImageData(0, 0, canvas.width, canvas.height).data;
      let gray = '';
      for (let index = 0; index < rgba.length; index += 4) {
        const level = Math.round(
          0.299 * (rgba[index] ?? 0) + 0.587 * (rgba[index + 1] ?? 0) + 0.114 * (rgba[index + 2] ?? 0),
        );
        gray += String.fromCharCode(level);
      }
      return { width: canvas.width, height: canvas.height, data: btoa(gray) };
    },
    { base64: png.toString('base64'), format },
  );
  const bytes = Buffer.from(result.data ?? '', 'base64');
  return format === 'webp' ? bytes : encodeGrayGif(result.width, result.height, bytes);
}

/** The committed fixtures: the error in every accepted format, at a normal and a HiDPI scale, and an empty terminal. */
export const fixtureScreenshots = [
  { file: 'npm-e401-terminal@2x.png', options: { width: 900, height: 220, scale: 2 } },
  { file: 'npm-e401-terminal.png', options: { width: 900, height: 220 } },
  { file: 'npm-e401-terminal.jpg', options: { width: 900, height: 220, format: 'jpeg' } },
  { file: 'npm-e401-terminal.webp', options: { width: 900, height: 220, format: 'webp' } },
  { file: 'npm-e401-terminal.gif', options: { width: 900, height: 220, format: 'gif' } },
  { file: 'blank-terminal.png', options: { width: 900, height: 220, blank: true } },
] as const satisfies ReadonlyArray<{ file: string; options: ScreenshotOptions }>;

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const images = await renderTerminalScreenshots(fixtureScreenshots.map((fixture) => fixture.options));
  for (const [index, fixture] of fixtureScreenshots.entries()) {
    const image = images[index] ?? Buffer.alloc(0);
    await writeFile(new URL(fixture.file, import.meta.url), image);
    console.log(`wrote server/test-fixtures/${fixture.file} (${image.length} bytes)`);
  }
}
