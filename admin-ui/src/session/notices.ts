/**
 * Messages raised before react-admin's notification context exists (the sign-in with a stored
 * token runs before the first render); the notification component shows them once mounted.
 */
export type NoticeType = 'success' | 'info' | 'warning' | 'error';
export interface Notice {
  message: string;
  type: NoticeType;
}

const pending: Notice[] = [];
let deliver: ((notice: Notice) => void) | undefined;

export function notice(message: string, type: NoticeType = 'info'): void {
  if (deliver) deliver({ message, type });
  else pending.push({ message, type });
}

/** Called by the notification component: pending notices now, later ones as they come. */
export function deliverNoticesTo(show: (notice: Notice) => void): () => void {
  deliver = show;
  for (const queued of pending.splice(0)) show(queued);
  return () => {
    deliver = undefined;
  };
}
