import {
  CallToolRequestSchema,
  ErrorCode,
  InitializeRequestSchema,
  type JSONRPCRequest,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  PingRequestSchema,
  ReadResourceRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import type { z } from 'zod';
import type { EntryRefusal } from './paced-transport.js';

/**
 * The SDK's schemas of the requests handbookServer answers, by method: its tools and resources. The SDK answers any
 * other method Method not found (-32601), whatever its params, so only these are checked here.
 */
const servedRequests = new Map<string, z.ZodType>(
  [
    InitializeRequestSchema,
    PingRequestSchema,
    ListToolsRequestSchema,
    CallToolRequestSchema,
    ListResourcesRequestSchema,
    ListResourceTemplatesRequestSchema,
    ReadResourceRequestSchema,
  ].map((schema) => [schema.shape.method.value, schema]),
);

/** How many of a request's faults its refusal names: enough to fix a call, short enough to read at a glance. */
const faultsNamed = 3;
const maxFaultCharacters = 200;

/** Where a fault is, as the request is written: `params.name`, `params.arguments["a b"]`, `params.items[0]`. */
const fieldOf = (path: readonly PropertyKey[]) =>
  path
    .map((key, index) => {
      if (typeof key === 'number') return `[${key}]`;
      const name = String(key);
      return /^[A-Za-z_$][\w$]*$/.test(name) ? `${index > 0 ? '.' : ''}${name}` : `[${JSON.stringify(name)}]`;
    })
    .join('');

/** One fault on one line: a missing or mistyped field by what it must be, any other in zod's own words. */
function faultOf(issue: z.core.$ZodIssue): string {
  const field = fieldOf(issue.path) || 'the request';
  const fault =
    issue.code === 'invalid_type'
      ? `${field} must be ${/^[aeiou]/.test(issue.expected) ? 'an' : 'a'} ${issue.expected}`
      : `${field}: ${issue.message}`;
  return fault.replace(/\s+/g, ' ').slice(0, maxFaultCharacters);
}

/**
 * JSON-RPC's Invalid params (-32602) for a request whose params its method's schema refuses, else undefined. The SDK
 * checks them only inside its request handler (Protocol.setRequestHandler), where a refusal is no McpError: it answers
 * -32603 Internal error with zod's issues, many lines of JSON, as the message. Checked first here, against the same
 * schemas, an agent is told which field to fix, as it is for a tool's own arguments.
 */
export function invalidParamsOf(request: JSONRPCRequest): EntryRefusal | undefined {
  const schema = servedRequests.get(request.method);
  const parsed = schema?.safeParse(request);
  if (!parsed) return undefined;
  if (parsed.success) return unreadableUriOf(request);
  const { issues } = parsed.error;
  const more = issues.length > faultsNamed ? ` (and ${issues.length - faultsNamed} more)` : '';
  return {
    code: ErrorCode.InvalidParams,
    message: `Invalid params: ${issues.slice(0, faultsNamed).map(faultOf).join('; ')}${more}`,
  };
}

/**
 * resources/read of a uri its schema takes (any string) but the SDK cannot read: it makes it a URL (`new URL()`, no
 * base) before any handler runs, and answers -32603 "Invalid URL" when it is none (`%%%`, a path alone). The field is
 * the caller's to fix, as any other param.
 */
function unreadableUriOf(request: JSONRPCRequest): EntryRefusal | undefined {
  if (request.method !== ReadResourceRequestSchema.shape.method.value) return undefined;
  const uri = request.params?.uri;
  if (typeof uri !== 'string' || URL.canParse(uri)) return undefined;
  return { code: ErrorCode.InvalidParams, message: 'Invalid params: params.uri must be an absolute URL' };
}
