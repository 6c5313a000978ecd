/** The questions a run waits on, which the consent dialogs show and answer (src/hooks/library.ts says why a module of its own). */
export { useGrantRequests, useHostRequest, useServerStartRequests, type HostRequest, type ServerAsk } from '../network/hosts.ts';
