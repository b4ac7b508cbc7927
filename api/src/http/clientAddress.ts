import { BlockList, isIP } from 'node:net';
import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context } from 'hono';
import type { AppEnv } from './types';

/**
 * One TRUSTED_PROXIES entry: an IPv4 or IPv6 address, or a network in CIDR notation
 * (`10.0.0.0/8`, `fd00::/8`); undefined when it is neither.
 */
export function parseProxyEntry(
  entry: string,
): { network: string; prefix: number; family: 'ipv4' | 'ipv6' } | undefined {
  const [network = '', prefixText, ...extra] = entry.trim().split('/');
  const version = isIP(network);
  if (version === 0 || extra.length > 0) return undefined;
  const longest = version === 4 ? 32 : 128;
  if (prefixText !== undefined && !/^\d{1,3}$/.test(prefixText)) return undefined;
  const prefix = prefixText === undefined ? longest : Number(prefixText);
  if (prefix > longest) return undefined;
  return { network, prefix, family: version === 4 ? 'ipv4' : 'ipv6' };
}

const proxyLists = new WeakMap<readonly string[], BlockList>();

function proxyList(entries: readonly string[]): BlockList {
  let list = proxyLists.get(entries);
  if (!list) {
    list = new BlockList();
    for (const entry of entries) {
      const parsed = parseProxyEntry(entry);
      if (parsed) list.addSubnet(parsed.network, parsed.prefix, parsed.family);
    }
    proxyLists.set(entries, list);
  }
  return list;
}

/** `::ffff:192.0.2.1` (IPv4 on an IPv6 socket) is the IPv4 address it carries. */
function normalized(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  return mapped?.[1] ?? address;
}

function isTrusted(proxies: BlockList, address: string): boolean {
  const version = isIP(address);
  return version !== 0 && proxies.check(address, version === 4 ? 'ipv4' : 'ipv6');
}

/** The TCP peer; undefined when the request did not come through a Node server (app.request). */
function peerAddress(c: Context<AppEnv>): string | undefined {
  try {
    const address = getConnInfo(c).remote.address;
    return address ? normalized(address) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The address the request came from. `X-Forwarded-For` is read only when the peer is one of
 * TRUSTED_PROXIES, from the right: each trusted hop vouches for the address before it, and the
 * first address no trusted proxy vouches for is the client. Anyone can write the header, so
 * without trusted proxies it is ignored.
 */
export function clientAddress(c: Context<AppEnv>): string {
  const peer = peerAddress(c);
  if (peer === undefined) return 'unknown';
  const trusted = c.var.deps.config.trustedProxies;
  if (!trusted?.length) return peer;
  const proxies = proxyList(trusted);
  const hops = (c.req.header('X-Forwarded-For') ?? '')
    .split(',')
    .map((hop) => normalized(hop.trim()))
    .filter((hop) => hop !== '')
    .reverse();
  let client = peer;
  for (const hop of hops) {
    if (!isTrusted(proxies, client) || isIP(hop) === 0) break;
    client = hop;
  }
  return client;
}
