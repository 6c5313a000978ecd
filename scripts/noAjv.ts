import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';

const STUB = fileURLToPath(new URL('./ajvProviderStub.ts', import.meta.url));

/**
 * The MCP SDK's client imports its ajv validator whatever validator it is given. The page gives it
 * @cfworker/json-schema (ajv compiles schemas to code, which the page's policy forbids), so ajv is
 * dead weight there: about 120 KB, and CommonJS, whose interop helpers would join the first
 * screen's runtime chunk. In the page's build the SDK's ajv provider is this stub instead.
 */
export const noAjv = (): Plugin => ({
  name: 'loopscope-no-ajv',
  apply: 'build',
  enforce: 'pre',
  resolveId: (source, importer) => (importer?.includes('@modelcontextprotocol/sdk') && source.endsWith('validation/ajv-provider.js') ? STUB : null),
});
