/** The run session's health, which the timeline shows (src/hooks/library.ts says why a module of its own). */
export { useRunSessions } from '../persistence/runSessionStatus.ts';
