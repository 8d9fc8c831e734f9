import { describe, expect, it } from 'vitest';
import { decode, decodeList, Encoding, encode, encodeList } from '../../src/encoding.js';

// The table of WIRE.md §7, written out independently of the implementation.
const EXPECTED: Record<number, string> = {};
'1234567890'.split('').forEach((ch, i) => {
  EXPECTED[10 + i] = ch;
});
EXPECTED[20] = ' ';
'abcdefghijklmnopqrstuvwxyz'.split('').forEach((ch, i) => {
  EXPECTED[21 + 2 * i] = ch;
  EXPECTED[22 + 2 * i] = ch.toUpperCase();
});
['*', '/', '.', ',', '!', '"', '§', '$', '%', '_', '-', '(', '´', ')', '`', '?'].forEach((ch, i) => {
  EXPECTED[73 + i] = ch;
});
['@', '#', '~', ';', ':', '+', '&', '|', '^', "'"].forEach((ch, i) => {
  EXPECTED[90 + i] = ch;
});
const pair = (code: number) => String(code).padStart(2, '0');

/** A deterministic generator, so a failure can be replayed. */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1_664_525) + 1_013_904_223) >>> 0;
    return s / 2 ** 32;
  };
}

describe('default table (WIRE.md §7)', () => {
  it('encodes the test vector and decodes it back', () => {
    expect(encode('Hello, World!')).toBe('36294343497620664955432777');
    expect(decode('36294343497620664955432777')).toBe('Hello, World!');
    expect(Encoding.encode('Hello, World!')).toBe('36294343497620664955432777');
    expect(Encoding.decode('36294343497620664955432777')).toBe('Hello, World!');
  });

  it('has exactly 89 characters at the documented codes', () => {
    expect(Object.keys(EXPECTED)).toHaveLength(89);
    for (let code = 0; code < 100; code++) {
      const ch = EXPECTED[code];
      if (ch === undefined) continue;
      expect(encode(ch), `code ${code}`).toBe(pair(code));
      expect(decode(pair(code)), `code ${code}`).toBe(ch);
    }
  });

  it('pins the punctuation codes 73-88 one by one', () => {
    expect(encode('*')).toBe('73');
    expect(encode('?')).toBe('88');
    expect(encode('\u00b4')).toBe('85'); // acute accent
    expect(encode(')')).toBe('86');
    expect(encode('`')).toBe('87');
    expect(encode('§')).toBe('79');
    expect(encode("'")).toBe('99');
  });

  it('round-trips a text using every table character', () => {
    const all = Object.values(EXPECTED).join('');
    expect(decode(encode(all))).toBe(all);
    expect(encode(all)).toHaveLength(all.length * 2);
  });

  it('encodes characters outside the table as 20, one per code point', () => {
    expect(encode('\n')).toBe('20');
    expect(encode('<>{}[]=\\\t')).toBe('20'.repeat(9));
    expect(encode('é日')).toBe('2020');
    expect(encode('😀')).toBe('20'); // one character, two UTF-16 units
    expect(encode('a😀b')).toBe('212023');
    expect(encode('\ud800')).toBe('20'); // a lone surrogate is one unknown character
    expect(encode('\udc00\ud800')).toBe('2020');
    expect(encode('new line')).toBe(encode('new') + '20' + encode('line'));
    expect(encode('')).toBe('');
  });

  it('encodes long texts in pieces without losing anything', () => {
    const text = 'Hello, World! '.repeat(20_000);
    const digits = encode(text);
    expect(digits).toBe('3629434349762066495543277720'.repeat(20_000));
    expect(decode(digits)).toBe(text);
  });

  it('refuses malformed digits with a clear error', () => {
    expect(() => decode('123')).toThrow(RangeError);
    expect(() => decode('123')).toThrow(/even length/);
    expect(() => decode('1a')).toThrow(/"a" at offset 1 is not a digit/);
    expect(() => decode('21 2')).toThrow(/offset 2 is not a digit/);
    expect(() => decode('-1')).toThrow(/offset 0/);
    expect(() => decode('２１')).toThrow(RangeError); // full-width digits are not digits
    expect(() => decode('2105')).toThrow(/pair "05" at offset 2 \(pair 1\) is not a code of the table/);
    expect(() => decode('00')).toThrow(/pair "00" at offset 0/);
    expect(() => decode('0110')).toThrow(/lossless escape/);
    expect(() => decode('218921')).toThrow(/"89" at offset 2 is the list separator/);
    expect(() => decode(12 as unknown as string)).toThrow(TypeError);
    expect(() => decode(undefined as unknown as string)).toThrow(/digits must be a string/);
    expect(decode('')).toBe('');
  });

  it('refuses non-strings and malformed options', () => {
    expect(() => encode(12 as unknown as string)).toThrow(TypeError);
    expect(() => encode(null as unknown as string)).toThrow(/text must be a string, got object/);
    expect(() => encode('a', { lossless: 'yes' as unknown as boolean })).toThrow(
      /lossless must be a boolean/,
    );
    expect(() => encode('a', 5 as unknown as { lossless: boolean })).toThrow(TypeError);
    expect(() => decode('21', null as unknown as { lossless: boolean })).toThrow(TypeError);
    expect(encode('a', {})).toBe('21');
    expect(encode('a', { lossless: false })).toBe('21');
  });
});

describe('lists (code 89)', () => {
  it('ends every item with 89, the last one too', () => {
    expect(encodeList(['hi', 'a'])).toBe('3537892189');
    expect(encodeList([])).toBe('');
    expect(encodeList([''])).toBe('89');
    expect(encodeList(['', ''])).toBe('8989');
  });

  it('splits at 89 and keeps an unterminated last item', () => {
    expect(decodeList('3537892189')).toEqual(['hi', 'a']);
    expect(decodeList('3537')).toEqual(['hi']);
    expect(decodeList('35378921')).toEqual(['hi', 'a']);
    expect(decodeList('')).toEqual([]);
    expect(decodeList('89')).toEqual(['']);
    expect(decodeList('898921')).toEqual(['', '', 'a']);
  });

  it('round-trips lists in both modes', () => {
    const lists = [[], [''], ['', ''], ['Hello, World!', '', 'x y'], ['a\nb', '😀', '']];
    for (const items of lists) {
      expect(decodeList(encodeList(items, { lossless: true }), { lossless: true })).toEqual(items);
    }
    expect(decodeList(encodeList(['Hello', 'World', '']))).toEqual(['Hello', 'World', '']);
  });

  it('finds 89 only at pair boundaries, never inside an escape', () => {
    // U+22F9 is 8953: its escape "028953" holds "89" at an even offset inside the escape.
    const items = ['\u22f9', 'a'];
    const digits = encodeList(items, { lossless: true });
    expect(digits).toBe('028953' + '89' + '21' + '89');
    expect(decodeList(digits, { lossless: true })).toEqual(items);
    // "1" then "89" spans a pair boundary: 18 + 92 are the characters "9" and "~".
    expect(decodeList('1892')).toEqual(['9~']);
  });

  it('refuses bad input', () => {
    expect(() => encodeList('ab' as unknown as string[])).toThrow(/items must be an array/);
    expect(() => encodeList(['a', 3 as unknown as string])).toThrow(/item 1 must be a string/);
    expect(() => decodeList('891')).toThrow(/even length/);
    expect(() => decodeList('8905')).toThrow(/pair "05" at offset 2/);
  });
});

describe('lossless mode', () => {
  const L = { lossless: true } as const;

  it('spells table characters exactly like the default table', () => {
    const all = Object.values(EXPECTED).join('');
    expect(encode(all, L)).toBe(encode(all));
    expect(encode('Hello, World!', L)).toBe('36294343497620664955432777');
    expect(decode('36294343497620664955432777', L)).toBe('Hello, World!');
  });

  it('writes other characters as the narrowest escape', () => {
    expect(encode('\n', L)).toBe('0110');
    expect(encode('\u0000', L)).toBe('0100');
    expect(encode('{', L)).toBe('020123');
    expect(encode('é', L)).toBe('020233');
    expect(encode('\uffff', L)).toBe('03065535');
    expect(encode('😀', L)).toBe('03128512');
    expect(encode('\u{10ffff}', L)).toBe('0401114111');
    expect(encode('\ud800', L)).toBe('03055296'); // a lone surrogate keeps its own code
  });

  it('round-trips random Unicode, astral characters and lone surrogates included', () => {
    const next = random(42);
    const pick = (max: number) => Math.floor(next() * max);
    for (let round = 0; round < 300; round++) {
      const length = pick(60);
      let text = '';
      for (let i = 0; i < length; i++) {
        const kind = pick(6);
        if (kind === 0)
          text += String.fromCharCode(pick(128)); // ASCII, control characters too
        else if (kind === 1) text += Object.values(EXPECTED)[pick(89)];
        else if (kind === 2)
          text += String.fromCharCode(pick(0x10000)); // any unit, lone surrogates too
        else if (kind === 3)
          text += String.fromCodePoint(0x10000 + pick(0x100000)); // astral
        else if (kind === 4) text += '日本語😀é\n\u0000'[pick(8)];
        else text += String.fromCharCode(0xd800 + pick(0x800)); // surrogates, paired or not by chance
      }
      const digits = encode(text, L);
      expect(digits).toMatch(/^(\d\d)*$/);
      expect(decode(digits, L)).toBe(text);
    }
  });

  it('round-trips long texts', () => {
    const text = 'Ünïcödé 日本語 😀 \n\t'.repeat(10_000);
    expect(decode(encode(text, L), L)).toBe(text);
  });

  it('accepts wider-than-needed escapes, refuses cut or out-of-range ones', () => {
    expect(decode('020010' + '03000065', L)).toBe('\nA');
    expect(() => decode('0201', L)).toThrow(/escape "02" at offset 0 needs 4 more digits/);
    expect(() => decode('0401114112', L)).toThrow(/beyond the last code point/);
    expect(() => decode('05', L)).toThrow(/pair "05" at offset 0/);
    expect(() => decode('00', L)).toThrow(/pair "00"/);
    expect(() => decode('01a0', L)).toThrow(/"a" at offset 2 is not a digit/);
  });

  it('is refused by a default-mode decoder instead of being misread', () => {
    expect(() => decode(encode('a\nb', L))).toThrow(/lossless escape/);
  });
});

describe('a megabyte', () => {
  // Its speed is measured by `npm run bench` (requests, part c), not here.
  it('encodes to two digits a character and decodes back', () => {
    const text = 'The quick brown fox jumps over the lazy dog, 1234567890! '.repeat(18_000);
    const digits = encode(text);
    expect(digits.length).toBe(text.length * 2);
    expect(decode(digits)).toBe(text);
  });
});
