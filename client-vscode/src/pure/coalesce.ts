// Coalesces bursts of calls (e.g. restart requests) into one run after a quiet delay.

/**
 * Returns a trigger: calls within `delayMs` of each other run `task` once, and a call that
 * arrives while `task` runs schedules exactly one more run after it. Every caller's promise
 * settles when the run that covers its call finishes.
 */
export function coalesce(task: () => Promise<void>, delayMs: number): () => Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let waiting: { resolve: () => void; reject: (error: unknown) => void }[] = [];
  let running: Promise<void> | undefined;

  const fire = async (): Promise<void> => {
    timer = undefined;
    if (running) {
      await running.catch(() => undefined);
    }
    const batch = waiting;
    waiting = [];
    running = task();
    try {
      await running;
      batch.forEach((w) => w.resolve());
    } catch (error) {
      batch.forEach((w) => w.reject(error));
    } finally {
      running = undefined;
    }
  };

  return () =>
    new Promise<void>((resolve, reject) => {
      waiting.push({ resolve, reject });
      if (timer) {
        clearTimeout(timer);
      }
      timer = setTimeout(() => void fire(), delayMs);
    });
}
