/**
 * Signs in through the real development IdP with plain HTTP requests, the way a browser would: every redirect is
 * followed by hand and cookies are kept per path prefix. Returns the session cookie header for further requests.
 */
export type SignInOptions = {
  email: string;
  verified?: boolean;
  workspace?: boolean;
  next?: string;
  /** The account id (`sub`) the development IdP signs in with; by default one derived from the address. */
  subject?: string;
};

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

/** Follows redirects with the jar until `stopAt` says so; the URL it stops at is not requested. */
export async function followUntil(jar: CookieJar, start: URL, stopAt: (url: URL) => boolean): Promise<URL> {
  let url = start;
  for (let hop = 0; hop < 10 && !stopAt(url); hop++) {
    const response = await send(jar, url);
    const location = response.headers.get('location');
    if (!location) throw new Error(`Redirects stopped at ${url.pathname} with status ${response.status}.`);
    url = new URL(location, url);
  }
  if (!stopAt(url)) throw new Error(`Too many redirects, last at ${url.pathname}.`);
  return url;
}

/** Opens /auth/login and follows it to the development IdP's form; the jar now holds the attempt cookie. */
export async function openSignInForm(baseUrl: string, next = '/', jar = new CookieJar()) {
  const login = new URL(`/auth/login?next=${encodeURIComponent(next)}`, baseUrl);
  const form = await followUntil(jar, login, (url) => url.pathname.startsWith('/dev-idp/interaction/'));
  return { jar, form };
}

/** Submits the development IdP's form and follows it back to our callback URL, without requesting it. */
export async function submitSignInForm(jar: CookieJar, form: URL, fields: Record<string, string>): Promise<URL> {
  const submitted = await send(jar, form, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields),
  });
  const location = submitted.headers.get('location');
  if (!location) throw new Error(`The sign-in form answered ${submitted.status} without a redirect.`);
  return followUntil(jar, new URL(location, form), (url) => url.pathname === '/auth/callback');
}

/** Runs /auth/login -> dev IdP form -> /auth/callback and returns where the server sent the reader, and the jar. */
export async function signIn(baseUrl: string, options: SignInOptions, jar = new CookieJar()) {
  const { form } = await openSignInForm(baseUrl, options.next ?? '/', jar);
  const fields: Record<string, string> = { email: options.email, action: 'sign-in' };
  if (options.verified ?? true) fields.verified = 'yes';
  if (options.workspace ?? true) fields.workspace = 'yes';
  if (options.subject) fields.subject = options.subject;
  const finished = await send(jar, await submitSignInForm(jar, form, fields));
  return { jar, response: finished, landedOn: finished.headers.get('location') };
}

/** The `cookie` header of a fresh allowed session for this address, made by the real sign-in flow. */
export async function sessionCookieFor(baseUrl: string, email: string): Promise<string> {
  const { jar } = await signIn(baseUrl, { email });
  const session = jar.get('acme_session');
  if (!session) throw new Error(`Signing in ${email} gave no session cookie.`);
  return `acme_session=${session}`;
}
