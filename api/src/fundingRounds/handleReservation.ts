import {
  conflict,
  type FundingRoundHandleEvent,
  streamCategories,
  streamName,
} from '@issuer/events';

/**
 * `FundingRoundHandle-<companyId>:<handle>` makes a round's handle unique in its company: two
 * concurrent creates with one handle race for the stream's first revision, and one loses.
 */
export type HandleReservation = { status: 'free' } | { status: 'reserved'; roundId: string };

export type HandleCommand = {
  type: 'ReserveHandle' | 'ReleaseHandle';
  data: { companyId: string; handle: string; roundId: string };
};

export const handleTakenMessage = 'Another round of the company has this handle';

export const roundHandleStream = (companyId: string, handle: string) =>
  streamName(streamCategories.fundingRoundHandle, `${companyId}:${handle}`);

export const handleDecider = {
  initialState: (): HandleReservation => ({ status: 'free' }),
  evolve(_state: HandleReservation, event: FundingRoundHandleEvent): HandleReservation {
    return event.type === 'FundingRoundHandleReserved'
      ? { status: 'reserved', roundId: event.data.roundId }
      : { status: 'free' };
  },
  decide(command: HandleCommand, state: HandleReservation): FundingRoundHandleEvent[] {
    const { data } = command;
    if (command.type === 'ReserveHandle') {
      if (state.status === 'reserved') {
        if (state.roundId === data.roundId) return [];
        throw conflict(handleTakenMessage, { handle: 'Already in use' });
      }
      return [{ type: 'FundingRoundHandleReserved', data }];
    }
    if (state.status !== 'reserved' || state.roundId !== data.roundId) return [];
    return [{ type: 'FundingRoundHandleReleased', data }];
  },
};
