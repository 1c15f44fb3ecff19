import { describe, expect, it } from 'vitest';
import { isAcceptableRedirectUri } from './redirect-uri.js';

describe('redirect URIs a coding agent may register', () => {
  it.each([
    'http://127.0.0.1:33418/callback',
    'http://localhost:8787/callback',
    'http://[::1]:9000/oauth/callback',
    'https://vscode.dev/redirect',
    'https://agent.example.com/oauth/callback?tenant=1',
    'cursor://anysphere.cursor-mcp/oauth/callback',
    'com.example.agent:/oauth2redirect',
    'vscode://vscode.github-authentication/did-authenticate',
    'io.cursor.agent://callback',
    'dev.zed.agent:/oauth/callback',
  ])('accepts %s', (uri) => {
    expect(isAcceptableRedirectUri(uri)).toBe(true);
  });

  it.each([
    ['plain http to another host', 'http://agent.example.com/callback'],
    ['http to a host named like loopback', 'http://127.0.0.1.evil.example/callback'],
    ['http to localhost as a subdomain', 'http://localhost.evil.example/callback'],
    ['a fragment', 'https://agent.example.com/callback#x'],
    ['an empty fragment', 'https://agent.example.com/callback#'],
    ['credentials in the URI', 'https://user:pass@agent.example.com/callback'],
    ['javascript:', 'javascript:alert(1)'],
    ['data:', 'data:text/html,<script>alert(1)</script>'],
    ['file:', 'file:///etc/passwd'],
    ['vbscript:', 'vbscript:msgbox(1)'],
    ['a browser-internal scheme', 'chrome://settings/'],
    ['view-source:', 'view-source:https://agent.example.com/'],
    ['websocket', 'ws://agent.example.com/callback'],
    ['a scheme with nothing after it', 'cursor:'],
    ['a scheme with an opaque body', 'cursor:callback'],
    ['a relative path', '/callback'],
    ['an OS handler scheme (ms-msdt)', 'ms-msdt:/id'],
    ['an OS settings scheme with a dot', 'x-apple.systempreferences://com.apple.preference.security'],
    ['an OS search scheme', 'search-ms://query=x'],
    ['a scheme that is no agent nor reversed domain', 'shell://open/x'],
    ["LibreOffice's command scheme, dotted", 'vnd.libreoffice.command:/x'],
    ["LibreOffice's WebDAV scheme, dotted", 'vnd.sun.star.webdav://evil.example/doc.odt'],
    ["Apple's App Store scheme, dotted", 'itms.apps://x'],
    ["Windows' camera scheme, under a real top-level domain", 'microsoft.windows.camera:/x'],
    ["Windows' photo cropping scheme", 'microsoft.windows.photos.crop:/x'],
    ['an Apple system scheme written as a reversed domain', 'com.apple.preference.security://x'],
    ['a NUL inside', 'https://agent.example.com/x\u0000y'],
    ['a space inside', 'https://agent.example.com/x y'],
    ['a control character inside', 'cursor://anysphere.cursor-mcp/x\u0007'],
    ['an overlong URI', `https://agent.example.com/${'a'.repeat(500)}`],
  ])('refusesRedirectUriWith %s', (_case, uri) => {
    expect(isAcceptableRedirectUri(uri)).toBe(false);
  });
});
