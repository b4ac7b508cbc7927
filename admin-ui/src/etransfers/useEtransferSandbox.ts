import { useQuery } from '@tanstack/react-query';
import { type Etransfer, fetchEtransfer, fetchEtransferSimulator } from './etransferApi';

/** Whether the simulator's sandbox routes exist (asked once a minute at most), as Simulate card does. */
export function useEtransferSandbox(): boolean {
  const probe = useQuery({
    queryKey: ['etransfers', 'simulator'],
    queryFn: fetchEtransferSimulator,
    retry: false,
    staleTime: 60_000,
    refetchOnWindowFocus: false,
  });
  return probe.isSuccess;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Polls an e-transfer until its status is no longer `from` (the provider's answer comes back by
 * webhook a moment after the sandbox acts); null if it has not changed after `timeoutMs`.
 */
export async function changedEtransfer(
  id: string,
  from: Etransfer['status'],
  timeoutMs = 30_000,
): Promise<Etransfer | null> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const etransfer = await fetchEtransfer(id);
    if (etransfer.status !== from) return etransfer;
    await sleep(1000);
  }
  return null;
}
