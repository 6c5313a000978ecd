import type { Plugin } from 'vite';

/**
 * `vite preview` sends every file with `Cache-Control: no-cache` (its static server runs in dev
 * mode), so a page loaded again asks the server about each of its scripts before it may run them:
 * a round trip per file, six at a time. A deployment sends the build's hashed files (`assets/`,
 * whose names change when their content does) as immutable, and the page as no-cache. The app's
 * preview (the journeys, the bench) and the bench's baseline pages are served the same way, so that
 * a page opened again is timed as it opens where it is deployed.
 */
export const immutableAssets = (): Plugin => {
  let assets = '/assets/';
  return {
    name: 'loopscope-immutable-assets',
    configResolved: (config) => void (assets = `${config.base}${config.build.assetsDir}/`),
    configurePreviewServer: (server) => {
      server.middlewares.use((request, response, next) => {
        if (request.url?.startsWith(assets)) {
          // The static server sets its own Cache-Control as it answers: the hashed files' wins.
          const setHeader = response.setHeader.bind(response);
          response.setHeader = (name, value) => setHeader(name, name.toLowerCase() === 'cache-control' ? 'public, max-age=31536000, immutable' : value);
        }
        next();
      });
    },
  };
};
