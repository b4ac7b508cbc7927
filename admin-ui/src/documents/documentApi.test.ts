import { describe, expect, it } from 'vitest';
import { formatBytes } from './documentApi';

describe('a file size', () => {
  it('reads in the largest unit under 1024, in the reader’s language', () => {
    expect(formatBytes(512, 'en')).toBe('512 bytes');
    expect(formatBytes(20 * 1024 * 1024, 'en')).toBe('20 MB');
    expect(formatBytes(1536, 'en')).toBe('1.5 kB');
    expect(formatBytes(1536, 'tr')).toContain('1,5');
    expect(formatBytes(20 * 1024 * 1024, 'ar')).not.toBe(formatBytes(20 * 1024 * 1024, 'en'));
  });
});
