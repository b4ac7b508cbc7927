import { describe, expect, it } from 'vitest';
import { foldForSearch } from './searchFold';

describe('foldForSearch', () => {
  it('finds Turkish words whatever the case and the i typed', () => {
    const title = foldForSearch('İşlemler');
    for (const typed of ['işlem', 'İşlem', 'İŞLEM', 'islem', 'ISLEM'])
      expect(title.includes(foldForSearch(typed))).toBe(true);
    expect(foldForSearch('Işık')).toBe(foldForSearch('ışık'));
    expect(foldForSearch('IŞIK')).toBe('isik');
  });

  it('keeps other scripts as they are, lower-cased', () => {
    expect(foldForSearch('المعاملات')).toBe('المعاملات');
    expect(foldForSearch('Customers')).toBe('customers');
  });
});
