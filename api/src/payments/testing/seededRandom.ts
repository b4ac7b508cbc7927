/**
 * A small seeded PRNG (mulberry32) for property tests: the same seed replays the same sequence.
 * fast-check is not a dependency; this is enough to draw operations and amounts.
 */
export interface SeededRandom {
  readonly seed: number;
  /** A float in [0, 1). */
  next(): number;
  /** An integer in [min, max], both inclusive. */
  int(min: number, max: number): number;
  chance(probability: number): boolean;
  pick<T>(items: readonly T[]): T;
}

export function seededRandom(seed: number): SeededRandom {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  return {
    seed,
    next,
    int,
    chance: (probability) => next() < probability,
    pick(items) {
      if (items.length === 0) throw new Error('pick from nothing');
      return items[int(0, items.length - 1)] as (typeof items)[number];
    },
  };
}

/** The seed in the environment variable `name` replays a failure; otherwise a new seed each run. */
export function seedFromEnv(name: string): number {
  const given = process.env[name];
  if (given !== undefined && given !== '') {
    const seed = Number(given);
    if (!Number.isSafeInteger(seed)) throw new Error(`${name} must be an integer`);
    return seed;
  }
  return Math.floor(Math.random() * 4_294_967_296);
}
