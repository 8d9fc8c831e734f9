import { describe, expect, it } from 'vitest';
import {
  acceptsRaw,
  buildPackets,
  checkRequestName,
  decodeRequest,
  encodeRequest,
  encodeResponse,
  errorText,
  LAST_PACKET_TAIL,
  MARKER_ENCODED,
  MARKER_RAW,
  MAX_PACKETS,
  packetSize,
  parseRequestValue,
  randomPushId,
  randomRequestId,
} from '../../src/cloud/requests/index.js';
import { decode, decodeList, encode } from '../../src/encoding.js';

describe('WIRE.md §8 vectors', () => {
  it('reads TO_HOST = "31494996603745462526494943.417950" as foo(TimMcCool), rid 417950', () => {
    const piece = parseRequestValue('31494996603745462526494943.417950');
    expect(piece).toEqual({ rid: '417950', digits: '31494996603745462526494943', last: true });
    expect(decodeRequest(piece!.digits)).toEqual({ name: 'foo', args: ['TimMcCool'] });
    // …and writes it back byte for byte.
    expect(`${encodeRequest('foo', ['TimMcCool'])}.417950`).toBe('31494996603745462526494943.417950');
  });

  it('writes the push of "hi" with push id 1000000005569 as "3537.10000000055692222"', () => {
    const rid = '1000000005569';
    const response = encodeResponse('hi', rid);
    expect(response).toEqual({ digits: '3537', marker: MARKER_ENCODED });
    expect(buildPackets(response, rid, 256)).toEqual(['3537.10000000055692222']);
  });

  it('pins the tail: digits "." rid, then the marker, then 222', () => {
    // The vector's tail after "." is 17 digits: the 13-digit push id ("100000000" + 4 digits) and 4 more,
    // so the last packet ends with exactly 4 characters after the rid, and the rid is not cut short
    // (a 12-digit reading would leave "92222", five characters).
    const tail = '3537.10000000055692222'.split('.')[1]!;
    expect(tail).toHaveLength(13 + 4);
    const rid = tail.slice(0, 13);
    expect(rid).toMatch(/^100000000\d{4}$/);
    // With marker 2 the four are "2222", so the vector alone cannot order marker and 222; WIRE.md §8's
    // text does (rid + marker + "222"), and a raw answer shows it: marker 3 right after the rid.
    expect(tail.slice(13)).toBe(MARKER_ENCODED + LAST_PACKET_TAIL);
    expect(buildPackets(encodeResponse(42, '417950'), '417950', 256)).toEqual(['42.4179503222']);
  });

  it('picks request ids like the template: 10001-99999 followed by 0', () => {
    expect(randomRequestId(() => 0)).toBe('100010');
    expect(randomRequestId(() => 0.999_999_999)).toBe('999990');
    for (let i = 0; i < 200; i++)
      expect(randomRequestId()).toMatch(/^(1000[1-9]|100[1-9]\d|10[1-9]\d\d|1[1-9]\d{3}|[2-9]\d{4})0$/);
  });

  it('picks push ids as 100000000 and four random digits', () => {
    expect(randomPushId(() => 0)).toBe('1000000000000');
    expect(randomPushId(() => 0.55695)).toBe('1000000005569');
    expect(randomPushId(() => 0.999_99)).toBe('1000000009999');
    for (let i = 0; i < 100; i++) expect(randomPushId()).toMatch(/^100000000\d{4}$/);
  });
});

describe('parseRequestValue', () => {
  it('tells a middle piece (leading "-") from a last or only one', () => {
    expect(parseRequestValue('-1234.417950')).toEqual({ rid: '417950', digits: '1234', last: false });
    expect(parseRequestValue('1234.417950')).toEqual({ rid: '417950', digits: '1234', last: true });
  });

  it('accepts an empty payload and refuses values without a rid or with other characters', () => {
    expect(parseRequestValue('.417950')).toEqual({ rid: '417950', digits: '', last: true });
    for (const bad of ['', '1234', '1234.', '12.34.56', 'abc.123', '--12.3', '12.3a', ' 12.3', '1e5.3']) {
      expect(parseRequestValue(bad)).toBeNull();
    }
  });
});

describe('decodeRequest / encodeRequest', () => {
  it('splits on every "&": a name alone, empty arguments, several arguments', () => {
    expect(decodeRequest(encode('ping'))).toEqual({ name: 'ping', args: [] });
    expect(decodeRequest(encode('set&db&key&'))).toEqual({ name: 'set', args: ['db', 'key', ''] });
    expect(decodeRequest(encode('a&b&c&d'))).toEqual({ name: 'a', args: ['b', 'c', 'd'] });
    expect(decodeRequest('')).toEqual({ name: '', args: [] });
  });

  it('refuses digits that are not an encoding', () => {
    expect(() => decodeRequest('123')).toThrow(RangeError);
    expect(() => decodeRequest('0102')).toThrow(RangeError);
  });

  it('round-trips any text in the lossless mode', () => {
    const digits = encodeRequest('grüß', ['😀', 'é&'.slice(0, 1)], { lossless: true });
    expect(decodeRequest(digits, { lossless: true })).toEqual({ name: 'grüß', args: ['😀', 'é'] });
  });

  it('refuses names and arguments the template could not send', () => {
    expect(() => encodeRequest('a&b')).toThrow(RangeError);
    expect(() => encodeRequest('')).toThrow(RangeError);
    expect(() => encodeRequest('x', ['a&b'])).toThrow(/args\[0\].*&/);
    expect(() => encodeRequest('x', [1 as unknown as string])).toThrow(TypeError);
    expect(() => encodeRequest(3 as unknown as string)).toThrow(TypeError);
    expect(() => checkRequestName('ok')).not.toThrow();
  });
});

describe('encodeResponse', () => {
  it('sends a non-negative integer raw (marker 3) only when the rid ends in 0', () => {
    expect(encodeResponse(0, '417950')).toEqual({ digits: '0', marker: MARKER_RAW });
    expect(encodeResponse(123456, '417950')).toEqual({ digits: '123456', marker: MARKER_RAW });
    expect(encodeResponse(123456, '1000000005569')).toEqual({
      digits: encode('123456'),
      marker: MARKER_ENCODED,
    });
    expect(acceptsRaw('417950')).toBe(true);
    expect(acceptsRaw('417951')).toBe(false);
  });

  it('writes big integers out in full, never in exponent form', () => {
    expect(encodeResponse(1e21, '100').digits).toBe('1000000000000000000000');
    expect(encodeResponse(-0, '100')).toEqual({ digits: '0', marker: MARKER_RAW });
  });

  it('encodes negative and non-integer numbers as text (a raw 2.5 is not a valid answer)', () => {
    expect(encodeResponse(2.5, '417950')).toEqual({ digits: encode('2.5'), marker: MARKER_ENCODED });
    expect(encodeResponse(-3, '417950')).toEqual({ digits: encode('-3'), marker: MARKER_ENCODED });
    expect(decode(encodeResponse(Number.NaN, '10').digits)).toBe('NaN');
  });

  it('encodes a string, even one of digits, and sends "" as the encoding of "-"', () => {
    expect(encodeResponse('Hello, World!', '417950').digits).toBe('36294343497620664955432777');
    expect(encodeResponse('42', '417950')).toEqual({ digits: encode('42'), marker: MARKER_ENCODED });
    expect(encodeResponse('', '417950')).toEqual({ digits: '83', marker: MARKER_ENCODED });
    expect(decode('83')).toBe('-');
  });

  it('answers nothing (undefined, null) like ""', () => {
    expect(encodeResponse(undefined, '417950')).toEqual({ digits: '83', marker: MARKER_ENCODED });
    expect(encodeResponse(null, '417950')).toEqual({ digits: '83', marker: MARKER_ENCODED });
  });

  it('encodes a list as each item followed by 89, the last too', () => {
    const { digits, marker } = encodeResponse(['a', '', 'bc', 7], '417950');
    expect(marker).toBe(MARKER_ENCODED);
    expect(digits).toBe(`${encode('a')}8989${encode('bc')}89${encode('7')}89`);
    expect(decodeList(digits)).toEqual(['a', '', 'bc', '7']);
    expect(encodeResponse([], '417950').digits).toBe('');
  });

  it('refuses values that are not a string, number, list or nothing', () => {
    expect(() => encodeResponse(true as unknown as string, '10')).toThrow(TypeError);
    expect(() => encodeResponse({} as unknown as string, '10')).toThrow(/an object/);
    expect(() => encodeResponse([{}] as unknown as string[], '10')).toThrow(/item 0/);
  });

  it('uses the lossless mode when asked', () => {
    expect(encodeResponse('é', '10', { lossless: true }).digits).toBe('020233');
    expect(encodeResponse('é', '10').digits).toBe('20');
  });
});

describe('packets', () => {
  it('holds lengthLimit - (len(rid) + 6) digits: 244 for a template rid on the platform', () => {
    expect(packetSize(256, '417950')).toBe(244);
    expect(packetSize(256, '1000000005569')).toBe(237);
    expect(() => packetSize(12, '417950')).toThrow(RangeError);
  });

  it('numbers every packet but the last with kkk1 and closes with marker 222; none exceeds the limit', () => {
    const rid = '417950';
    const digits = '1234567890'.repeat(60); // 600 digits: 244 + 244 + 112
    const packets = buildPackets({ digits, marker: '2' }, rid, 256);
    expect(packets).toEqual([
      `${digits.slice(0, 244)}.4179500011`,
      `${digits.slice(244, 488)}.4179500021`,
      `${digits.slice(488)}.4179502222`,
    ]);
    for (const packet of packets) expect(packet.length).toBeLessThanOrEqual(256);
    expect(packets[0]).toHaveLength(255);
  });

  it('sends an answer of exactly one packet size in one packet, and an empty answer as one empty packet', () => {
    expect(buildPackets({ digits: '7'.repeat(244), marker: '3' }, '417950', 256)).toEqual([
      `${'7'.repeat(244)}.4179503222`,
    ]);
    expect(buildPackets({ digits: '', marker: '2' }, '417950', 256)).toEqual(['.4179502222']);
  });

  it('joins back to the answer in index order', () => {
    const digits = encode('x'.repeat(5000));
    const packets = buildPackets({ digits, marker: '2' }, '123450', 256);
    expect(packets).toHaveLength(Math.ceil(digits.length / 244));
    expect(packets[9]).toMatch(/\.1234500101$/);
    expect(packets[40]).toMatch(/\.1234502222$/);
    expect(packets.map((p) => p.split('.')[0]).join('')).toBe(digits);
  });

  it('allows 1000 packets and refuses more (kkk has three digits)', () => {
    expect(buildPackets({ digits: '1'.repeat(244 * MAX_PACKETS), marker: '2' }, '417950', 256)).toHaveLength(
      1000,
    );
    expect(() =>
      buildPackets({ digits: '1'.repeat(244 * MAX_PACKETS + 1), marker: '2' }, '417950', 256),
    ).toThrow(/at most 1000/);
  });

  it('refuses a rid that is not digits', () => {
    expect(() => buildPackets({ digits: '', marker: '2' }, '12a', 256)).toThrow(RangeError);
  });
});

describe('errorText', () => {
  it('is "Error: <message>" on one line, bounded', () => {
    expect(errorText(new Error('boom'))).toBe('Error: boom');
    expect(errorText(new TypeError('multi\nline   text'))).toBe('Error: multi line text');
    expect(errorText('plain')).toBe('Error: plain');
    expect(errorText(new Error(''))).toBe('Error: unknown error');
    expect(errorText(42)).toBe('Error: 42');
    const long = errorText(new Error('x'.repeat(1000)));
    expect(long).toHaveLength(200);
    expect(long.endsWith('...')).toBe(true);
  });
});
