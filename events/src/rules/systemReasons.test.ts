import { describe, expect, it } from 'vitest';
import { parseSystemReason, systemReason } from './systemReasons';

describe('system reasons', () => {
  it('reads back what the server writes', () => {
    const orderId = 'ord_00d01b44-2133-44b7-8c2f-545912a9c225';
    expect(systemReason('tokenOrder', orderId)).toBe(`Token order ${orderId}`);
    expect(parseSystemReason(systemReason('tokenOrder', orderId))).toEqual({
      kind: 'tokenOrder',
      recordId: orderId,
    });
    expect(parseSystemReason(systemReason('signatureRequest', 'sig_1'))).toEqual({
      kind: 'signatureRequest',
      recordId: 'sig_1',
    });
  });

  it('leaves a reason a person typed alone', () => {
    for (const typed of [
      'Token order was wrong, see the ticket',
      'Token order',
      'Token order ',
      'Passport checked at the branch',
      'token order ord_1',
    ])
      expect(parseSystemReason(typed)).toBeUndefined();
  });
});
