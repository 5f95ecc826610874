import { AddressPolicy, classifyAddress, embeddedIpv4 } from './address-policy';

describe('classifyAddress', () => {
  it.each([
    ['8.8.8.8', 'public'],
    ['93.184.216.34', 'public'],
    ['2606:4700:4700::1111', 'public'],
    ['127.0.0.1', 'private'],
    ['127.255.255.254', 'private'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['100.64.0.1', 'private'],
    ['169.254.1.1', 'private'],
    ['::1', 'private'],
    ['fc00::1', 'private'],
    ['fd12:3456::1', 'private'],
    ['fe80::1', 'private'],
    ['fe80::1%eth0', 'private'],
    ['[::1]', 'private'],
    ['169.254.169.254', 'metadata'],
    ['fd00:ec2::254', 'metadata'],
    ['0.0.0.0', 'never'],
    ['::', 'never'],
    ['224.0.0.1', 'never'],
    ['255.255.255.255', 'never'],
    ['ff02::1', 'never'],
    ['not-an-address', 'never'],
    // IPv4 inside IPv6: mapped, compatible, NAT64, 6to4, Teredo
    ['::ffff:127.0.0.1', 'private'],
    ['::ffff:7f00:1', 'private'],
    ['::ffff:a9fe:a9fe', 'metadata'],
    ['::ffff:8.8.8.8', 'public'],
    ['::127.0.0.1', 'private'],
    ['64:ff9b::10.0.0.1', 'private'],
    ['2002:c0a8:0101::1', 'private'],
    ['2001:0:4136:e378:8000:63bf:80ff:fffe', 'private'], // Teredo client 127.0.0.1, obfuscated
  ])('%s is %s', (address, expected) => {
    expect(classifyAddress(address)).toBe(expected);
  });

  it('finds the IPv4 address inside mapped and 6to4 forms', () => {
    expect(embeddedIpv4('::ffff:7f00:1')).toEqual(['127.0.0.1']);
    expect(embeddedIpv4('2002:0a00:0001::')).toEqual(['10.0.0.1']);
    expect(embeddedIpv4('2606:4700::1')).toEqual([]);
  });
});

describe('AddressPolicy', () => {
  it('refuses private and local addresses by default and lets public ones through', () => {
    const policy = new AddressPolicy();
    expect(policy.allows('8.8.8.8', 'dns.google')).toBe(true);
    expect(policy.allows('127.0.0.1', 'localhost')).toBe(false);
    expect(policy.allows('10.0.0.1', 'intranet')).toBe(false);
    expect(policy.allows('::ffff:192.168.0.1', 'router')).toBe(false);
  });

  it('HTTP_STEPS_ALLOW_PRIVATE opens private ranges but keeps metadata and multicast shut', () => {
    const policy = new AddressPolicy({ allowPrivate: true });
    expect(policy.allows('10.0.0.1')).toBe(true);
    expect(policy.allows('127.0.0.1')).toBe(true);
    expect(policy.allows('fd00::1')).toBe(true);
    expect(policy.allows('169.254.169.254')).toBe(false);
    expect(policy.allows('::ffff:169.254.169.254')).toBe(false);
    expect(policy.allows('224.0.0.1')).toBe(false);
    expect(policy.allows('0.0.0.0')).toBe(false);
  });

  it('the allow-list takes CIDRs, addresses, host names and wildcards', () => {
    const policy = new AddressPolicy({ allowedHosts: ['10.20.0.0/16', '127.0.0.1', 'fd00:1::/32', 'api.internal', '*.corp.example'] });
    expect(policy.allows('10.20.3.4')).toBe(true);
    expect(policy.allows('10.21.0.1')).toBe(false);
    expect(policy.allows('127.0.0.1')).toBe(true);
    expect(policy.allows('::ffff:127.0.0.1')).toBe(true);
    expect(policy.allows('127.0.0.2')).toBe(false);
    expect(policy.allows('fd00:1:2::3')).toBe(true);
    expect(policy.allows('192.168.1.1', 'api.internal')).toBe(true);
    expect(policy.allows('192.168.1.1', 'API.Internal.')).toBe(true);
    expect(policy.allows('192.168.1.1', 'billing.corp.example')).toBe(true);
    expect(policy.allows('192.168.1.1', 'corp.example')).toBe(false);
    expect(policy.allows('192.168.1.1', 'evil-api.internal.attacker.test')).toBe(false);
  });

  it('rejects a malformed allow-list entry at start-up', () => {
    expect(() => new AddressPolicy({ allowedHosts: ['10.0.0.0/33'] })).toThrow(/not a valid CIDR/);
    expect(() => new AddressPolicy({ allowedHosts: ['http://x/'] })).toThrow(/HTTP_STEPS_ALLOWED_HOSTS/);
  });
});
