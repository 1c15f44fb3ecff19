import { describe, expect, it } from 'vitest';
import { requestKind } from './request-kind.js';

describe('requestKind', () => {
  it.each([
    ['GET', '/', 'page'],
    ['GET', '/deployment', 'page'],
    ['GET', '/docs/setting-up/', 'page'],
    ['GET', '/faqs.html', 'page'],
    ['HEAD', '/v1.2/overview', 'page'],
    ['GET', '/assets/js/main.1a2b3c.js', 'asset'],
    ['GET', '/img/logo.svg', 'asset'],
    ['GET', '/sitemap.xml', 'asset'],
    ['GET', '/api/search', 'api'],
    ['POST', '/api/askAi', 'api'],
    ['DELETE', '/api/threads/t1', 'api'],
    ['GET', '/auth/login', 'sign-in'],
    ['GET', '/auth/callback', 'sign-in'],
    ['POST', '/auth/logout', 'sign-in'],
    ['GET', '/auth/assets/page.css', 'sign-in'],
    ['POST', '/dev-idp/token', 'sign-in'],
    ['GET', '/healthz', 'other'],
    ['GET', '/readyz', 'other'],
    ['POST', '/deployment', 'other'],
  ])('%s %s is counted as %s', (method, path, kind) => {
    expect(requestKind(method, path)).toBe(kind);
  });
});
