/**
 * Panels that are not on the first screen, loaded when first needed: each stand-in here is small
 * and renders nothing until its panel has something to show.
 */
import { lazy, Suspense } from 'react';
import { useApp } from '../store/index.ts';
import { useGrantRequests, useHostRequest, useServerStartRequests } from '../hooks/consent.ts';
import { useServer } from '../server/langgraphServer.ts';

const LazyRunComparison = lazy(() => import('./RunComparison.tsx').then((module) => ({ default: module.RunComparison })));
const LazyServerCanvas = lazy(() => import('./server/ServerCanvas.tsx').then((module) => ({ default: module.ServerCanvas })));
const LazyHostConsent = lazy(() => import('./HostConsent.tsx').then((module) => ({ default: module.HostConsent })));
const LazyServerStartConsent = lazy(() => import('./ServerStartConsent.tsx').then((module) => ({ default: module.ServerStartConsent })));
const LazyGrantConsent = lazy(() => import('./GrantConsent.tsx').then((module) => ({ default: module.GrantConsent })));

/** Two runs side by side, once a comparison is asked for. */
export function RunComparison() {
  const comparing = useApp((state) => state.comparison !== null);
  return comparing ? <Suspense fallback={null}><LazyRunComparison /></Suspense> : null;
}

/** The question before a run contacts other hosts, once one would. */
export function HostConsent() {
  const asking = useHostRequest((state) => state.request !== null);
  return asking ? <Suspense fallback={null}><LazyHostConsent /></Suspense> : null;
}

/** Under `loopscope open`, the question before one of the folder's MCP servers is started. */
export function ServerStartConsent() {
  const asking = useServerStartRequests((state) => state.requests.length > 0);
  return asking ? <Suspense fallback={null}><LazyServerStartConsent /></Suspense> : null;
}

/** Under `loopscope open`, the question of what a graph's run may do with the folder's MCP tools. */
export function GrantConsent() {
  const asking = useGrantRequests((state) => state.requests.length > 0);
  return asking ? <Suspense fallback={null}><LazyGrantConsent /></Suspense> : null;
}

/** A LangGraph server's graph that Loopscope did not make, drawn over the canvas while it is the graph open. */
export function ServerCanvas() {
  const shown = useServer((state) => state.canvas !== null);
  return shown ? <Suspense fallback={null}><LazyServerCanvas /></Suspense> : null;
}
