import { describe, expect, it } from 'vitest';
import { acceptsApplicationToken, acceptsPersonalToken } from './token-scope.js';

describe('where a token counts', () => {
  it.each([
    '/faqs/',
    '/faqs',
    '/',
    '/Development Resources/shopify-auth-managed-migration',
    '/firestore-ttl.html',
    '/firestore-ttl/index.html',
    '/firestore-ttl.md',
    '/llms.txt',
  ])('reads %s of the site (as Markdown)', (path) => {
    expect(acceptsPersonalToken('GET', '/*', path)).toBe(true);
  });

  it.each(['/assets/js/main.js', '/img/logo.svg', '/sitemap.xml', '/assets/css/styles.css'])(
    'not the browser file %s',
    (path) => {
      expect(acceptsPersonalToken('GET', '/*', path)).toBe(false);
    },
  );

  it('writes nothing, and reads only the listed APIs', () => {
    expect(acceptsPersonalToken('POST', '/*', '/faqs/')).toBe(false);
    expect(acceptsPersonalToken('POST', '/api/askAi', '/api/askAi')).toBe(true);
    expect(acceptsPersonalToken('DELETE', '/api/threads/:id', '/api/threads/x')).toBe(false);
    expect(acceptsPersonalToken('GET', '/api/tokens', '/api/tokens')).toBe(false);
    expect(acceptsApplicationToken('/api/threads')).toBe(false);
    expect(acceptsApplicationToken('/api/search')).toBe(true);
  });

  it('reads the insights page (to answer "No Markdown version"), not its API, and writes nothing there', () => {
    for (const route of ['/insights', '/insights/', '/insights/*', '/insights.html']) {
      expect(acceptsPersonalToken('GET', route, route)).toBe(true);
      expect(acceptsPersonalToken('POST', route, route)).toBe(false);
    }
    expect(acceptsPersonalToken('GET', '/api/insights', '/api/insights')).toBe(false);
  });
});
