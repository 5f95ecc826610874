import { BlockList, isIP, isIPv4, isIPv6 } from 'node:net';

/**
 * Which addresses an HTTP step may connect to. Steps run users' URLs on our servers, so by default
 * they reach only the public internet: not this machine, not the private network it sits in, not
 * the cloud's metadata service. The check runs on the address actually connected to (after DNS,
 * see client.ts), never on the host name alone, so a name that resolves to 10.0.0.1 is refused too.
 */

type Family = 'ipv4' | 'ipv6';

function list(entries: [string, number, Family][]): BlockList {
  const blocks = new BlockList();
  for (const [network, prefix, family] of entries) blocks.addSubnet(network, prefix, family);
  return blocks;
}

/** Private, shared and local ranges: refused unless the operator allows private addresses. */
const privateRanges = list([
  ['10.0.0.0', 8, 'ipv4'], // RFC 1918
  ['172.16.0.0', 12, 'ipv4'],
  ['192.168.0.0', 16, 'ipv4'],
  ['100.64.0.0', 10, 'ipv4'], // carrier-grade NAT
  ['127.0.0.0', 8, 'ipv4'], // loopback
  ['169.254.0.0', 16, 'ipv4'], // link-local (cloud metadata lives here)
  ['198.18.0.0', 15, 'ipv4'], // benchmarking, used inside some networks
  ['::1', 128, 'ipv6'],
  ['fc00::', 7, 'ipv6'], // unique local
  ['fe80::', 10, 'ipv6'], // link-local
  ['fec0::', 10, 'ipv6'], // site-local (deprecated, still routed by some)
]);

/** Never a sensible destination, whatever the configuration: unspecified, multicast, broadcast, reserved, documentation. */
const neverRanges = list([
  ['0.0.0.0', 8, 'ipv4'], // "this network"; 0.0.0.0 reaches the local machine on Linux
  ['192.0.0.0', 24, 'ipv4'],
  ['192.0.2.0', 24, 'ipv4'],
  ['198.51.100.0', 24, 'ipv4'],
  ['203.0.113.0', 24, 'ipv4'],
  ['192.88.99.0', 24, 'ipv4'],
  ['224.0.0.0', 4, 'ipv4'], // multicast
  ['240.0.0.0', 4, 'ipv4'], // reserved, and 255.255.255.255 broadcast
  ['::', 128, 'ipv6'],
  ['100::', 64, 'ipv6'], // discard
  ['2001:db8::', 32, 'ipv6'], // documentation
  ['ff00::', 8, 'ipv6'], // multicast
]);

/** Cloud instance metadata: credentials live behind these, so even HTTP_STEPS_ALLOW_PRIVATE keeps them shut. */
const metadataAddresses = list([
  ['169.254.169.254', 32, 'ipv4'], // AWS, GCP, Azure, OpenStack…
  ['169.254.170.2', 32, 'ipv4'], // AWS ECS task credentials
  ['100.100.100.200', 32, 'ipv4'], // Alibaba Cloud
  ['fd00:ec2::254', 128, 'ipv6'], // AWS over IPv6
]);

/** 16 bytes of an IPv6 address, or null when it is not one. */
export function ipv6Bytes(address: string): Uint8Array | null {
  if (!isIPv6(address)) return null;
  let text = address;
  const bytes = new Uint8Array(16);
  const tailV4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  let tail: number[] = [];
  if (tailV4) {
    tail = tailV4[1].split('.').map(Number);
    text = `${text.slice(0, tailV4.index)}0:0`;
  }
  const [head, rest] = text.includes('::') ? text.split('::') : [text, null];
  const headGroups = head ? head.split(':') : [];
  const restGroups = rest ? rest.split(':') : [];
  const groups = rest === null ? headGroups : [...headGroups, ...Array<string>(8 - headGroups.length - restGroups.length).fill('0'), ...restGroups];
  groups.forEach((group, i) => {
    const value = parseInt(group, 16);
    bytes[i * 2] = value >> 8;
    bytes[i * 2 + 1] = value & 0xff;
  });
  if (tail.length) bytes.set(tail, 12);
  return bytes;
}

const v4 = (b: Uint8Array, at: number, xor = 0) => [0, 1, 2, 3].map((i) => b[at + i] ^ xor).join('.');
const zeros = (b: Uint8Array, from: number, to: number) => b.slice(from, to).every((x) => x === 0);

/**
 * The IPv4 addresses an IPv6 address carries, which a packet may end up reaching: mapped
 * (::ffff:a.b.c.d), compatible (::a.b.c.d), SIIT, NAT64 (64:ff9b::/96, 64:ff9b:1::/48), 6to4
 * (2002:AABB:CCDD::) and Teredo (server and obfuscated client). Checking them keeps
 * http://[::ffff:127.0.0.1]/ from being a way round the IPv4 rules.
 */
export function embeddedIpv4(address: string): string[] {
  const b = ipv6Bytes(address);
  if (!b) return [];
  const found: string[] = [];
  if (zeros(b, 0, 10) && b[10] === 0xff && b[11] === 0xff) found.push(v4(b, 12));
  if (zeros(b, 0, 12) && b[12] !== 0) found.push(v4(b, 12)); // not ::1 nor ::
  if (zeros(b, 0, 8) && b[8] === 0xff && b[9] === 0xff && b[10] === 0 && b[11] === 0) found.push(v4(b, 12));
  if (b[0] === 0x00 && b[1] === 0x64 && b[2] === 0xff && b[3] === 0x9b) found.push(v4(b, 12));
  if (b[0] === 0x20 && b[1] === 0x02) found.push(v4(b, 2));
  if (b[0] === 0x20 && b[1] === 0x01 && b[2] === 0 && b[3] === 0) found.push(v4(b, 4), v4(b, 12, 0xff));
  return found;
}

/** An address as it is written in a URL host or a DNS answer: brackets and zone id (`%eth0`) dropped. */
export function bareAddress(address: string): string {
  return address
    .replace(/^\[(.*)\]$/, '$1')
    .replace(/%.*$/, '')
    .toLowerCase();
}

export type AddressClass = 'public' | 'private' | 'metadata' | 'never';

/** What kind of destination an IP address is; anything that is not an IP address is `never`. */
export function classifyAddress(input: string): AddressClass {
  const address = bareAddress(input);
  const family = isIP(address);
  if (family === 0) return 'never';
  const type: Family = family === 4 ? 'ipv4' : 'ipv6';
  const own: AddressClass = metadataAddresses.check(address, type)
    ? 'metadata'
    : neverRanges.check(address, type)
      ? 'never'
      : privateRanges.check(address, type)
        ? 'private'
        : 'public';
  if (type === 'ipv4') return own;
  const rank: AddressClass[] = ['public', 'private', 'metadata', 'never'];
  return embeddedIpv4(address)
    .map((inner) => classifyAddress(inner))
    .reduce((worst, next) => (rank.indexOf(next) > rank.indexOf(worst) ? next : worst), own);
}

export interface AddressPolicyOptions {
  /** HTTP_STEPS_ALLOW_PRIVATE: private, loopback and link-local addresses become reachable (metadata endpoints stay shut). */
  allowPrivate?: boolean;
  /** HTTP_STEPS_ALLOWED_HOSTS: CIDRs (10.1.0.0/16), addresses, host names and `*.suffix` wildcards that may be reached whatever they resolve to. */
  allowedHosts?: readonly string[];
}

const hostPattern = /^(\*\.)?([a-z0-9_]([a-z0-9_-]*[a-z0-9_])?)(\.[a-z0-9_]([a-z0-9_-]*[a-z0-9_])?)*$/;

const MAX_REMEMBERED_ANSWERS = 1024;

export class AddressPolicy {
  private readonly allowPrivate: boolean;
  private readonly allowedRanges = new BlockList();
  private readonly allowedNames = new Set<string>();
  private readonly allowedSuffixes: string[] = [];
  /**
   * Answers already given: the policy never changes once made, and a per-record step asks the
   * same question for every call (its literal IP, or the address its host name resolves to);
   * classifying the address again was a tenth of the HTTP step's own time. Bounded.
   */
  private readonly answers = new Map<string, boolean>();

  /** Throws on an entry that is neither a CIDR, an address nor a host name, so a typo fails at start-up. */
  constructor(options: AddressPolicyOptions = {}) {
    this.allowPrivate = options.allowPrivate ?? false;
    for (const raw of options.allowedHosts ?? []) {
      const entry = raw.trim().toLowerCase().replace(/\.$/, '');
      if (!entry) continue;
      const slash = entry.indexOf('/');
      if (slash >= 0) {
        const network = bareAddress(entry.slice(0, slash));
        const prefixText = entry.slice(slash + 1);
        const family = isIP(network);
        const prefix = Number(prefixText);
        if (!family || !/^\d+$/.test(prefixText) || prefix > (family === 4 ? 32 : 128))
          throw new Error(`HTTP_STEPS_ALLOWED_HOSTS: "${raw}" is not a valid CIDR`);
        this.allowedRanges.addSubnet(network, prefix, family === 4 ? 'ipv4' : 'ipv6');
      } else if (isIP(bareAddress(entry))) {
        const address = bareAddress(entry);
        this.allowedRanges.addAddress(address, isIPv4(address) ? 'ipv4' : 'ipv6');
      } else if (hostPattern.test(entry)) {
        if (entry.startsWith('*.')) this.allowedSuffixes.push(entry.slice(1));
        else this.allowedNames.add(entry);
      } else {
        throw new Error(`HTTP_STEPS_ALLOWED_HOSTS: "${raw}" is not a CIDR, an IP address or a host name`);
      }
    }
  }

  /** Did the operator name this host (exactly or by a `*.` wildcard)? */
  hostAllowed(hostname: string): boolean {
    const name = bareAddress(hostname).replace(/\.$/, '');
    return this.allowedNames.has(name) || this.allowedSuffixes.some((suffix) => name.endsWith(suffix));
  }

  /** May a connection go to `address`, reached through the URL host `hostname`? */
  allows(address: string, hostname?: string): boolean {
    const question = hostname === undefined ? address : `${address} ${hostname}`;
    let answer = this.answers.get(question);
    if (answer === undefined) {
      answer = this.decide(address, hostname);
      if (this.answers.size >= MAX_REMEMBERED_ANSWERS) this.answers.clear();
      this.answers.set(question, answer);
    }
    return answer;
  }

  private decide(address: string, hostname: string | undefined): boolean {
    const bare = bareAddress(address);
    const family = isIP(bare);
    if (family === 0) return false;
    if (this.allowedRanges.check(bare, family === 4 ? 'ipv4' : 'ipv6')) return true;
    const mapped = embeddedIpv4(bare)[0];
    if (mapped && bare.startsWith('::ffff:') && this.allowedRanges.check(mapped, 'ipv4')) return true;
    if (hostname !== undefined && this.hostAllowed(hostname)) return true;
    const kind = classifyAddress(bare);
    return kind === 'public' || (kind === 'private' && this.allowPrivate);
  }
}
