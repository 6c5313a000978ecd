import { describe, expect, it } from 'vitest';
import { environmentKeys, KEY_FLAG, KEYS_IN_ENV, readAllowance, readAllowances, writeAllowances } from './environmentKeys.ts';

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

  it('never writes an origin that would read back as more than one allowance (issue 51, #9)', () => {
    // `https://llm.example,other_key` is a URL's origin (a URL takes a comma in its host).
    expect(() => writeAllowances(new Map([['OPENAI_API_KEY', new Set(['https://llm.example,other_key'])]]))).toThrow('"OPENAI_API_KEY@https://llm.example,other_key" cannot be one allowance of LOOPSCOPE_KEYS: it holds a comma or a space');
    expect(readAllowance('OPENAI_API_KEY@https://llm.example,other_key', KEY_FLAG)).toEqual({ refused: '--key OPENAI_API_KEY@… needs an origin such as https://api.openai.com, got "https://llm.example,other_key"' });
    expect(readAllowance("K@https://a'b`c.example", KEY_FLAG)).toMatchObject({ refused: expect.any(String) });
    expect(readAllowance('K@http://[::1]:8080', KEY_FLAG)).toEqual({ name: 'K', origin: 'http://[::1]:8080' });
  });
});
