/** Module hook: resolves drizzle-orm as the server package would, wherever the importing file lives. */
const serverPackage = new URL('../package.json', import.meta.url).href;

export async function resolve(specifier, context, nextResolve) {
  if (specifier === 'drizzle-orm' || specifier.startsWith('drizzle-orm/')) {
    return nextResolve(specifier, { ...context, parentURL: serverPackage });
  }
  return nextResolve(specifier, context);
}
