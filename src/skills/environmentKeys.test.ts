import { describe, expect, it } from 'vitest';
import { environmentKeys, KEYS_IN_ENV, readAllowances, writeAllowances } from './environmentKeys.ts';

describe('keys from an environment', () => {
  const allowed = (text: string) => {
    const read = readAllowances(text);
    if ('refused' in read) throw new Error(read.refused);
    return read.allowed;
  };

  it('sends a variable only to the origins its allowance names', () => {
    const keys = environmentKeys({ OPENAI_API_KEY: 'sk-1', AWS_SECRET_ACCESS_KEY: 'aws' }, allowed('OPENAI_API_KEY@https://api.openai.com'), KEYS_IN_ENV);
    expect(keys('OPENAI_API_KEY', 'https://api.openai.com')).toEqual({ key: 'sk-1' });
    expect(keys('OPENAI_API_KEY', 'https://attacker.example')).toEqual({ refused: 'LOOPSCOPE_KEYS lets OPENAI_API_KEY go to https://api.openai.com only, not to https://attacker.example' });
    expect(keys('AWS_SECRET_ACCESS_KEY', 'https://attacker.example')).toEqual({
      refused: 'the environment variable AWS_SECRET_ACCESS_KEY is sent to https://attacker.example only with LOOPSCOPE_KEYS=AWS_SECRET_ACCESS_KEY@https://attacker.example in the project\'s .env',
    });
  });

  it('never reads what every object inherits as a variable', () => {
    const env = Object.assign(Object.create({ inherited: 'from the prototype' }), { PATH: '/bin' }) as Record<string, string>;
    const keys = environmentKeys(env, allowed('constructor,toString,__proto__,inherited,hasOwnProperty'));
    for (const name of ['constructor', 'toString', '__proto__', 'inherited', 'hasOwnProperty'])
      expect(keys(name, 'https://a.example')).toEqual({ refused: `--key allows ${name} but the environment variable ${name} is not set` });
    expect(environmentKeys(process.env, allowed('constructor'))('constructor', 'https://a.example')).toMatchObject({ refused: expect.any(String) });
  });

  it('reads allowances separated by commas or spaces, and writes them back', () => {
    const read = allowed(' A@https://a.example, B  A@http://127.0.0.1:8080 ');
    expect([...read]).toEqual([['A', new Set(['https://a.example', 'http://127.0.0.1:8080'])], ['B', 'any origin']]);
    expect(allowed(writeAllowances(read))).toEqual(read);
    expect(readAllowances('A@https://a.example/path')).toEqual({ refused: 'LOOPSCOPE_KEYS A@… needs an origin such as https://api.openai.com, got "https://a.example/path"' });
    expect(readAllowances('A\nB=1')).toMatchObject({ refused: expect.stringContaining('LOOPSCOPE_KEYS needs the NAME') });
  });
});
