import { describe, expect, it } from 'vitest';
import { decodeText } from './bytes.ts';

describe('decodeText', () => {
  const text = '{"name": "größe ✓"}';
  const utf16 = (littleEndian: boolean) => {
    const bytes = new Uint8Array(2 + text.length * 2);
    bytes.set(littleEndian ? [0xff, 0xfe] : [0xfe, 0xff]);
    const view = new DataView(bytes.buffer);
    for (let index = 0; index < text.length; index += 1) view.setUint16(2 + index * 2, text.charCodeAt(index), littleEndian);
    return bytes;
  };

  it.each([
    ['UTF-8', new TextEncoder().encode(text)],
    ['UTF-8 with a byte order mark', new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode(text)])],
    ['UTF-16 LE', utf16(true)],
    ['UTF-16 BE', utf16(false)],
  ])('reads %s', (_name, bytes) => {
    expect(decodeText(bytes)).toEqual({ ok: true, value: text });
  });

  it('refuses bytes that are not valid UTF-8', () => {
    expect(decodeText(new Uint8Array([0x7b, 0xff, 0x7d]))).toEqual({ ok: false, problems: [{ path: '', message: 'not text: the file is not valid UTF-8' }] });
  });
});
