import { describe, expect, it } from 'vitest';
import { withoutUnfinishedLink } from '../src/components/Copilot/view/unfinished-link';

describe('withoutUnfinishedLink', () => {
  it('holds back a link still being written, with the bold marks around it', () => {
    expect(withoutUnfinishedLink('See [BigQuer')).toBe('See ');
    expect(withoutUnfinishedLink('See [BigQuery]')).toBe('See ');
    expect(withoutUnfinishedLink('See [BigQuery](/bigquery#part')).toBe('See ');
    expect(withoutUnfinishedLink('**[Firestore TTL › Cos')).toBe('');
  });

  it('shows a whole link and the text after it, and brackets that closed', () => {
    expect(withoutUnfinishedLink('See [BigQuery](/bigquery).')).toBe('See [BigQuery](/bigquery).');
    expect(withoutUnfinishedLink('See [BigQuery](/bigquery)')).toBe('See [BigQuery](/bigquery)');
    expect(withoutUnfinishedLink("allowedHosts: ['.dev'],")).toBe("allowedHosts: ['.dev'],");
    expect(withoutUnfinishedLink('No link here')).toBe('No link here');
  });
});
