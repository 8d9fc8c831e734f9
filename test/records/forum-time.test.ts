import { describe, expect, it } from 'vitest';
import {
  assertTimeZone,
  formatForumTime,
  parseForumTime,
  SITE_TIME_ZONE,
  zonedTime,
} from '../../src/records/forum-time.js';

// The forums' times in New York's zone: EDT is UTC-4, EST UTC-5; in 2024 clocks went forward on
// March 10 at 02:00 and back on November 3 at 02:00 (US law, 15 U.S.C. 260a).
const NY = 'America/New_York';
// 2024-06-05 15:00:00 in New York (EDT).
const NOW = Date.parse('2024-06-05T19:00:00Z');
const iso = (date: Date | null) => date?.toISOString() ?? null;

describe('forum times', () => {
  it('reads Today, Yesterday and Tomorrow against now, in the page zone', () => {
    expect(SITE_TIME_ZONE).toBe(NY);
    expect(iso(parseForumTime('Today 10:11:12', NY, NOW))).toBe('2024-06-05T14:11:12.000Z');
    expect(iso(parseForumTime('yesterday  23:59', NY, NOW))).toBe('2024-06-05T03:59:00.000Z');
    expect(iso(parseForumTime('Tomorrow\u00a000:05:00', NY, NOW))).toBe('2024-06-06T04:05:00.000Z');
    expect(iso(parseForumTime('Today 10:11:12', 'UTC', NOW))).toBe('2024-06-05T10:11:12.000Z');
    // Late in New York's evening it is already tomorrow in UTC: "Today" is New York's day.
    expect(iso(parseForumTime('Today 01:00:00', NY, Date.parse('2024-06-06T03:30:00Z')))).toBe(
      '2024-06-05T05:00:00.000Z',
    );
    expect(iso(parseForumTime('Today 00:00:00', NY))).not.toBeNull();
  });

  it('reads English dates with AP or short month names, seconds optional', () => {
    expect(iso(parseForumTime('Sept. 3, 2024 10:11:12', NY, NOW))).toBe('2024-09-03T14:11:12.000Z');
    expect(iso(parseForumTime('Jun 3, 2024 10:11', NY, NOW))).toBe('2024-06-03T14:11:00.000Z');
    expect(iso(parseForumTime('March 5, 2024 00:00:00', NY, NOW))).toBe('2024-03-05T05:00:00.000Z');
    expect(iso(parseForumTime('dec 31 2000 23:59:59', NY, NOW))).toBe('2001-01-01T04:59:59.000Z');
    expect(iso(parseForumTime('Jan. 1, 9999 00:00:00', 'UTC', NOW))).toBe('9999-01-01T00:00:00.000Z');
  });

  it('refuses text that is none of the forms', () => {
    for (const text of [
      '',
      'Today',
      'Today 10:11:12 pm',
      'Today 24:00:00',
      'Today 10:60',
      'Today 10:11:60',
      'Today 10',
      'Today 10:11:12:13',
      'Today 1a:11',
      'Today 100:11',
      'Now 10:11:12',
      'Jux 3, 2024 10:11:12',
      'Jun 0, 2024 10:11:12',
      'Jun 32, 2024 10:11:12',
      'Jun 3.5, 2024 10:11:12',
      'Jun 3, 1999 10:11:12',
      'Jun 3, 10000 10:11:12',
      'Jun 3, 2024.5 10:11:12',
      'Jun 3, 2024 25:00',
      'Jun 3, 2024',
      'Jun 3, 2024 10:11:12 EDT',
      'constructor 10:11:12',
    ]) {
      expect([text, parseForumTime(text, NY, NOW)]).toEqual([text, null]);
    }
  });

  it('resolves a gap to the later offset and an overlap to the first instant', () => {
    // 02:30 on March 10 did not happen in New York: read with the offset after the change.
    expect(iso(zonedTime(NY, 2024, 2, 10, 2, 30, 0))).toBe('2024-03-10T06:30:00.000Z');
    expect(iso(zonedTime(NY, 2024, 2, 10, 3, 30, 0))).toBe('2024-03-10T07:30:00.000Z');
    // 01:30 on November 3 happened twice: the first time, in EDT.
    expect(iso(zonedTime(NY, 2024, 10, 3, 1, 30, 0))).toBe('2024-11-03T05:30:00.000Z');
    expect(iso(zonedTime(NY, 2024, 10, 3, 2, 30, 0))).toBe('2024-11-03T07:30:00.000Z');
    expect(iso(zonedTime('Asia/Kolkata', 2024, 0, 1, 0, 0, 0))).toBe('2023-12-31T18:30:00.000Z');
  });

  it('writes times as the forums do, relative to now in the zone', () => {
    expect(formatForumTime(new Date('2024-06-05T14:11:12Z'), NY, NOW)).toBe('Today 10:11:12');
    expect(formatForumTime(new Date('2024-06-05T03:59:00Z'), NY, NOW)).toBe('Yesterday 23:59:00');
    expect(formatForumTime(new Date('2024-06-06T04:05:09Z'), NY, NOW)).toBe('Tomorrow 00:05:09');
    expect(formatForumTime(new Date('2024-09-03T14:01:02Z'), NY, NOW)).toBe('Sept. 3, 2024 10:01:02');
    expect(formatForumTime(new Date('2024-03-05T05:00:00Z'), NY, NOW)).toBe('March 5, 2024 00:00:00');
    const months = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11].map(
      (m) => formatForumTime(new Date(Date.UTC(2020, m, 15, 12)), 'UTC', NOW).split(' ')[0],
    );
    expect(months).toEqual([
      'Jan.',
      'Feb.',
      'March',
      'April',
      'May',
      'June',
      'July',
      'Aug.',
      'Sept.',
      'Oct.',
      'Nov.',
      'Dec.',
    ]);
    // What it writes, it reads back.
    for (const instant of ['2024-06-05T14:11:12Z', '2024-06-04T04:00:00Z', '2024-01-02T03:04:05Z']) {
      const text = formatForumTime(new Date(instant), NY, NOW);
      expect(iso(parseForumTime(text, NY, NOW))).toBe(new Date(instant).toISOString());
    }
  });

  it('checks time-zone names', () => {
    expect(assertTimeZone('UTC')).toBe('UTC');
    expect(assertTimeZone(NY, 'zone')).toBe(NY);
    expect(() => assertTimeZone('')).toThrow(
      new TypeError('timeZone must be an IANA time-zone name such as "America/New_York"'),
    );
    expect(() => assertTimeZone(5, 'zone')).toThrow(
      new TypeError('zone must be an IANA time-zone name such as "America/New_York"'),
    );
    expect(() => assertTimeZone('Mars/Olympus')).toThrow(
      new RangeError('timeZone "Mars/Olympus" is not a time zone this runtime knows'),
    );
    // Many zones in turn: the formatter cache is bounded, and every zone still reads right.
    const zones = (Intl as unknown as { supportedValuesOf(key: 'timeZone'): string[] })
      .supportedValuesOf('timeZone')
      .slice(0, 80);
    expect(zones).toHaveLength(80);
    for (const zone of zones) assertTimeZone(zone);
    expect(iso(parseForumTime('Today 10:11:12', NY, NOW))).toBe('2024-06-05T14:11:12.000Z');
  });
});
