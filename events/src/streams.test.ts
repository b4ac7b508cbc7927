import { describe, expect, it } from 'vitest';
import { parseStreamName, streamName } from './streams';

describe('stream names', () => {
  it('round-trip through Category-<id>, keeping dashes inside the id', () => {
    const name = streamName('Company', '0b8a-11ef');
    expect(name).toBe('Company-0b8a-11ef');
    expect(parseStreamName(name)).toEqual({ category: 'Company', id: '0b8a-11ef' });
  });
});
