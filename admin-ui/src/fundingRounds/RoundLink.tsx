import { Link } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { Link as RouterLink } from 'react-router-dom';
import { callApi } from '../session/http';
import type { Round } from './types';

export const roundPath = (round: Pick<Round, 'id' | 'handle'>) =>
  `/fundingrounds/round/${round.id}/${round.handle}`;

/** A funding round by its name, linked to its page; its id until the round has loaded or if gone. */
export function RoundLink({ roundId }: { roundId: string }) {
  // The round page's own query: opening the link finds the round already loaded.
  const round = useQuery({
    queryKey: ['funding-rounds', roundId],
    queryFn: () => callApi<Round>(`/funding-rounds/${encodeURIComponent(roundId)}`),
    retry: false,
  });
  return (
    <Link
      component={RouterLink}
      to={round.data ? roundPath(round.data) : `/fundingrounds/round/${roundId}`}
    >
      <bdi>{round.data?.name ?? roundId}</bdi>
    </Link>
  );
}
