/**
 * Dev Copilot OCR figures: how long reading the text of a terminal screenshot takes, at three screen sizes. The first
 * read of each size starts a fresh engine (what the first question with an image after a restart pays); then the
 * median of five reads on the warm engine. Prints figures only; it never fails on a number.
 */
import { createImageTextReader } from '../server/src/copilot/ocr/image-text-reader.js';
import { renderTerminalScreenshots, type ScreenshotOptions } from '../server/test-support/fixtures/screenshots.js';

const sizes: Array<{ label: string; options: ScreenshotOptions }> = [
  { label: 'terminal snippet   900 x 220', options: { width: 900, height: 220 } },
  { label: 'window 1280 x 720 (HiDPI 2x)', options: { width: 1280, height: 720, scale: 2 } },
  { label: 'full screen      1920 x 1080', options: { width: 1920, height: 1080 } },
];
const runs = 5;

const screenshots = await renderTerminalScreenshots(sizes.map((size) => size.options));
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

console.log('Dev Copilot OCR figures (tesseract.js, English, one engine)');
for (const [index, size] of sizes.entries()) {
  const image = { contentType: 'image/png', bytes: screenshots[index] ?? Buffer.alloc(0) };
  const reader = createImageTextReader();
  try {
    let started = performance.now();
    const { text } = await reader.read(image);
    const first = performance.now() - started;
    const times: number[] = [];
    for (let run = 0; run < runs; run++) {
      started = performance.now();
      await reader.read(image);
      times.push(performance.now() - started);
    }
    console.log(
      `  ${size.label}  first ${first.toFixed(0).padStart(5)} ms (with engine start), then median ${median(times).toFixed(0).padStart(5)} ms of ${runs}; ${(image.bytes.length / 1024).toFixed(0)} KB PNG, ${text.length} characters read`,
    );
  } finally {
    await reader.close();
  }
}
