import { useGetList } from 'react-admin';
import { activeTerminalId, useSessionUser } from '../session/sessionStore';
import type { Terminal } from './paymentApi';

/**
 * The company's terminals and the one the sidebar has active (the sidebar keeps a device id; the
 * payments API names a terminal by its id).
 */
export function useTerminals() {
  const user = useSessionUser();
  const list = useGetList<Terminal>(
    'terminals',
    { pagination: { page: 1, perPage: 10 }, sort: { field: 'slot', order: 'ASC' } },
    { staleTime: 30_000, retry: false },
  );
  const terminals = list.data ?? [];
  const activeDevice = user ? activeTerminalId(user) : '';
  const active = terminals.find((terminal) => terminal.deviceId === activeDevice) ?? terminals[0];
  return {
    terminals,
    activeId: active?.id ?? '',
    isPending: list.isPending,
    error: list.error as Error | null,
    nameOf: (id: string | null) => terminals.find((terminal) => terminal.id === id)?.name ?? null,
  };
}
