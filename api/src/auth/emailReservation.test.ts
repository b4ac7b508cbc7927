import { describe, it } from 'vitest';
import {
  decideEmailReservation,
  evolveEmailReservation,
  initialEmailReservation,
} from './emailReservation';
import { deciderSpecification } from './testing/deciderSpecification';

const { given } = deciderSpecification({
  decide: decideEmailReservation,
  evolve: evolveEmailReservation,
  initialState: initialEmailReservation,
});
const email = 'ada@acme.test';
const reserved = {
  type: 'EmailReserved',
  data: { email, userId: 'u-1', companyId: 'c-1' },
} as const;

describe('a free email', () => {
  it('is reserved for a user', () =>
    given([])
      .when({ type: 'ReserveEmail', data: { email, userId: 'u-1', companyId: 'c-1' } })
      .then([reserved]));
});

describe('a reserved email', () => {
  it('is refused to another user with the seed message', () =>
    given([reserved])
      .when({ type: 'ReserveEmail', data: { email, userId: 'u-2', companyId: 'c-2' } })
      .thenThrows({ status: 409, fields: { email: 'The email is already in use' } }));

  it('is released so that a failed registration can be retried', () =>
    given([reserved])
      .when({ type: 'ReleaseEmail', data: { email, userId: 'u-1' } })
      .then([{ type: 'EmailReleased', data: { email, userId: 'u-1' } }]));
});
