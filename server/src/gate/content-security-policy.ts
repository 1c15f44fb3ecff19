import { createHash } from 'node:crypto';
import { returnAnchorScriptHash } from '../auth/return-anchor.js';

const inlineScript = /<script(?![^>]*\b(?:src|type)=)[^>]*>([\s\S]*?)<\/script>/gi;

/**
 * The hashes of every inline script in the built pages (Docusaurus inlines its theme and announcement-bar bootstrap),
 * so the CSP can allow exactly those and no other inline script.
 */
export function inlineScriptHashes(pages: Iterable<string | Uint8Array>): string[] {
  const hashes = new Set<string>();
  for (const page of pages) {
    // A page's bytes are searched as Latin-1, one character per byte (decoding thousands of pages as UTF-8 was most of
    // a start's reading time), and a script's characters are hashed back as those very bytes: its UTF-8, as a browser
    // hashes it.
    const [html, encoding] =
      typeof page === 'string'
        ? [page, 'utf8' as const]
        : [Buffer.from(page.buffer, page.byteOffset, page.byteLength).toString('latin1'), 'latin1' as const];
    for (const match of html.matchAll(inlineScript)) {
      const body = match[1] ?? '';
      if (body.trim()) hashes.add(`'sha256-${createHash('sha256').update(body, encoding).digest('base64')}'`);
    }
  }
  return [...hashes].sort();
}

/** The built pages' inline scripts, and the gate page's own (it carries a section link's fragment through sign-in). */
export function contentSecurityPolicyDirectives(scriptHashes: readonly string[]) {
  return {
    defaultSrc: ["'self'"],
    scriptSrc: ["'self'", ...scriptHashes, returnAnchorScriptHash],
    styleSrc: ["'self'", "'unsafe-inline'"],
    imgSrc: ["'self'", 'data:'],
    fontSrc: ["'self'", 'data:'],
    connectSrc: ["'self'"],
    workerSrc: ["'self'", 'blob:'],
    objectSrc: ["'none'"],
    baseUri: ["'self'"],
    formAction: ["'self'"],
    frameAncestors: ["'none'"],
    upgradeInsecureRequests: null,
  };
}
