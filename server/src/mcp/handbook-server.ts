import { maxSearchQueryCharacters, maxTextCharacters } from '@acme/contract';
import { McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { withAbsoluteSiteLinks } from '../copilot/answer/answer-links.js';
import { type HandbookApi, HandbookRefusal } from './handbook-api.js';
import { sectionOf } from './page-markdown.js';

const text = (body: string, isError = false): CallToolResult => ({ content: [{ type: 'text', text: body }], isError });

/** MCP's error for a resource that does not exist (specification, Resources: Error Handling). */
const resourceNotFound = -32002;

/** A URL's #anchor as the page's heading ids are written, or undefined when its %-escapes do not decode. */
function anchorOf(hash: string): string | undefined {
  try {
    return decodeURIComponent(hash.slice(1));
  } catch {
    return undefined;
  }
}

/**
 * The handbook's "Sign in" at an address where it reads no token: a file of the site made for a browser (a script, a
 * style, an image: auth/tokens/token-scope.ts), or an API a token may not call. The agent's token was taken at /mcp a
 * moment before (a revoked one is refused with its own code), so all it says is that the address is no page.
 */
const isNoPageForToken = (error: unknown) => error instanceof HandbookRefusal && error.code === 'unauthorized:session';

/**
 * A path the handbook refuses as a bad address (400: `/%ff.md`, whose escapes are not UTF-8), or where it reads no
 * token (`/assets/js/main.js`), names no page: to a resource read it is a missing resource like any other, not an
 * internal error. Other refusals (a limit) still throw.
 */
function asNoPage(error: unknown): undefined {
  if ((error instanceof HandbookRefusal && error.status === 400) || isNoPageForToken(error)) return undefined;
  throw error;
}

/** read_page's answer to an address that is no page, saying what it reads instead. */
const notAPage = (path: string, origin: string) =>
  text(
    `${path.slice(0, 200)} is not a page of the handbook: read_page reads pages, by their address or path ` +
      `(/firestore-ttl, ${origin}/coding-standard/#naming) or as Markdown (/faqs.md), not the site's scripts, ` +
      'styles, images or other files. search_handbook finds the page you want.',
    true,
  );

/** What a tool's handler reads of the SDK's call: the signal aborted when the agent cancels or hangs up. */
type Call = { signal: AbortSignal };

/** A tool's handler whose refusals by the handbook (a limit, a bad question) reach the agent as a tool error. */
const refusalsAsErrors =
  <Args>(handler: (args: Args, call: Call) => Promise<CallToolResult>) =>
  async (args: Args, call: Call) => {
    try {
      return await handler(args, call);
    } catch (error) {
      if (error instanceof HandbookRefusal) return text(error.message, true);
      throw error;
    }
  };

/**
 * The handbook as an MCP server for one request (stateless): three tools a coding agent can act on and every page
 * as a resource, each calling the handbook's own API as the agent's reader.
 */
export function handbookServer(options: { api: HandbookApi; origin: string; version: string }): McpServer {
  const { api, origin } = options;
  const absolute = (url: string) => new URL(url, origin).href;
  const server = new McpServer(
    { name: 'acme-handbook', title: 'Acme Developer Handbook', version: options.version },
    {
      instructions:
        "Acme's internal developer handbook: coding standards, procedures, onboarding and how-tos. Search it before " +
        'answering questions about how Acme builds, ships and supports its apps, and cite the URLs you used.',
    },
  );

  server.registerTool(
    'search_handbook',
    {
      title: 'Search the handbook',
      description:
        'Full-text search over every section of the Acme developer handbook. Returns the best-matching sections, ' +
        'each with its title, URL and a snippet. Use read_page on a URL to read a section in full.',
      inputSchema: {
        query: z
          .string()
          .trim()
          .min(1)
          .max(maxSearchQueryCharacters)
          .describe('Words to search for, e.g. "firestore ttl"'),
        limit: z.int().min(1).max(20).default(8).describe('How many sections to return (1-20)'),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    refusalsAsErrors(async ({ query, limit }) => {
      const { results, missing = [], corrected = [] } = await api.search(query, limit);
      if (results.length === 0) return text(`No section of the handbook matches "${query}".`);
      const lines = results.map((result, index) => {
        const snippet = result.snippet.map((piece) => piece.text).join('');
        const where = [...result.breadcrumbs, result.heading ?? result.pageTitle].join(' › ');
        return `${index + 1}. ${where}\n   ${absolute(result.url)}\n   ${snippet}`;
      });
      // An agent, like a reader, should know these sections leave some of its words out.
      const read = corrected.map(({ typed, word }) => `"${typed}" as "${word}"`).join(', ');
      const notes = [
        ...(read ? [`Read ${read}.`] : []),
        ...(missing.length ? [`No section mentions: ${missing.join(', ')}. These match the rest.`] : []),
      ];
      return text(`${notes.map((note) => `${note}\n\n`).join('')}${lines.join('\n')}`);
    }),
  );

  server.registerTool(
    'read_page',
    {
      title: 'Read a handbook page',
      description:
        'Reads one page of the handbook as Markdown, or only one section of it when the URL has a #anchor. Give a ' +
        `URL from search_handbook or ask_dev_copilot (${origin}/coding-standard/#naming) or a path (/firestore-ttl).`,
      inputSchema: {
        url: z.string().trim().min(1).max(2048).describe('The page URL or path, optionally with #section'),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    refusalsAsErrors(async ({ url }) => {
      const address = handbookAddress(url, origin);
      if (!address) return text(`${url.slice(0, 200)} is not an address of the handbook (${origin}).`, true);
      const markdown = await api.markdown(address.pathname).catch((error: unknown) => {
        if (isNoPageForToken(error)) return null;
        throw error;
      });
      if (markdown === null) return notAPage(address.pathname, origin);
      if (markdown === undefined) return text(`The handbook has no page at ${address.pathname}.`, true);
      if (!address.hash) return text(markdown);
      const anchor = anchorOf(address.hash);
      if (anchor === undefined) {
        return text(
          `The section anchor ${address.hash.slice(0, 200)} is not valid: each % must begin an escape of UTF-8 (%20, %C3%A9).`,
          true,
        );
      }
      const section = sectionOf(markdown, anchor);
      return section === undefined
        ? text(`The page ${address.pathname} has no section ${address.hash}.`, true)
        : text(section);
    }),
  );

  server.registerTool(
    'ask_dev_copilot',
    {
      title: 'Ask Dev Copilot',
      description:
        "Asks Dev Copilot, the handbook's assistant, a question. It answers from the handbook only and says how " +
        'sure it is: "answered" (the handbook answers it; sources linked), "closest" (the nearest the handbook ' +
        'comes) or "none" (not covered: ask a person in #dev-help). Counts against your questions a minute.',
      inputSchema: {
        question: z.string().trim().min(1).max(maxTextCharacters).describe('The question, in plain words'),
        page: z.string().max(2048).optional().describe('The handbook page the question is about, e.g. /firestore-ttl'),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    refusalsAsErrors(async ({ question, page }, { signal }) => {
      const pagePath = page === undefined ? undefined : handbookAddress(page, origin)?.pathname;
      const answer = await api.ask(question, pagePath, signal);
      const cited = answer.covered ? answer.sources : answer.closest;
      const listing = cited.map((source) => `- [${source.title}](${absolute(source.url)})`).join('\n');
      const heading = answer.covered ? 'Sources' : 'Closest pages';
      return {
        ...text(
          `${withAbsoluteSiteLinks(answer.data, origin)}\n\nConfidence: ${answer.confidence}${listing ? `\n${heading}:\n${listing}` : ''}`,
        ),
        structuredContent: {
          confidence: answer.confidence,
          mode: answer.mode,
          sources: answer.sources.map((source) => ({ ...source, url: absolute(source.url) })),
          closest: answer.closest.map((source) => ({ ...source, url: absolute(source.url) })),
        },
      };
    }),
  );

  server.registerResource(
    'page',
    new ResourceTemplate(`${origin}/{+path}`, {
      list: async () => ({
        resources: (await api.pages()).map((page) => ({
          uri: page.url,
          name: page.title,
          title: page.title,
          description: page.description,
          mimeType: 'text/markdown',
        })),
      }),
    }),
    { title: 'Handbook page', description: 'A page of the handbook as Markdown', mimeType: 'text/markdown' },
    async (uri) => {
      const address = handbookAddress(uri.href, origin);
      const markdown = address && (await api.markdown(address.pathname).catch(asNoPage));
      if (!markdown) {
        // The SDK answers with an error's own code, message and data (an McpError would put "MCP error" before it).
        throw Object.assign(new Error(`Resource not found: the handbook has no page at ${uri.href}.`), {
          code: resourceNotFound,
          data: { uri: uri.href },
        });
      }
      return { contents: [{ uri: uri.href, mimeType: 'text/markdown', text: markdown }] };
    },
  );
  return server;
}

/**
 * A URL or path on the handbook's origin, else undefined (another site, a NUL, not a URL at all). A space stays: a
 * page in "Development Resources" is linked and shown with one, and is read as %20.
 */
export function handbookAddress(given: string, origin: string): URL | undefined {
  if (/[\p{Cc}]|[^\S ]/u.test(given)) return undefined;
  try {
    const url = new URL(given, `${origin}/`);
    return url.origin === origin && url.pathname.startsWith('/') ? url : undefined;
  } catch {
    return undefined;
  }
}
