import { describe, expect, it } from 'vitest';
import { headingSlug, sectionOf } from './page-markdown.js';

const page = [
  '# Firestore TTL',
  'Intro.',
  '## Create a TTL policy',
  'Run gcloud.',
  '```bash',
  '## not a heading inside code',
  '```',
  '### Check it {#check-policy}',
  'Look at the console.',
  '## What a TTL delete does and does not do',
  'Deletes within 24 hours.',
].join('\n');

describe('a page as Markdown', () => {
  it('slugs headings the way the site makes their ids', () => {
    expect(headingSlug('What a TTL delete does and does not do')).toBe('what-a-ttl-delete-does-and-does-not-do');
    expect(headingSlug('Use `npm ci`, not install!')).toBe('use-npm-ci-not-install');
  });

  it('cuts one section with its subsections, skipping headings inside code', () => {
    expect(sectionOf(page, 'create-a-ttl-policy')).toBe(
      [
        '## Create a TTL policy',
        'Run gcloud.',
        '```bash',
        '## not a heading inside code',
        '```',
        '### Check it {#check-policy}',
        'Look at the console.',
      ].join('\n'),
    );
    expect(sectionOf(page, 'check-policy')).toBe('### Check it {#check-policy}\nLook at the console.');
    expect(sectionOf(page, 'what-a-ttl-delete-does-and-does-not-do')).toContain('24 hours');
  });

  it('finds no section for an anchor the page does not have', () => {
    expect(sectionOf(page, 'not-a-heading-inside-code')).toBeUndefined();
    expect(sectionOf(page, 'nothing')).toBeUndefined();
  });
});
