/** The API keys, in memory only, which the skills editor and the host consent ask for (src/hooks/library.ts says why a module of its own). */
export { getKey, keyNameOf, originsWithKey, setKey } from '../network/secrets.ts';
