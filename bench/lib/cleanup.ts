/**
 * Everything the bench starts (PostgreSQL servers, child processes, temp folders) registers how
 * to undo it here, so a normal end, a failure and Ctrl-C all leave the machine as it was.
 */
type Undo = () => Promise<void> | void;

const undos: { label: string; undo: Undo }[] = [];

export function onCleanup(label: string, undo: Undo): () => Promise<void> {
  const entry = { label, undo };
  undos.push(entry);
  return async () => {
    const index = undos.indexOf(entry);
    if (index < 0) return;
    undos.splice(index, 1);
    await entry.undo();
  };
}

/** Undoes in reverse order; one failing step does not stop the others. */
export async function cleanupAll(): Promise<void> {
  while (undos.length > 0) {
    const entry = undos.pop();
    if (!entry) break;
    try {
      await entry.undo();
    } catch (error) {
      console.error(`cleanup of ${entry.label} failed:`, error);
    }
  }
}

let interrupted = false;

export function installSignalHandlers(): void {
  // A stray failure (an unawaited promise, an error event) still leaves nothing behind.
  for (const event of ['uncaughtException', 'unhandledRejection'] as const) {
    process.on(event, (error: unknown) => {
      console.error(`${event}:`, error);
      if (interrupted) return;
      interrupted = true;
      void cleanupAll().finally(() => process.exit(1));
    });
  }
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      if (interrupted) process.exit(130);
      interrupted = true;
      console.error(`\n${signal}: cleaning up…`);
      void cleanupAll().finally(() => process.exit(130));
    });
  }
}
