import { type CompanyEvent, conflict, notFound } from '@issuer/events';
import {
  type Company,
  evolveCompany,
  initialCompany,
  MAX_PAYMENT_TERMINALS,
  type PaymentTerminal,
} from './company';

export type RegisterCompany = {
  type: 'RegisterCompany';
  data: { companyId: string; name: string; symbol: string; registeredBy: string; now: Date };
};
export type UpdateCompanyProfile = {
  type: 'UpdateCompanyProfile';
  data: { name: string; avatar: string | null };
};
export type VerifyCompany = { type: 'VerifyCompany'; data: { operatorId: string; now: Date } };
export type SetIssuerStatus = {
  type: 'SetIssuerStatus';
  data: { isIssuer: boolean; operatorId: string; now: Date };
};
/** The operator's undoable decisions carry the reason they were taken for. */
type OperatorDecision = { operatorId: string; reason: string; now: Date };
export type RevokeVerification = { type: 'RevokeVerification'; data: OperatorDecision };
export type SuspendCompany = { type: 'SuspendCompany'; data: OperatorDecision };
export type ReinstateCompany = { type: 'ReinstateCompany'; data: OperatorDecision };
export type RegisterPaymentTerminal = {
  type: 'RegisterPaymentTerminal';
  data: { terminalId: string; name: string; deviceId: string };
};
export type RenamePaymentTerminal = {
  type: 'RenamePaymentTerminal';
  data: { terminalId: string; name: string };
};
export type RemovePaymentTerminal = {
  type: 'RemovePaymentTerminal';
  data: { terminalId: string };
};

export type CompanyCommand =
  | RegisterCompany
  | UpdateCompanyProfile
  | VerifyCompany
  | SetIssuerStatus
  | RevokeVerification
  | SuspendCompany
  | ReinstateCompany
  | RegisterPaymentTerminal
  | RenamePaymentTerminal
  | RemovePaymentTerminal;

type Registered = Extract<Company, { status: 'registered' }>;

export function decideCompany(command: CompanyCommand, state: Company): CompanyEvent[] {
  if (command.type === 'RegisterCompany') return registerCompany(command, state);
  if (state.status === 'unregistered') throw notFound('Company');
  switch (command.type) {
    case 'UpdateCompanyProfile':
      return updateProfile(command, state);
    case 'VerifyCompany':
      return verify(command, state);
    case 'SetIssuerStatus':
      return setIssuerStatus(command, state);
    case 'RevokeVerification':
      return revokeVerification(command, state);
    case 'SuspendCompany':
      return suspend(command, state);
    case 'ReinstateCompany':
      return reinstate(command, state);
    case 'RegisterPaymentTerminal':
      return registerTerminal(command, state);
    case 'RenamePaymentTerminal':
      return renameTerminal(command, state);
    case 'RemovePaymentTerminal':
      return removeTerminal(command, state);
    default: {
      const _exhaustive: never = command;
      return [];
    }
  }
}

function registerCompany({ data }: RegisterCompany, state: Company): CompanyEvent[] {
  if (state.status !== 'unregistered') throw conflict('This company is already registered');
  const { companyId, name, symbol, registeredBy, now } = data;
  return [
    {
      type: 'CompanyRegistered',
      data: { companyId, name, symbol, registeredBy, registeredAt: now.toISOString() },
    },
  ];
}

function updateProfile({ data }: UpdateCompanyProfile, state: Registered): CompanyEvent[] {
  if (data.name === state.name && data.avatar === state.avatar) return [];
  return [{ type: 'CompanyProfileUpdated', data: { companyId: state.companyId, ...data } }];
}

function verify({ data }: VerifyCompany, state: Registered): CompanyEvent[] {
  if (state.verified) return [];
  return [
    {
      type: 'CompanyVerified',
      data: {
        companyId: state.companyId,
        verifiedBy: data.operatorId,
        verifiedAt: data.now.toISOString(),
      },
    },
  ];
}

function setIssuerStatus({ data }: SetIssuerStatus, state: Registered): CompanyEvent[] {
  const { isIssuer, operatorId, now } = data;
  if (isIssuer === state.isIssuer) return [];
  const { companyId } = state;
  const at = now.toISOString();
  return isIssuer
    ? [{ type: 'IssuerStatusGranted', data: { companyId, grantedBy: operatorId, grantedAt: at } }]
    : [{ type: 'IssuerStatusRevoked', data: { companyId, revokedBy: operatorId, revokedAt: at } }];
}

/** Taking back what is not there is refused, so a stale screen never records a false reason. */
function revokeVerification({ data }: RevokeVerification, state: Registered): CompanyEvent[] {
  if (!state.verified) throw conflict('This company is not verified');
  const { operatorId, reason, now } = data;
  return [
    {
      type: 'CompanyVerificationRevoked',
      data: {
        companyId: state.companyId,
        reason,
        revokedBy: operatorId,
        revokedAt: now.toISOString(),
      },
    },
  ];
}

function suspend({ data }: SuspendCompany, state: Registered): CompanyEvent[] {
  if (state.suspended) throw conflict('This company is already suspended');
  const { operatorId, reason, now } = data;
  return [
    {
      type: 'CompanySuspended',
      data: {
        companyId: state.companyId,
        reason,
        suspendedBy: operatorId,
        suspendedAt: now.toISOString(),
      },
    },
  ];
}

function reinstate({ data }: ReinstateCompany, state: Registered): CompanyEvent[] {
  if (!state.suspended) throw conflict('This company is not suspended');
  const { operatorId, reason, now } = data;
  return [
    {
      type: 'CompanyReinstated',
      data: {
        companyId: state.companyId,
        reason,
        reinstatedBy: operatorId,
        reinstatedAt: now.toISOString(),
      },
    },
  ];
}

function registerTerminal({ data }: RegisterPaymentTerminal, state: Registered): CompanyEvent[] {
  if (state.terminals.length >= MAX_PAYMENT_TERMINALS) {
    throw conflict(
      `A company can have at most ${MAX_PAYMENT_TERMINALS} payment terminals: remove one before adding another`,
    );
  }
  if (state.terminals.some((terminal) => terminal.deviceId === data.deviceId)) {
    throw conflict('This device is already registered as a payment terminal', {
      deviceId: 'This device is already registered as a payment terminal',
    });
  }
  return [{ type: 'PaymentTerminalRegistered', data: { companyId: state.companyId, ...data } }];
}

function renameTerminal({ data }: RenamePaymentTerminal, state: Registered): CompanyEvent[] {
  const terminal = findTerminal(state, data.terminalId);
  if (terminal.name === data.name) return [];
  return [{ type: 'PaymentTerminalRenamed', data: { companyId: state.companyId, ...data } }];
}

function removeTerminal({ data }: RemovePaymentTerminal, state: Registered): CompanyEvent[] {
  findTerminal(state, data.terminalId);
  return [{ type: 'PaymentTerminalRemoved', data: { companyId: state.companyId, ...data } }];
}

function findTerminal(state: Registered, terminalId: string): PaymentTerminal {
  const terminal = state.terminals.find((candidate) => candidate.terminalId === terminalId);
  if (!terminal) throw notFound('Payment terminal');
  return terminal;
}

export const companyDecider = {
  initialState: initialCompany,
  evolve: evolveCompany,
  decide: decideCompany,
};
