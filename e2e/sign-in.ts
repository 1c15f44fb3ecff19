/**
 * Signs in through the real development IdP with plain HTTP requests, the way a browser would: every redirect is
 * followed by hand and cookies are kept per path prefix. Returns the session cookie header for further requests.
 */
export type SignInOptions = { email: string; verified?: boolean; workspace?: boolean; next?: string };

export class CookieJar {
  private readonly cookies = new Map<string, { value: string; path: string }>();

  store(response: Response) {
    for (const header of response.headers.getSetCookie()) {
      const [pair = '', ...attributes] = header.split(';');
      const separator = pair.indexOf('=');
      const name = pair.slice(0, separator).trim();
      const value = pair.slice(separator + 1).trim();
      const pathAttribute = attributes.map((part) => part.trim()).find((part) => /^path=/i.test(part));
      const cookiePath = pathAttribute ? pathAttribute.slice(5) : '/';
      const expired = attributes.some((part) => /^\s*(max-age=0|expires=thu, 01 jan 1970)/i.test(part));
      if (expired || value === '') this.cookies.delete(name);
      else this.cookies.set(name, { value, path: cookiePath });
    }
  }

  headerFor(url: URL): string {
    return [...this.cookies.entries()]
      .filter(([, cookie]) => url.pathname.startsWith(cookie.path))
      .map(([name, cookie]) => `${name}=${cookie.value}`)
      .join('; ');
  }

  get(name: string): string | undefined {
    return this.cookies.get(name)?.value;
  }
}

/** One request with the jar's cookies, no automatic redirects. */
export async function send(jar: CookieJar, url: URL, init: RequestInit = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  const cookie = jar.headerFor(url);
  if (cookie) headers.set('cookie', cookie);
  const response = await fetch(url, { ...init, headers, redirect: 'manual' });
  jar.store(response);
  return response;
}

async function follow(jar: CookieJar, start: URL, stopAt: (url: URL) => boolean, limit = 10): Promise<URL> {
  let url = start;
  for (let hop = 0; hop < limit && !stopAt(url); hop++) {
    const response = await send(jar, url);
    const location = response.headers.get('location');
    if (!location) throw new Error(`Sign-in stopped at ${url.pathname} with status ${response.status}.`);
    url = new URL(location, url);
  }
  return url;
}

/** Runs /auth/login -> dev IdP form -> /auth/callback and returns where the server sent the reader, and the jar. */
export async function signIn(baseUrl: string, options: SignInOptions, jar = new CookieJar()) {
  const login = new URL(`/auth/login?next=${encodeURIComponent(options.next ?? '/')}`, baseUrl);
  const interaction = await follow(jar, login, (url) => url.pathname.includes('/dev-idp/interaction/'));
  const form = new URLSearchParams({ email: options.email, action: 'sign-in' });
  if (options.verified ?? true) form.set('verified', 'yes');
  if (options.workspace ?? true) form.set('workspace', 'yes');
  const submitted = await send(jar, interaction, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: form,
  });
  const afterForm = new URL(submitted.headers.get('location') ?? '', interaction);
  const callback = await follow(jar, afterForm, (url) => url.pathname === '/auth/callback');
  const finished = await send(jar, callback);
  return { jar, response: finished, landedOn: finished.headers.get('location') };
}
