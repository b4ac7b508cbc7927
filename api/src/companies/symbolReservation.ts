import { conflict, type SymbolReservationEvent } from '@issuer/events';

/** The `CompanySymbol-<SYMBOL>` stream makes a symbol unique across all companies. */
export type SymbolReservation =
  | { status: 'free' }
  | { status: 'reserved'; symbol: string; companyId: string };

export type ReserveSymbol = { type: 'ReserveSymbol'; data: { symbol: string; companyId: string } };
export type ReleaseSymbol = { type: 'ReleaseSymbol'; data: { symbol: string; companyId: string } };
export type SymbolReservationCommand = ReserveSymbol | ReleaseSymbol;

export const symbolTakenMessage = 'The company symbol is already in use';

export const initialSymbolReservation = (): SymbolReservation => ({ status: 'free' });

export function evolveSymbolReservation(
  state: SymbolReservation,
  event: SymbolReservationEvent,
): SymbolReservation {
  switch (event.type) {
    case 'SymbolReserved':
      return { status: 'reserved', ...event.data };
    case 'SymbolReleased':
      return { status: 'free' };
    default: {
      const _exhaustive: never = event;
      return state;
    }
  }
}

export function decideSymbolReservation(
  command: SymbolReservationCommand,
  state: SymbolReservation,
): SymbolReservationEvent[] {
  const { symbol, companyId } = command.data;
  switch (command.type) {
    case 'ReserveSymbol':
      if (state.status === 'reserved') {
        if (state.companyId === companyId) return [];
        throw conflict(symbolTakenMessage, { companySymbol: symbolTakenMessage });
      }
      return [{ type: 'SymbolReserved', data: { symbol, companyId } }];
    case 'ReleaseSymbol':
      if (state.status !== 'reserved' || state.companyId !== companyId) return [];
      return [{ type: 'SymbolReleased', data: { symbol, companyId } }];
    default: {
      const _exhaustive: never = command;
      return [];
    }
  }
}

export const symbolReservationDecider = {
  initialState: initialSymbolReservation,
  evolve: evolveSymbolReservation,
  decide: decideSymbolReservation,
};
