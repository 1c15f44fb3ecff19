import { describe, expect, it } from 'vitest';
import { normalizeOcrText } from './ocr-text.js';

describe('normalizeOcrText', () => {
  it('collapses spaces within lines and drops blank lines', () => {
    expect(normalizeOcrText('npm  ERR!\tcode E401\n\n\n  npm ERR! 401 Unauthorized  \r\n')).toBe(
      'npm ERR! code E401\nnpm ERR! 401 Unauthorized',
    );
  });

  it('drops noise lines: two characters or fewer, or no letter or digit', () => {
    expect(normalizeOcrText('|\nX\n—— | ——\n>_\nok\nError: boom\n 12\n€ 100')).toBe('Error: boom\n€ 100');
  });

  it('gives empty text for nothing but noise', () => {
    expect(normalizeOcrText(' \n|\n\f\n')).toBe('');
  });

  it('cuts long text at a word or line boundary within the limit', () => {
    const text = normalizeOcrText(`${'word '.repeat(30)}\n${'more '.repeat(30)}`, 100);
    expect(text.length).toBeLessThanOrEqual(100);
    expect(text.endsWith('word') || text.endsWith('more')).toBe(true);
    expect(normalizeOcrText('x'.repeat(5000))).toHaveLength(2000);
  });
});
