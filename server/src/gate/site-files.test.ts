import { describe, expect, it } from 'vitest';
import { isPageAddress, resolveSitePath, takesToken } from './site-files.js';

const files = new Set([
  '/index.html',
  '/404.html',
  '/coding-standard/index.html',
  '/backend-dev-rdr/index.html',
  '/Development Resources/shopify-auth-managed-migration/index.html',
  '/assets/js/main.1a2b3c.js',
  '/search-index.json',
]);

describe('resolveSitePath', () => {
  it.each([
    ['/', '/index.html'],
    ['/coding-standard/', '/coding-standard/index.html'],
    ['/coding-standard', '/coding-standard/index.html'],
    ['/backend-dev-rdr', '/backend-dev-rdr/index.html'],
    [
      '/Development%20Resources/shopify-auth-managed-migration',
      '/Development Resources/shopify-auth-managed-migration/index.html',
    ],
    ['/assets/js/main.1a2b3c.js', '/assets/js/main.1a2b3c.js'],
    ['/search-index.json', '/search-index.json'],
  ])('serves %s from %s', (requestPath, file) => {
    expect(resolveSitePath(requestPath, files)).toEqual({ kind: 'file', file });
  });

  it.each([
    ['/coding-standard/index.html', '/coding-standard/'],
    ['/backend-dev-rdr.html', '/backend-dev-rdr'],
    ['/index.html', '/'],
    [
      '/Development%20Resources/shopify-auth-managed-migration.html',
      '/Development%20Resources/shopify-auth-managed-migration',
    ],
  ])('strips %s to %s', (requestPath, location) => {
    expect(resolveSitePath(requestPath, files)).toEqual({ kind: 'redirect', location });
  });

  it.each([
    '/nope',
    '/coding-standard/nope',
    '/backend-dev-rdr/nope',
    '/coding-standard%2F',
    '/coding-standard%2findex.html',
  ])('has no page at %s', (requestPath) => {
    expect(resolveSitePath(requestPath, files)).toEqual({ kind: 'not-found' });
  });

  describe("with the pages' canonical addresses", () => {
    const canonicalPaths = new Map([
      ['/index.html', '/'],
      ['/coding-standard/index.html', '/coding-standard/'],
      ['/backend-dev-rdr/index.html', '/backend-dev-rdr'],
      [
        '/Development Resources/shopify-auth-managed-migration/index.html',
        '/Development Resources/shopify-auth-managed-migration',
      ],
    ]);
    const resolve = (requestPath: string) => resolveSitePath(requestPath, files, canonicalPaths);

    it.each([
      ['/', '/index.html'],
      ['/coding-standard/', '/coding-standard/index.html'],
      ['/backend-dev-rdr', '/backend-dev-rdr/index.html'],
      [
        '/Development%20Resources/shopify-auth-managed-migration',
        '/Development Resources/shopify-auth-managed-migration/index.html',
      ],
      ['/assets/js/main.1a2b3c.js', '/assets/js/main.1a2b3c.js'],
    ])('serves %s, its one address', (requestPath, file) => {
      expect(resolve(requestPath)).toEqual({ kind: 'file', file });
    });

    it.each([
      ['/coding-standard', '/coding-standard/'],
      ['/backend-dev-rdr/', '/backend-dev-rdr'],
      ['/backend-dev-rdr/index.html', '/backend-dev-rdr'],
      ['/coding-standard.html', '/coding-standard/'],
      [
        '/Development%20Resources/shopify-auth-managed-migration/',
        '/Development%20Resources/shopify-auth-managed-migration',
      ],
    ])('redirects %s to %s', (requestPath, location) => {
      expect(resolve(requestPath)).toEqual({ kind: 'redirect', location });
    });

    it('never redirects an address to itself or off the site', () => {
      for (const canonical of canonicalPaths.values()) {
        expect(resolve(encodeURI(canonical)).kind).toBe('file');
      }
      for (const requestPath of [
        '//coding-standard',
        '//evil.example/',
        '/%2F%2Fevil.example/',
        '/assets/js/main.1a2b3c.js/',
      ]) {
        expect(resolve(requestPath)).toEqual({ kind: 'not-found' });
      }
    });
  });

  it("encodes what a name holds that would change a redirect's meaning", () => {
    expect(resolveSitePath('/a%3Fb%23c.html', files)).toEqual({ kind: 'redirect', location: '/a%3Fb%23c' });
  });

  it('rejectsProtocolRelativeRedirectTargets', () => {
    expect(resolveSitePath('//evil.example/index.html', files)).toEqual({ kind: 'not-found' });
    expect(resolveSitePath('/%2Fevil.example.html', files)).toEqual({ kind: 'not-found' });
  });

  it.each([
    ['/../etc/passwd', 'rejectsDotDotSegments'],
    ['/%2e%2e/etc/passwd', 'rejectsEncodedDotDotSegments'],
    ['/assets/..%2f..%2fpackage.json', 'rejectsEncodedSlashTraversal'],
    ['/a%5c..%5cpackage.json', 'rejectsBackslashes'],
    ['/index.html%00.js', 'rejectsNulBytes'],
    ['/%E0%A4%A', 'rejectsMalformedPercentEncoding'],
  ])('%s: %s', (requestPath) => {
    expect(resolveSitePath(requestPath, files).kind).toBe('bad-request');
  });
});

describe('isPageAddress', () => {
  const dotted = new Set([...files, '/setup/node.js/index.html', '/guides/v2.1/index.html', '/setup/node.js.md']);
  const canonicalPaths = new Map([
    ['/setup/node.js/index.html', '/setup/node.js'],
    ['/guides/v2.1/index.html', '/guides/v2.1/'],
  ]);
  const isPage = (requestPath: string) => isPageAddress(requestPath, dotted, canonicalPaths);

  it.each(['/setup/node.js', '/guides/v2.1/', '/guides/v2.1', '/setup/node.js/', '/setup/node.js.html', '/'])(
    'takes %s for a page, though its last segment has a dot',
    (requestPath) => expect(isPage(requestPath)).toBe(true),
  );

  it.each([
    ['/assets/js/main.1a2b3c.js', 'rejectsAScriptOfTheBuild'],
    ['/search-index.json', 'rejectsADataFileOfTheBuild'],
    ['/setup/node.js.md', 'rejectsTheMarkdownTwinItself'],
    ['/setup/nope.js', 'rejectsAnAddressWithNoPage'],
    ['/setup/%2e%2e/setup/node.js', 'rejectsEncodedDotDotSegments'],
    ['/setup/node.js/..', 'rejectsATrailingDotDotSegment'],
    ['/setup/node.js%2f..%2f..%2fassets/js/main.1a2b3c.js', 'rejectsEncodedSlashTraversal'],
    ['/setup/node.js%00', 'rejectsNulBytes'],
    ['/setup/node.js%5c', 'rejectsBackslashes'],
    ['//setup/node.js', 'rejectsAnEmptySegment'],
  ])('%s: %s', (requestPath) => expect(isPage(requestPath)).toBe(false));

  it.each(['/setup/node.js/..', '/setup/node.js%2f..%2fx', '/setup/node.js%00'])(
    'takes a token at %s, which the site refuses to everyone (400, not "send a token")',
    (requestPath) => expect(takesToken(requestPath, dotted, canonicalPaths)).toBe(true),
  );

  it('never takes a token at a script of the build', () => {
    expect(takesToken('/assets/js/main.1a2b3c.js', dotted, canonicalPaths)).toBe(false);
  });
});
