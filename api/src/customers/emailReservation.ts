import {
  type CustomerEmailReservationEvent,
  conflict,
  streamCategories,
  streamName,
} from '@issuer/events';

/**
 * The `CustomerEmail-<companyId>:<email>` stream makes a customer's email unique within its
 * company: two concurrent adds with one email race for this stream's first revision, and one
 * loses. Removing the customer (or changing the email) releases it.
 */
export type CustomerEmailReservation =
  | { status: 'free' }
  | { status: 'reserved'; customerId: string };

export type ReserveCustomerEmail = {
  type: 'ReserveCustomerEmail';
  data: { companyId: string; email: string; customerId: string };
};
export type ReleaseCustomerEmail = {
  type: 'ReleaseCustomerEmail';
  data: { companyId: string; email: string; customerId: string };
};
export type CustomerEmailCommand = ReserveCustomerEmail | ReleaseCustomerEmail;

/** The seed's UI prefixes 'Error: ' to show 'Error: Customer may already exists - check email'. */
export const customerEmailTakenMessage = 'Customer may already exists - check email';

export const customerEmailStream = (companyId: string, email: string) =>
  streamName(streamCategories.customerEmailReservation, `${companyId}:${email}`);

export function evolveCustomerEmail(
  state: CustomerEmailReservation,
  event: CustomerEmailReservationEvent,
): CustomerEmailReservation {
  switch (event.type) {
    case 'CustomerEmailReserved':
      return { status: 'reserved', customerId: event.data.customerId };
    case 'CustomerEmailReleased':
      return { status: 'free' };
    default: {
      const _exhaustive: never = event;
      return state;
    }
  }
}

export function decideCustomerEmail(
  command: CustomerEmailCommand,
  state: CustomerEmailReservation,
): CustomerEmailReservationEvent[] {
  const { data } = command;
  switch (command.type) {
    case 'ReserveCustomerEmail':
      if (state.status === 'reserved') {
        if (state.customerId === data.customerId) return [];
        throw conflict(customerEmailTakenMessage, { email: customerEmailTakenMessage });
      }
      return [{ type: 'CustomerEmailReserved', data }];
    case 'ReleaseCustomerEmail':
      if (state.status !== 'reserved' || state.customerId !== data.customerId) return [];
      return [{ type: 'CustomerEmailReleased', data }];
    default: {
      const _exhaustive: never = command;
      return [];
    }
  }
}

export const customerEmailDecider = {
  initialState: (): CustomerEmailReservation => ({ status: 'free' }),
  evolve: evolveCustomerEmail,
  decide: decideCustomerEmail,
};
