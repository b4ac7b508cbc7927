import { type Query, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { callApi } from '../session/http';
import { refreshProfile } from '../session/refreshProfile';
import { readStored, storageKeys } from '../session/storage';
import { refetchedLive, refreshesProfile, resourcesToRefresh } from './liveResources';

const reconnectMs = 2_000;

const failed = (query: Query) => query.state.status === 'error';

/**
 * Keeps every screen current without polling: one Server-Sent Events stream of the company's
 * changes (`GET /api/changes`, opened with a one-minute ticket since EventSource cannot send the
 * token), and on each message the affected resources' queries are refetched: lists, record pages
 * and drawers, and the sidebar's balance. A dropped stream reopens with a new ticket from the last
 * message it saw, so nothing is missed; once it is back, what failed to load meanwhile loads again.
 */
export function LiveUpdates() {
  const queryClient = useQueryClient();
  useEffect(() => {
    let source: EventSource | undefined;
    let lastId: string | undefined;
    let stopped = false;
    /** The stream broke (or never opened): the server may have been out of reach meanwhile. */
    let broken = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let profileTimer: ReturnType<typeof setTimeout> | undefined;
    const reloadProfile = () => {
      clearTimeout(profileTimer);
      profileTimer = setTimeout(() => {
        void refreshProfile().catch(() => undefined);
      }, 50);
    };
    const onChange = (message: MessageEvent<string>) => {
      if (message.lastEventId) lastId = message.lastEventId;
      // How many changes this tab heard, for browser tests and support sessions to read.
      const seen = Number(document.documentElement.dataset.liveChanges ?? 0);
      document.documentElement.dataset.liveChanges = String(seen + 1);
      const { resource } = JSON.parse(message.data) as { resource: string };
      for (const key of resourcesToRefresh(resource))
        void queryClient.invalidateQueries({ queryKey: [key], predicate: refetchedLive });
      if (refreshesProfile(resource)) reloadProfile();
    };
    const onReset = (message: MessageEvent<string>) => {
      if (message.lastEventId) lastId = message.lastEventId;
      void queryClient.invalidateQueries({ predicate: refetchedLive });
      reloadProfile();
    };
    const open = async () => {
      const token = readStored(storageKeys.token);
      if (stopped || !token) return;
      try {
        const { ticket } = await callApi<{ ticket: string }>('/changes/ticket', {
          method: 'POST',
          token,
        });
        if (stopped) return;
        const resume = lastId ? `&lastEventId=${encodeURIComponent(lastId)}` : '';
        source = new EventSource(`/api/changes?ticket=${encodeURIComponent(ticket)}${resume}`);
        source.addEventListener('ready', (message) => {
          lastId = (message as MessageEvent<string>).lastEventId || lastId;
          document.documentElement.dataset.live = 'on';
          // Back after a break: what failed to load meanwhile (a list showing its error) loads now.
          if (broken) void queryClient.refetchQueries({ type: 'active', predicate: failed });
          broken = false;
        });
        source.addEventListener('change', onChange);
        source.addEventListener('reset', onReset);
        source.onerror = () => {
          // The ticket is single-use in spirit and short-lived: reopen with a new one.
          source?.close();
          broken = true;
          document.documentElement.dataset.live = 'off';
          if (!stopped) timer = setTimeout(() => void open(), reconnectMs);
        };
      } catch {
        broken = true;
        if (!stopped) timer = setTimeout(() => void open(), reconnectMs * 5);
      }
    };
    void open();
    return () => {
      stopped = true;
      clearTimeout(timer);
      clearTimeout(profileTimer);
      source?.close();
      delete document.documentElement.dataset.live;
    };
  }, [queryClient]);
  return null;
}
