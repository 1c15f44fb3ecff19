import type { DocSection } from './doc-page.js';

/** Sections made equal strings the same string per this many sections, then the event loop takes other work. */
const chunk = 1000;

/**
 * Makes the sections of one page hold one copy of what they repeat (the page's title, address, description,
 * breadcrumbs and keywords; a section's id and URL), in place. A build's sections reach the server's thread as a
 * structured clone, which copies every string anew: at thousands of pages the repeats are a fifth of their memory.
 */
export async function shareRepeatedStrings(sections: readonly DocSection[]): Promise<void> {
  const strings = new Map<string, string>();
  const lists = new Map<string, string[]>();
  const one = (value: string) => {
    const known = strings.get(value);
    if (known !== undefined) return known;
    strings.set(value, value);
    return value;
  };
  const oneList = (values: string[]) => {
    const key = values.join('\u0000');
    const known = lists.get(key);
    if (known) return known;
    const shared = values.map(one);
    lists.set(key, shared);
    return shared;
  };
  for (let start = 0; start < sections.length; start += chunk) {
    for (const section of sections.slice(start, start + chunk)) {
      section.url = one(section.url);
      section.id = one(section.id);
      section.pageUrl = one(section.pageUrl);
      section.pageTitle = one(section.pageTitle);
      if (section.heading !== undefined) section.heading = one(section.heading);
      if (section.parentHeading !== undefined) section.parentHeading = one(section.parentHeading);
      if (section.description !== undefined) section.description = one(section.description);
      section.breadcrumbs = oneList(section.breadcrumbs);
      section.keywords = oneList(section.keywords);
    }
    await new Promise((resolve) => setImmediate(resolve));
  }
}
