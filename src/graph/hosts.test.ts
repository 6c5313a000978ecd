import { describe, expect, it } from 'vitest';
import { hasPlainHost } from './hosts.ts';
import { isHttpUrl } from './skills.ts';

describe('a service address a file may give (issue 51, #9, #10)', () => {
  it('takes a host that is a name or an IP address, as a URL writes it', () => {
    for (const url of ['http://localhost:11434/v1', 'https://api.openai.com/v1', 'https://my_service.internal:8080', 'http://10.0.0.2/', 'http://[::1]:8080/v1', 'https://münchen.example/v1'])
      expect(isHttpUrl(url), url).toBe(true);
  });

  it('refuses a host holding what a URL takes but a list of origins or a quoted value cannot: a comma, quotes, $ or !', () => {
    for (const url of ['https://llm.example,other_key/v1', "https://llm'x`.example/v1", 'https://a$b.example/', 'https://a!b.example/', 'https://a"b/'])
      expect(isHttpUrl(url), url).toBe(false);
    expect(hasPlainHost(new URL('https://llm.example,other_key/v1'))).toBe(false);
  });
});
