import type { KeyRing } from '../skills/index.ts';

/** An environment variable name, as `--key` takes it. */
export const KEY_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * Keys from the environment, and only those the person named with `--key NAME`: a file can name
 * any variable (`GITHUB_TOKEN`), and without the flag the call is refused before anything is sent.
 */
export const environmentKeys = (env: Readonly<Record<string, string | undefined>>, allowed: ReadonlySet<string>): KeyRing => (name, origin) => {
  if (!allowed.has(name)) return { refused: `the environment variable ${name} is sent to ${origin} only with --key ${name}` };
  const key = env[name];
  return key ? { key } : { refused: `--key ${name} was given but the environment variable ${name} is not set` };
};
