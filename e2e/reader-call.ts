/**
 * A request as the handbook's own pages send it for a signed-in reader: their cookie, our Origin, and a JSON body when
 * there is one.
 */
export function readerCall(baseUrl: string, cookie: string) {
  return (method: string, path: string, body?: unknown) =>
    fetch(`${baseUrl}${path}`, {
      method,
      headers: { cookie, origin: baseUrl, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
}
