import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { readDocSections } from '../search/sections.js';
import { canonicalPathOf } from './canonical-paths.js';

const page = (link: string) =>
  `<!doctype html><html><head><link rel=icon href=/img/favicon.svg />${link}</head></html>`;

describe('canonicalPathOf', () => {
  it.each([
    [
      '/coding-standard/index.html',
      '<link data-rh=true rel=canonical href=http://localhost:3000/coding-standard/ />',
      '/coding-standard/',
    ],
    [
      '/firestore-ttl/index.html',
      '<link data-rh=true rel=canonical href=http://localhost:3000/firestore-ttl />',
      '/firestore-ttl',
    ],
    ['/index.html', '<link rel="canonical" href="https://docs.acme.dev/">', '/'],
    [
      '/Development Resources/x/index.html',
      '<link data-rh=true rel=canonical href="http://localhost:3000/Development Resources/x"/>',
      '/Development Resources/x',
    ],
    ['/tags/wsl/index.html', "<link href='/tags/wsl' rel='Canonical'>", '/tags/wsl'],
    [
      '/Ärzte/über uns/index.html',
      '<link rel=canonical href="http://localhost:3000/%C3%84rzte/%C3%BCber%20uns/">',
      '/Ärzte/über uns/',
    ],
    ['/été/index.html', '<link rel=canonical href="/été">', '/été'],
  ])('reads %s as Docusaurus writes it, from its text or its bytes', (file, link, expected) => {
    expect(canonicalPathOf(file, page(link))).toBe(expected);
    expect(canonicalPathOf(file, Buffer.from(`<p>Grüße ☕</p>${page(link)}`))).toBe(expected);
  });

  it.each([
    ['a page without one', '/faqs/index.html', '<link rel=alternate href=/faqs/ />'],
    ['another page', '/faqs/index.html', '<link rel=canonical href=/coding-standard/ />'],
    ['a parent folder', '/faqs/x/index.html', '<link rel=canonical href=/faqs/ />'],
    ['a broken escape', '/faqs/index.html', '<link rel=canonical href=/faqs%E0%A4%A />'],
    ['the root, for another page', '/faqs/index.html', '<link rel=canonical href=/ />'],
    ['a file that is not an index', '/404.html', '<link rel=canonical href=/404.html />'],
  ])('takes nothing from %s', (_name, file, link) => {
    expect(canonicalPathOf(file, page(link))).toBeUndefined();
  });

  it('takes only the path: the host is the url in docusaurus.config, not where the site is served', () => {
    expect(canonicalPathOf('/faqs/index.html', page('<link rel=canonical href=//evil.example/faqs/ />'))).toBe(
      '/faqs/',
    );
  });
});

describe('the search index and the gate on the built site', () => {
  const siteDirectory = fileURLToPath(new URL('../../../site/build', import.meta.url));
  const pageUrls = [...new Set(readDocSections(siteDirectory).map((section) => section.pageUrl))];
  const pageHtml = (pageUrl: string) =>
    readFileSync(path.join(siteDirectory, decodeURI(pageUrl), 'index.html'), 'utf8');

  it('link each page at the one address the server answers at, never the spelling it redirects', () => {
    const addresses = pageUrls.map((url) =>
      canonicalPathOf(`${decodeURI(url).replace(/\/$/, '')}/index.html`, pageHtml(url)),
    );
    expect(addresses).toContain('/coding-standard/');
    expect(addresses).toContain('/firestore-ttl');
    expect(pageUrls.filter((url, index) => decodeURI(url) !== (addresses[index] ?? decodeURI(url)))).toEqual([]);
  });
});
