import { isIPv6 } from 'node:net';
import { Address6 } from 'ip-address';

/**
 * How a per-address limit counts an address: IPv4 as it is, an IPv4-mapped IPv6 address as its IPv4, and any other
 * IPv6 address by its /64. A network is handed a whole /64, so one machine can change the rest at will; counting each
 * address apart would give it a fresh allowance per request. @fastify/rate-limit keys its default the same way.
 */
export function addressKeyOf(ip: string): string {
  if (!isIPv6(ip)) return ip.toLowerCase();
  const address = new Address6(ip);
  if (address.isMapped4()) return address.to4().correctForm();
  return new Address6(`${ip}/64`).startAddress().correctForm();
}
