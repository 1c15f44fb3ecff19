import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { safeReturnPath } from './return-path.js';

describe('safeReturnPath', () => {
  it.each([
    ['/', '/'],
    ['/faqs/', '/faqs/'],
    [
      '/Development%20Resources/shopify-auth-managed-migration',
      '/Development%20Resources/shopify-auth-managed-migration',
    ],
    ['/search?q=webhook', '/search?q=webhook'],
    ['/coding-standard/#naming', '/coding-standard/#naming'],
    ['/faqs/?x=1#top', '/faqs/?x=1#top'],
    ['/@evil.com', '/@evil.com'],
    ['/faqs/../coding-standard/', '/coding-standard/'],
    ['/search?q="x"', '/search?q=%22x%22'],
    ['/authors/', '/authors/'],
    ['/blog/auth/', '/blog/auth/'],
  ])('keeps the same-origin path %j as %j', (candidate, expected) => {
    expect(safeReturnPath(candidate)).toBe(expected);
  });

  it.each([
    ['rejectsProtocolRelativeUrl', '//evil.com'],
    ['rejectsTripleSlash', '///evil.com'],
    ['rejectsProtocolRelativeUrlWithCredentials', '//evil.com@acme.dev'],
    ['rejectsProtocolRelativeUrlWithEncodedHost', '//%65vil.com'],
    ['rejectsSlashBackslash', '/\\evil.com'],
    ['rejectsSlashDoubleBackslash', '/\\\\evil.com'],
    ['rejectsDoubleBackslash', '\\\\evil.com'],
    ['rejectsBackslashLaterInPath', '/faqs\\..\\..\\evil.com'],
    ['rejectsEncodedTabBetweenSlashes', '/%09/evil.com'],
    ['rejectsEncodedNewlineBetweenSlashes', '/%0a/evil.com'],
    ['rejectsEncodedCarriageReturn', '/%0d/evil.com'],
    ['rejectsEncodedNul', '/faqs/%00'],
    ['rejectsEncodedSlashes', '/%2F%2Fevil.com'],
    ['rejectsLowerCaseEncodedSlashes', '/%2f%2fevil.com'],
    ['rejectsEncodedBackslash', '/%5cevil.com'],
    ['rejectsEncodedDoubleBackslash', '/%5C%5Cevil.com'],
    ['rejectsEncodedBackslashInQuery', '/faqs/?next=%5C'],
    ['rejectsEncodedPathWithoutLeadingSlash', '%2F%2Fevil.com'],
    ['rejectsDoubleEncodedSlashesThatDecodeToEncoded', '%252F%252Fevil.com'],
    ['rejectsBrokenPercentEncoding', '/faqs/%E0%A4%A'],
    ['rejectsLonePercentSign', '/100%'],
    ['rejectsSchemeWithoutSlashes', 'https:evil.com'],
    ['rejectsAbsoluteUrl', 'https://evil.com'],
    ['rejectsSchemeWithOneSlash', 'http:/evil.com'],
    ['rejectsJavascriptUrl', 'javascript:alert(1)'],
    ['rejectsMixedCaseJavascriptUrl', 'JaVaScRiPt:alert(1)'],
    ['rejectsDataUrl', 'data:text/html,x'],
    ['rejectsRelativePath', 'faqs/'],
    ['rejectsEmptyString', ''],
    ['rejectsLeadingSpace', ' /faqs/'],
    ['rejectsTrailingNewline', '/faqs/\n'],
    ['rejectsTrailingCarriageReturn', '/faqs/\r'],
    ['rejectsTabBetweenSlashes', '/\t/evil.com'],
    ['rejectsSpaceInPath', '/faqs /'],
    ['rejectsNul', '/faqs\0'],
    ['rejectsDotSegmentThatResolvesToProtocolRelative', '/.//evil.com'],
    ['rejectsParentSegmentThatResolvesToProtocolRelative', '/..//evil.com'],
    ['rejectsNestedParentSegmentThatResolvesToProtocolRelative', '/faqs/..//evil.com'],
    ['rejectsEncodedDotSegmentThatResolvesToProtocolRelative', '/%2e%2e//evil.com'],
    ['rejectsFullwidthSolidus', '\uff0f\uff0fevil.com'],
    ['rejectsFractionSlashAfterSlash', '/\u2044evil.com'],
    ['rejectsVerticalKanaRepeatMark', '\u3031evil.com'],
    ['rejectsDivisionSlashAfterSlash', '/\u2215evil.com'],
    ['rejectsEncodedRightToLeftOverride', '/faqs/%E2%80%AE'],
    ['rejectsEncodedLineSeparator', '/faqs/%E2%80%A8'],
    ['rejectsSignInRoute', '/auth/sign-in'],
    ['rejectsSignInCallback', '/auth/callback?code=x'],
    ['rejectsSignInRouteWithoutTrailingSlash', '/auth'],
    ['rejectsUpperCaseSignInRoute', '/AUTH/sign-in'],
    ['rejectsEncodedSignInRoute', '/%61uth/sign-in'],
    ['rejectsSignInRouteReachedByDotSegments', '/faqs/../auth/sign-in'],
  ])('%s: %j', (_name, candidate) => {
    expect(safeReturnPath(candidate)).toBe('/');
  });

  it.each([
    ['rejectsNumber', 42],
    ['rejectsUndefined', undefined],
    ['rejectsNull', null],
    ['rejectsObject', { toString: () => '/faqs/' }],
    ['rejectsArray', ['/faqs/']],
    ['rejectsStringObject', new String('/faqs/')],
  ])('%s', (_name, candidate) => {
    expect(safeReturnPath(candidate)).toBe('/');
  });

  it.each([
    ['keepsPathOfTheMaximumLength', `/${'a'.repeat(2047)}`, `/${'a'.repeat(2047)}`],
    ['rejectsPathOverTheMaximumLength', `/${'a'.repeat(2048)}`, '/'],
    ['rejectsPathThatGrowsOverTheMaximumLengthWhenNormalised', `/?${'"'.repeat(1000)}`, '/'],
    ['rejectsVeryLongPath', `/${'a'.repeat(1_000_000)}`, '/'],
  ])('%s', (_name, candidate, expected) => {
    expect(safeReturnPath(candidate)).toBe(expected);
  });

  it.each([
    ['keepsSectionLink', '/firestore-ttl#turning-a-policy-off', '/firestore-ttl#turning-a-policy-off'],
    ['keepsPercentEncodedHeadingId', '/faqs/#%E6%97%A5%E6%9C%AC', '/faqs/#%E6%97%A5%E6%9C%AC'],
    ['keepsFragmentThatLooksLikeAnotherHost', '/faqs/#//evil.com', '/faqs/#//evil.com'],
    ['dropsOnlyAFragmentWithRawQuote', '/faqs/#a"onload=x', '/faqs/'],
    ['dropsOnlyAFragmentWithSpace', '/faqs/#a b', '/faqs/'],
    ['dropsOnlyAFragmentWithNewline', '/faqs/#a\r\nSet-Cookie:x=1', '/faqs/'],
    ['dropsOnlyAFragmentWithBrokenEscape', '/faqs/#%E6%9', '/faqs/'],
    ['dropsOnlyAFragmentWithBackslash', '/faqs/#\\evil.com', '/faqs/'],
    ['dropsOnlyASecondHash', '/faqs/#a#b', '/faqs/'],
    ['dropsOnlyAnEmptyFragment', '/faqs/#', '/faqs/'],
    ['keepsFragmentOfTheMaximumLength', `/faqs/#${'a'.repeat(256)}`, `/faqs/#${'a'.repeat(256)}`],
    ['dropsOnlyAFragmentOverTheMaximumLength', `/faqs/#${'a'.repeat(257)}`, '/faqs/'],
    ['stillRefusesAnUnsafePathBeforeAFragment', '//evil.com#x', '/'],
    ['stillRefusesTheSignInRouteBeforeAFragment', '/auth/callback#x', '/'],
  ])('%s', (_name, candidate, expected) => {
    expect(safeReturnPath(candidate)).toBe(expected);
  });

  it('never leaves the site, whatever mix of separators, dots and encodings it is given', () => {
    const pieces = ['/', '//', '\\', '.', '..', '%2f', '%2F', '%5c', '%2e', '%09', '%', '@', ':', '?', '#', 'https:'];
    pieces.push('evil.com', 'auth', 'a', '\t', '\u3002', '\u2044');
    const candidate = fc
      .tuple(fc.boolean(), fc.array(fc.constantFrom(...pieces), { minLength: 1, maxLength: 6 }))
      .map(([rooted, body]) => `${rooted ? '/' : ''}${body.join('')}`);
    let kept = 0;
    fc.assert(
      fc.property(candidate, (path) => {
        const result = safeReturnPath(path);
        expect(result, path).toMatch(/^\/(?![/\\])/);
        expect(new URL(result, 'https://docs.acme.dev').origin, path).toBe('https://docs.acme.dev');
        if (result !== '/') kept++;
      }),
      { numRuns: 20_000, seed: 1 },
    );
    expect(kept, 'enough candidates are kept for the check to mean something').toBeGreaterThan(1000);
  });
});
