import type { CompanyEvent } from '@issuer/events';

export const MAX_PAYMENT_TERMINALS = 3;

export interface PaymentTerminal {
  terminalId: string;
  name: string;
  deviceId: string;
}

export type Company =
  | { status: 'unregistered' }
  | {
      status: 'registered';
      companyId: string;
      name: string;
      symbol: string;
      avatar: string | null;
      verified: boolean;
      isIssuer: boolean;
      /** Suspended by the operator: the company's users are refused until it is reinstated. */
      suspended: boolean;
      /** In registration order: the first fills terminalDeviceId, the next …2, then …3. */
      terminals: readonly PaymentTerminal[];
    };

export const initialCompany = (): Company => ({ status: 'unregistered' });

export function evolveCompany(state: Company, event: CompanyEvent): Company {
  if (event.type === 'CompanyRegistered') {
    const { companyId, name, symbol } = event.data;
    return {
      status: 'registered',
      companyId,
      name,
      symbol,
      avatar: null,
      verified: false,
      isIssuer: false,
      suspended: false,
      terminals: [],
    };
  }
  if (state.status === 'unregistered') return state;
  switch (event.type) {
    case 'CompanyProfileUpdated':
      return { ...state, name: event.data.name, avatar: event.data.avatar };
    case 'CompanyVerified':
      return { ...state, verified: true };
    case 'IssuerStatusGranted':
      return { ...state, isIssuer: true };
    case 'IssuerStatusRevoked':
      return { ...state, isIssuer: false };
    case 'CompanyVerificationRevoked':
      return { ...state, verified: false };
    case 'CompanySuspended':
      return { ...state, suspended: true };
    case 'CompanyReinstated':
      return { ...state, suspended: false };
    case 'PaymentTerminalRegistered': {
      const { terminalId, name, deviceId } = event.data;
      return { ...state, terminals: [...state.terminals, { terminalId, name, deviceId }] };
    }
    case 'PaymentTerminalRenamed':
      return {
        ...state,
        terminals: state.terminals.map((terminal) =>
          terminal.terminalId === event.data.terminalId
            ? { ...terminal, name: event.data.name }
            : terminal,
        ),
      };
    case 'PaymentTerminalRemoved':
      return {
        ...state,
        terminals: state.terminals.filter(
          (terminal) => terminal.terminalId !== event.data.terminalId,
        ),
      };
    default: {
      const _exhaustive: never = event;
      return state;
    }
  }
}
