const htmlEscapes: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Escapes text for HTML content and quoted attributes. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => htmlEscapes[character] ?? character);
}

/**
 * The server's own pages (sign-in, development sign-in, unavailable): no docs bundle, one stylesheet, light and dark.
 * `inline` carries the stylesheet and logo in the page itself, for a page that must not need a second request.
 */
export function renderPage(options: {
  title: string;
  body: string;
  testId?: string;
  inline?: { stylesheet: string; logoSvg: string };
}): string {
  const { inline } = options;
  const logo = inline ? `data:image/svg+xml,${encodeURIComponent(inline.logoSvg)}` : '/auth/assets/logo.svg';
  const head = inline
    ? `<style>${inline.stylesheet}</style>`
    : '<link rel="stylesheet" href="/auth/assets/page.css">\n<link rel="icon" href="/auth/assets/logo.svg" type="image/svg+xml">';
  const testId = options.testId ? ` data-testid="${escapeHtml(options.testId)}"` : '';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<meta name="color-scheme" content="light dark">
<title>${escapeHtml(options.title)}</title>
${head}
</head>
<body>
<main class="card"${testId}>
<img class="logo" src="${logo}" alt="" width="48" height="48">
${options.body}
</main>
</body>
</html>
`;
}

export const pageStylesheet = `:root {
  color-scheme: light dark;
  --background: #f5f6f7;
  --surface: #ffffff;
  --text: #1c1e21;
  --muted: #5f6368;
  --border: #dadde1;
  --primary: #2f6f4f;
  --primary-text: #ffffff;
  --danger-background: #fdecea;
  --danger-text: #8a1c12;
  --warning-background: #fff4d6;
  --warning-text: #6b4e00;
  font-family: system-ui, -apple-system, "Segoe UI", Roboto, Ubuntu, sans-serif;
}
@media (prefers-color-scheme: dark) {
  :root {
    --background: #1b1b1d;
    --surface: #242526;
    --text: #e3e3e3;
    --muted: #a8abb0;
    --border: #444950;
    --primary: #5fc792;
    --primary-text: #10291c;
    --danger-background: #4a1d19;
    --danger-text: #ffcdc7;
    --warning-background: #3d3212;
    --warning-text: #ffe7a3;
  }
}
* { box-sizing: border-box; }
body { margin: 0; min-height: 100vh; display: grid; place-items: center; background: var(--background); color: var(--text); padding: 1rem; }
.card { width: 100%; max-width: 28rem; background: var(--surface); border: 1px solid var(--border); border-radius: 12px; padding: 2rem; }
.logo { display: block; margin-bottom: 1rem; }
h1 { font-size: 1.4rem; margin: 0 0 0.75rem; }
p { line-height: 1.5; margin: 0 0 1rem; }
.muted { color: var(--muted); font-size: 0.9rem; margin-top: 1rem; }
.notice { border-radius: 8px; padding: 0.75rem 1rem; margin-bottom: 1rem; }
.error { background: var(--danger-background); color: var(--danger-text); }
.warning { background: var(--warning-background); color: var(--warning-text); }
.button { display: inline-flex; align-items: center; justify-content: center; gap: 0.5rem; width: 100%; padding: 0.7rem 1rem; border-radius: 8px; border: 1px solid transparent; background: var(--primary); color: var(--primary-text); font: inherit; font-weight: 600; text-decoration: none; cursor: pointer; }
.button.secondary { background: transparent; color: var(--text); border-color: var(--border); margin-top: 0.5rem; }
.button:focus-visible, input:focus-visible { outline: 3px solid var(--primary); outline-offset: 2px; }
form { margin: 0; }
label { display: block; margin-bottom: 0.75rem; }
input[type=email] { display: block; width: 100%; margin-top: 0.25rem; padding: 0.6rem 0.75rem; border-radius: 8px; border: 1px solid var(--border); background: var(--background); color: var(--text); font: inherit; }
.checkbox { display: flex; gap: 0.5rem; align-items: flex-start; }
`;
