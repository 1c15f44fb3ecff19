/** The company mark, served to the gate page without a session (the site's own copy is gated). */
export const logoSvg =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64" role="img" aria-label="Acme"><rect width="64" height="64" rx="14" fill="#2f6f4f"/><path d="M32 12 50 52h-9l-3.6-8.5H26.6L23 52h-9zm0 13-4.1 10.6h8.2z" fill="#fff"/></svg>';
