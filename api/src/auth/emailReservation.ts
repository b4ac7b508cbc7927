import { conflict, type EmailReservationEvent } from '@issuer/events';

/** The `UserEmail-<email>` stream makes an email unique and maps it to its user for login. */
export type EmailReservation =
  | { status: 'free' }
  | { status: 'reserved'; email: string; userId: string; companyId: string };

export type ReserveEmail = {
  type: 'ReserveEmail';
  data: { email: string; userId: string; companyId: string };
};
export type ReleaseEmail = { type: 'ReleaseEmail'; data: { email: string; userId: string } };
export type EmailReservationCommand = ReserveEmail | ReleaseEmail;

export const emailTakenMessage = 'The email is already in use';

export const initialEmailReservation = (): EmailReservation => ({ status: 'free' });

export function evolveEmailReservation(
  state: EmailReservation,
  event: EmailReservationEvent,
): EmailReservation {
  switch (event.type) {
    case 'EmailReserved':
      return { status: 'reserved', ...event.data };
    case 'EmailReleased':
      return { status: 'free' };
    default: {
      const _exhaustive: never = event;
      return state;
    }
  }
}

export function decideEmailReservation(
  command: EmailReservationCommand,
  state: EmailReservation,
): EmailReservationEvent[] {
  switch (command.type) {
    case 'ReserveEmail': {
      const { email, userId, companyId } = command.data;
      if (state.status === 'reserved') {
        if (state.userId === userId) return [];
        throw conflict(emailTakenMessage, { email: emailTakenMessage });
      }
      return [{ type: 'EmailReserved', data: { email, userId, companyId } }];
    }
    case 'ReleaseEmail': {
      const { email, userId } = command.data;
      if (state.status !== 'reserved' || state.userId !== userId) return [];
      return [{ type: 'EmailReleased', data: { email, userId } }];
    }
    default: {
      const _exhaustive: never = command;
      return [];
    }
  }
}

export const emailReservationDecider = {
  initialState: initialEmailReservation,
  evolve: evolveEmailReservation,
  decide: decideEmailReservation,
};
