import type { CapTableEvent, ShareClassKind } from '@issuer/events';

/** A share class's terms as the commands give them. */
export interface ShareClassTerms {
  name: string;
  kind: ShareClassKind;
  votesPerShare: number;
  parValue: string;
  liquidationPreferenceMultiple: number;
  seniority: number;
  authorized: number;
}

export interface ShareClass extends ShareClassTerms {
  shareClassId: string;
  createdAt: string;
  issued: number;
}

/**
 * The write side's view of a company's cap table: enough to hold every rule (authorized, what
 * each holder holds per class, the latest movement's date, the movement ids already recorded).
 * Plain objects, so it folds and serializes cheaply.
 */
export type CapTable =
  | { status: 'empty' }
  | {
      status: 'open';
      companyId: string;
      classes: Record<string, ShareClass>;
      /** share class id → customer id → shares held. */
      holdings: Record<string, Record<string, number>>;
      /** Issuance and transfer ids, so a retried command with the same id does nothing. */
      movementIds: Record<string, true>;
      lastMovementAt: string | null;
    };
export type OpenCapTable = Extract<CapTable, { status: 'open' }>;

export const initialCapTable = (): CapTable => ({ status: 'empty' });

const opened = (state: CapTable, companyId: string): OpenCapTable =>
  state.status === 'open'
    ? state
    : {
        status: 'open',
        companyId,
        classes: {},
        holdings: {},
        movementIds: {},
        lastMovementAt: null,
      };

export function held(state: CapTable, shareClassId: string, customerId: string): number {
  return state.status === 'open' ? (state.holdings[shareClassId]?.[customerId] ?? 0) : 0;
}

function move(state: OpenCapTable, shareClassId: string, customerId: string, delta: number) {
  const holders = state.holdings[shareClassId] ?? {};
  state.holdings[shareClassId] = holders;
  const next = (holders[customerId] ?? 0) + delta;
  if (next === 0) delete holders[customerId];
  else holders[customerId] = next;
}

/** Folds in place after the first event: the state is the decider's own, rebuilt per command. */
export function evolveCapTable(current: CapTable, event: CapTableEvent): CapTable {
  const state = opened(current, event.data.companyId);
  const { shareClassId } = event.data;
  switch (event.type) {
    case 'ShareClassCreated': {
      const { companyId: _c, createdBy: _b, ...terms } = event.data;
      state.classes[shareClassId] = { ...terms, issued: 0 };
      return state;
    }
    case 'ShareClassUpdated': {
      const known = state.classes[shareClassId];
      if (!known) return state;
      const { companyId: _c, updatedBy: _b, updatedAt: _a, ...terms } = event.data;
      state.classes[shareClassId] = { ...known, ...terms };
      return state;
    }
    case 'SharesIssued': {
      const known = state.classes[shareClassId];
      if (known) known.issued += event.data.shares;
      move(state, shareClassId, event.data.customerId, event.data.shares);
      state.movementIds[event.data.issuanceId] = true;
      state.lastMovementAt = event.data.issuedAt;
      return state;
    }
    case 'SharesTransferred':
      move(state, shareClassId, event.data.fromCustomerId, -event.data.shares);
      move(state, shareClassId, event.data.toCustomerId, event.data.shares);
      state.movementIds[event.data.transferId] = true;
      state.lastMovementAt = event.data.transferredAt;
      return state;
    default: {
      const unknownEvent: never = event;
      return unknownEvent;
    }
  }
}
