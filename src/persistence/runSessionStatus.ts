import { create } from 'zustand';

/**
 * The session's health, shown to the person: the runs in memory never depend on it. Apart from the
 * session store itself, which loads after the first screen is drawn (src/persistence/runSessions.ts).
 */
export const useRunSessions = create<{ error: string | null }>()(() => ({ error: null }));
