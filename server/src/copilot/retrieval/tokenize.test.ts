import { describe, expect, it } from 'vitest';
import { tokenize } from './tokenize.js';

describe('tokenize', () => {
  it('lower-cases, drops stop words and stems', () => {
    expect(tokenize('How do I create the TTL policies?')).toEqual(['creat', 'ttl', 'polici']);
  });

  it('stems inflections to the same term', () => {
    expect(tokenize('retries')).toEqual(tokenize('retry'));
    expect(tokenize('deploying')).toEqual(tokenize('deployed'));
  });

  it('keeps a hyphenated word whole and also indexes its parts', () => {
    expect(tokenize('app-bridge')).toEqual(['app-bridge', 'app', 'bridg']);
    expect(tokenize('e2-standard-4')).toEqual(['e2-standard-4', 'e2', 'standard', '4']);
  });

  it('keeps dotted file names and snake_case names searchable', () => {
    expect(tokenize('shopify.app.toml')).toEqual(['shopify.app.toml', 'shopifi', 'app', 'toml']);
    expect(tokenize('ttl_deletion_count')).toContain('delet');
  });

  it('keeps versions, numbers and tool names usable', () => {
    expect(tokenize('App Bridge v4')).toEqual(['app', 'bridg', 'v4']);
    expect(tokenize('gcloud returns 429')).toEqual(['gcloud', 'return', '429']);
  });

  it('does not glue a sentence-ending dot to the next word', () => {
    expect(tokenize('It ends. Next')).toEqual(['end', 'next']);
  });
});
