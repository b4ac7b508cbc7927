import { describe, it } from 'vitest';
import { deciderSpecification } from '../auth/testing/deciderSpecification';
import {
  decideSymbolReservation,
  evolveSymbolReservation,
  initialSymbolReservation,
} from './symbolReservation';

const { given } = deciderSpecification({
  decide: decideSymbolReservation,
  evolve: evolveSymbolReservation,
  initialState: initialSymbolReservation,
});
const reserved = { type: 'SymbolReserved', data: { symbol: 'ACME', companyId: 'c-1' } } as const;
const released = { type: 'SymbolReleased', data: { symbol: 'ACME', companyId: 'c-1' } } as const;

describe('a free symbol', () => {
  it('is reserved', () =>
    given([])
      .when({ type: 'ReserveSymbol', data: { symbol: 'ACME', companyId: 'c-1' } })
      .then([reserved]));

  it('is reserved again after its release', () =>
    given([reserved, released])
      .when({ type: 'ReserveSymbol', data: { symbol: 'ACME', companyId: 'c-2' } })
      .then([{ type: 'SymbolReserved', data: { symbol: 'ACME', companyId: 'c-2' } }]));
});

describe('a reserved symbol', () => {
  it('is refused to another company', () =>
    given([reserved])
      .when({ type: 'ReserveSymbol', data: { symbol: 'ACME', companyId: 'c-2' } })
      .thenThrows({
        status: 409,
        fields: { companySymbol: 'The company symbol is already in use' },
      }));

  it('is released only by its owner', () =>
    given([reserved])
      .when({ type: 'ReleaseSymbol', data: { symbol: 'ACME', companyId: 'c-2' } })
      .then([]));

  it('is released by its owner', () =>
    given([reserved])
      .when({ type: 'ReleaseSymbol', data: { symbol: 'ACME', companyId: 'c-1' } })
      .then([released]));
});
