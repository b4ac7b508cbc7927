import { createHash, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { keccak256, sponge } from './keccak';
import { toChecksumAddress, walletAddressProblem } from './walletAddress';

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');

describe('keccak256', () => {
  it('matches the published digests', () => {
    expect(hex(keccak256(''))).toBe(
      'c5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470',
    );
    expect(hex(keccak256('abc'))).toBe(
      '4e03657aea45a94fc7d47ba826c8d667c0d1e6e33a64a036ec44f58fa12d6c45',
    );
  });

  it('is the same sponge as SHA3-256 apart from the padding byte, over many lengths', () => {
    for (const length of [0, 1, 55, 135, 136, 137, 271, 272, 1000]) {
      const input = randomBytes(length);
      expect(hex(sponge(input, 0x06))).toBe(createHash('sha3-256').update(input).digest('hex'));
    }
  });
});

// The test vectors of EIP-55 itself.
const [first, ...others] = [
  '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
  '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359',
  '0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB',
  '0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb',
] as const;
const checksummed = [first, ...others];

describe('wallet addresses', () => {
  it.each(checksummed)('%s carries a valid checksum', (address) => {
    expect(toChecksumAddress(address.toLowerCase())).toBe(address);
    expect(walletAddressProblem(address)).toBeUndefined();
  });

  it('accepts all-lower and all-upper case without a checksum', () => {
    expect(walletAddressProblem(first.toLowerCase())).toBeUndefined();
    expect(walletAddressProblem(`0x${first.slice(2).toUpperCase()}`)).toBeUndefined();
  });

  it('refuses a mixed-case address with one letter flipped', () => {
    const flipped = first.replace('aAeb', 'aaeb');
    expect(walletAddressProblem(flipped)).toBe('checksum');
  });

  it.each(['', '0x', '5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed', '0x123', `0x${'g'.repeat(40)}`])(
    'refuses the shape of %j',
    (address) => expect(walletAddressProblem(address)).toBe('shape'),
  );
});
