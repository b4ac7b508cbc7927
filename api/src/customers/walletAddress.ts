import { keccak256 } from './keccak';

const addressShape = /^0x[0-9a-fA-F]{40}$/;

/**
 * EIP-55: in a mixed-case address, each letter is upper-case exactly when the matching nibble of
 * keccak256(lower-case hex) is 8 or more. All-lower and all-upper addresses carry no checksum.
 */
export function toChecksumAddress(address: string): string {
  const hex = address.slice(2).toLowerCase();
  const hash = keccak256(hex);
  let out = '0x';
  for (let i = 0; i < hex.length; i++) {
    const nibble = ((hash[i >> 1] ?? 0) >> (i % 2 === 0 ? 4 : 0)) & 0x0f;
    const digit = hex.charAt(i);
    out += nibble >= 8 ? digit.toUpperCase() : digit;
  }
  return out;
}

export type WalletAddressProblem = 'shape' | 'checksum' | undefined;

export function walletAddressProblem(address: string): WalletAddressProblem {
  if (!addressShape.test(address)) return 'shape';
  const hex = address.slice(2);
  const mixedCase = hex !== hex.toLowerCase() && hex !== hex.toUpperCase();
  if (mixedCase && toChecksumAddress(address) !== address) return 'checksum';
  return undefined;
}
