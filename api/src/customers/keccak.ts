// biome-ignore-all lint/style/noNonNullAssertion: the state and tables have fixed sizes; every index is in range
/**
 * Keccak-256 as Ethereum uses it (the original Keccak padding, not SHA3-256's), for EIP-55
 * address checksums. Node's OpenSSL 3.0 offers only SHA3 and no package here ships Keccak, so
 * this is the textbook sponge over 64-bit lanes held as BigInts: slow (tens of µs per hash) but
 * plenty for validating addresses. `sponge` takes the domain byte so tests can check it against
 * Node's SHA3-256 (domain 0x06) on random input.
 */
const mask64 = (1n << 64n) - 1n;
const rounds = 24;

const { rotations, piLanes, roundConstants } = (() => {
  const rotations: bigint[] = [];
  const piLanes: number[] = [];
  const roundConstants: bigint[] = [];
  let x = 1;
  let y = 0;
  let lfsr = 1;
  for (let round = 0; round < rounds; round++) {
    [x, y] = [y, (2 * x + 3 * y) % 5];
    piLanes.push(x + 5 * y);
    rotations.push(BigInt((((round + 1) * (round + 2)) / 2) % 64));
    let constant = 0n;
    for (let bit = 0; bit < 7; bit++) {
      lfsr = ((lfsr << 1) ^ ((lfsr >> 7) * 0x71)) % 256;
      if (lfsr & 2) constant ^= 1n << BigInt((1 << bit) - 1);
    }
    roundConstants.push(constant);
  }
  return { rotations, piLanes, roundConstants };
})();

const rotl = (lane: bigint, by: bigint) =>
  by === 0n ? lane : ((lane << by) | (lane >> (64n - by))) & mask64;

function permute(state: bigint[]): void {
  const columns = new Array<bigint>(5);
  for (let round = 0; round < rounds; round++) {
    for (let x = 0; x < 5; x++) {
      columns[x] = state[x]! ^ state[x + 5]! ^ state[x + 10]! ^ state[x + 15]! ^ state[x + 20]!;
    }
    for (let x = 0; x < 5; x++) {
      const d = columns[(x + 4) % 5]! ^ rotl(columns[(x + 1) % 5]!, 1n);
      for (let y = 0; y < 25; y += 5) state[x + y]! ^= d;
    }
    let carried = state[1]!;
    for (let step = 0; step < rounds; step++) {
      const target = piLanes[step]!;
      const next = state[target]!;
      state[target] = rotl(carried, rotations[step]!);
      carried = next;
    }
    for (let y = 0; y < 25; y += 5) {
      const row = state.slice(y, y + 5);
      for (let x = 0; x < 5; x++) {
        state[y + x] = row[x]! ^ (~row[(x + 1) % 5]! & mask64 & row[(x + 2) % 5]!);
      }
    }
    state[0]! ^= roundConstants[round]!;
  }
}

/** 256-bit output sponge (rate 136 bytes) with the given domain-separation byte. */
export function sponge(input: Uint8Array, domain: number): Uint8Array {
  const rate = 136;
  const padded = new Uint8Array((Math.floor(input.length / rate) + 1) * rate);
  padded.set(input);
  padded[input.length]! ^= domain;
  padded[padded.length - 1]! ^= 0x80;
  const state = new Array<bigint>(25).fill(0n);
  const view = new DataView(padded.buffer);
  for (let block = 0; block < padded.length; block += rate) {
    for (let lane = 0; lane < rate / 8; lane++) {
      state[lane]! ^= view.getBigUint64(block + lane * 8, true);
    }
    permute(state);
  }
  const out = new Uint8Array(32);
  const outView = new DataView(out.buffer);
  for (let lane = 0; lane < 4; lane++) outView.setBigUint64(lane * 8, state[lane]!, true);
  return out;
}

export function keccak256(input: Uint8Array | string): Uint8Array {
  const bytes = typeof input === 'string' ? new TextEncoder().encode(input) : input;
  return sponge(bytes, 0x01);
}
