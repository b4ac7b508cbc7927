import { type CapTableEvent, conflict, invalid, notFound } from '@issuer/events';
import {
  type CapTable,
  evolveCapTable,
  held,
  initialCapTable,
  type OpenCapTable,
  type ShareClass,
  type ShareClassTerms,
} from './capTable';

interface Acting {
  companyId: string;
  /** A user id, or `system` for a process. */
  actorId: string;
  now: Date;
}

export type CapTableCommand =
  | { type: 'CreateShareClass'; data: Acting & ShareClassTerms & { shareClassId: string } }
  | { type: 'UpdateShareClass'; data: Acting & ShareClassTerms & { shareClassId: string } }
  | {
      type: 'IssueShares';
      data: Acting & {
        issuanceId: string;
        shareClassId: string;
        customerId: string;
        shares: number;
        date: Date;
        reason: string;
      };
    }
  | {
      type: 'TransferShares';
      data: Acting & {
        transferId: string;
        shareClassId: string;
        fromCustomerId: string;
        toCustomerId: string;
        shares: number;
        date: Date;
        reason: string;
      };
    };

/** Terms that are fixed once a class has shares issued: changing them would rewrite history. */
export const termsFixedOnceIssued = [
  'kind',
  'votesPerShare',
  'parValue',
  'liquidationPreferenceMultiple',
  'seniority',
] as const;

const termsOf = (input: ShareClassTerms): ShareClassTerms => ({
  name: input.name.trim(),
  kind: input.kind,
  votesPerShare: input.votesPerShare,
  parValue: input.parValue,
  liquidationPreferenceMultiple: input.liquidationPreferenceMultiple,
  seniority: input.seniority,
  authorized: input.authorized,
});

function checkUniqueName(state: CapTable, name: string, shareClassId: string) {
  if (state.status !== 'open') return;
  const taken = Object.values(state.classes).some(
    (known) =>
      known.shareClassId !== shareClassId && known.name.toLowerCase() === name.toLowerCase(),
  );
  if (taken) throw conflict('A share class has this name already', { name: 'Already in use' });
}

function checkShares(shares: number) {
  if (!Number.isSafeInteger(shares) || shares < 1) {
    throw invalid('A whole number of shares, at least 1', { shares: 'At least 1 whole share' });
  }
}

function ownClass(state: CapTable, shareClassId: string): ShareClass {
  const known = state.status === 'open' ? state.classes[shareClassId] : undefined;
  if (!known) throw notFound('Share class');
  return known;
}

/** A movement's date: not in the future, and never before the cap table's latest movement. */
function checkDate(state: CapTable, date: Date, now: Date) {
  if (Number.isNaN(date.getTime())) throw invalid('Not a valid date', { date: 'Not a valid date' });
  if (date.getTime() > now.getTime()) {
    throw invalid('The date is in the future', { date: 'Must not be in the future' });
  }
  const last = state.status === 'open' ? state.lastMovementAt : null;
  if (last !== null && date.getTime() < Date.parse(last)) {
    const text = `Must be on or after ${last}, the date of the cap table's latest movement`;
    throw conflict(text, { date: text });
  }
  return date.toISOString();
}

function decideCreate(
  command: Extract<CapTableCommand, { type: 'CreateShareClass' }>,
  state: CapTable,
): CapTableEvent[] {
  const { shareClassId, companyId, actorId, now } = command.data;
  if (state.status === 'open' && state.classes[shareClassId]) return [];
  const terms = termsOf(command.data);
  checkUniqueName(state, terms.name, shareClassId);
  return [
    {
      type: 'ShareClassCreated',
      data: {
        companyId,
        shareClassId,
        ...terms,
        createdBy: actorId,
        createdAt: now.toISOString(),
      },
    },
  ];
}

function decideUpdate(
  command: Extract<CapTableCommand, { type: 'UpdateShareClass' }>,
  state: CapTable,
): CapTableEvent[] {
  const { shareClassId, companyId, actorId, now } = command.data;
  const known = ownClass(state, shareClassId);
  const terms = termsOf(command.data);
  checkUniqueName(state, terms.name, shareClassId);
  if (known.issued > 0) {
    const changed = termsFixedOnceIssued.find((field) => terms[field] !== known[field]);
    if (changed) {
      const text = 'Fixed once shares of the class are issued';
      throw conflict(`${changed}: ${text}`, { [changed]: text });
    }
  }
  if (terms.authorized < known.issued) {
    const text = `At least ${known.issued}, the shares already issued`;
    throw conflict(text, { authorized: text });
  }
  const { shareClassId: _i, createdAt: _c, issued: _s, ...before } = known;
  if ((Object.keys(terms) as (keyof ShareClassTerms)[]).every((k) => terms[k] === before[k])) {
    return [];
  }
  return [
    {
      type: 'ShareClassUpdated',
      data: {
        companyId,
        shareClassId,
        ...terms,
        updatedBy: actorId,
        updatedAt: now.toISOString(),
      },
    },
  ];
}

function decideIssue(
  command: Extract<CapTableCommand, { type: 'IssueShares' }>,
  state: CapTable,
): CapTableEvent[] {
  const { issuanceId, shareClassId, customerId, shares, reason, actorId, now } = command.data;
  if (state.status === 'open' && state.movementIds[issuanceId]) return [];
  checkShares(shares);
  const known = ownClass(state, shareClassId);
  const left = known.authorized - known.issued;
  if (shares > left) {
    const text = `Only ${left} shares of ${known.name} are left to issue (authorized ${known.authorized})`;
    throw conflict(text, { shares: text });
  }
  const issuedAt = checkDate(state, command.data.date, now);
  return [
    {
      type: 'SharesIssued',
      data: {
        companyId: (state as OpenCapTable).companyId,
        shareClassId,
        issuanceId,
        customerId,
        shares,
        issuedAt,
        reason,
        issuedBy: actorId,
      },
    },
  ];
}

function decideTransfer(
  command: Extract<CapTableCommand, { type: 'TransferShares' }>,
  state: CapTable,
): CapTableEvent[] {
  const { transferId, shareClassId, fromCustomerId, toCustomerId, shares, reason, actorId, now } =
    command.data;
  if (state.status === 'open' && state.movementIds[transferId]) return [];
  checkShares(shares);
  const known = ownClass(state, shareClassId);
  if (fromCustomerId === toCustomerId) {
    throw invalid('A transfer goes to another holder', {
      toCustomerId: 'Must differ from the sender',
    });
  }
  const holds = held(state, shareClassId, fromCustomerId);
  if (shares > holds) {
    const text = `The sender holds ${holds} shares of ${known.name}`;
    throw conflict(text, { shares: text });
  }
  const transferredAt = checkDate(state, command.data.date, now);
  return [
    {
      type: 'SharesTransferred',
      data: {
        companyId: (state as OpenCapTable).companyId,
        shareClassId,
        transferId,
        fromCustomerId,
        toCustomerId,
        shares,
        transferredAt,
        reason,
        transferredBy: actorId,
      },
    },
  ];
}

export function decideCapTable(command: CapTableCommand, state: CapTable): CapTableEvent[] {
  if (state.status === 'open' && state.companyId !== command.data.companyId) {
    throw notFound('Cap table');
  }
  switch (command.type) {
    case 'CreateShareClass':
      return decideCreate(command, state);
    case 'UpdateShareClass':
      return decideUpdate(command, state);
    case 'IssueShares':
      return decideIssue(command, state);
    case 'TransferShares':
      return decideTransfer(command, state);
    default: {
      const unknownCommand: never = command;
      return unknownCommand;
    }
  }
}

export const capTableDecider = {
  initialState: initialCapTable,
  evolve: evolveCapTable,
  decide: decideCapTable,
};
