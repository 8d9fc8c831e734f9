/**
 * The forums' times: Django's `naturalday` and the time ("Today 10:11:12", "Yesterday …", and
 * across midnight "Tomorrow …"), else its English date ("Sept. 3, 2024 10:11:12", "March 5, 2024
 * …"), written in the site's time zone (WIRE.md §12.1, §12.7; scratchattach keeps them as text
 * and cuts the third kind to "Jun 3,"). Read here into instants with the platform's own
 * time-zone data (`Intl`).
 */

/**
 * The zone the forums write their times in for a visitor without a time-zone setting: the
 * platform is run from Boston. (Inferred: WIRE.md names no zone.)
 */
export const SITE_TIME_ZONE = 'America/New_York';

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
/** Django's `N` format: the Associated Press's month abbreviations, as the site writes dates. */
const AP_MONTHS = [
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
];
/** The words `naturalday` uses, and the day each names relative to today. */
const NATURAL_DAYS: Readonly<Record<string, number>> = { today: 0, yesterday: -1, tomorrow: 1 };

const formatters = new Map<string, Intl.DateTimeFormat>();

/** A formatter of calendar parts in `timeZone`; a zone `Intl` does not know is a `RangeError`. */
function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let format = formatters.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    // A handful of zones at most: the cache cannot grow without bound in practice, but cap it.
    if (formatters.size >= 64) formatters.clear();
    formatters.set(timeZone, format);
  }
  return format;
}

/** Checks a time-zone name (`America/New_York`, `UTC`). */
export function assertTimeZone(timeZone: unknown, name = 'timeZone'): string {
  if (typeof timeZone !== 'string' || timeZone === '') {
    throw new TypeError(`${name} must be an IANA time-zone name such as "America/New_York"`);
  }
  try {
    formatterFor(timeZone);
  } catch {
    throw new RangeError(`${name} ${JSON.stringify(timeZone)} is not a time zone this runtime knows`);
  }
  return timeZone;
}

/** The wall-clock fields of `instant` in `timeZone`, as if they were UTC (ms). */
function wallClock(instant: number, timeZone: string): number {
  const parts: Record<string, number> = {};
  for (const part of formatterFor(timeZone).formatToParts(instant)) {
    if (part.type !== 'literal') parts[part.type] = Number(part.value);
  }
  return Date.UTC(parts.year!, parts.month! - 1, parts.day!, parts.hour!, parts.minute!, parts.second!);
}

/**
 * The instant at which the wall clock of `timeZone` reads the given fields. In a gap (clocks
 * moved forward) the later offset wins; in an overlap, the first of the two instants.
 */
export function zonedTime(
  timeZone: string,
  year: number,
  month: number,
  day: number,
  hour: number,
  minute: number,
  second: number,
): Date {
  const asUtc = Date.UTC(year, month, day, hour, minute, second);
  const offset = wallClock(asUtc, timeZone) - asUtc;
  let instant = asUtc - offset;
  const second2 = wallClock(instant, timeZone) - instant;
  if (second2 !== offset) instant = asUtc - second2;
  return new Date(instant);
}

/** The wall-clock date of `now` in `timeZone`, `days` days later (negative: earlier). */
function dateIn(timeZone: string, now: number, days: number): [number, number, number] {
  const wall = new Date(wallClock(now, timeZone) + days * 86_400_000);
  return [wall.getUTCFullYear(), wall.getUTCMonth(), wall.getUTCDate()];
}

function clock(text: string | undefined): [number, number, number] | null {
  const parts = (text ?? '').split(':');
  if (parts.length < 2 || parts.length > 3) return null;
  const [h, m, s] = parts.map(Number) as [number, number, number | undefined];
  const sec = s ?? 0;
  if (!parts.every((p) => /^\d{1,2}$/.test(p)) || h > 23 || m > 59 || sec > 59) return null;
  return [h, m, sec];
}

/**
 * A forum time as an instant, or `null` when the text is none of the forms.
 * @param text "Today 10:11:12", "Yesterday 10:11:12", "Tomorrow 00:05:00", "Sept. 3, 2024
 *   10:11:12" or "Jun 3, 2024 10:11:12" (seconds optional)
 * @param timeZone the zone the page writes times in (default {@link SITE_TIME_ZONE})
 * @param now the moment "Today" is relative to (default the current time)
 */
export function parseForumTime(text: string, timeZone = SITE_TIME_ZONE, now = Date.now()): Date | null {
  const words = text
    .replace(/[\s\u00a0]+/g, ' ')
    .trim()
    .split(' ');
  const first = words[0]?.toLowerCase();
  if (first !== undefined && Object.hasOwn(NATURAL_DAYS, first) && words.length === 2) {
    const time = clock(words[1]);
    if (!time) return null;
    const [y, mo, d] = dateIn(timeZone, now, NATURAL_DAYS[first]!);
    return zonedTime(timeZone, y, mo, d, ...time);
  }
  if (words.length !== 4 || first === undefined) return null;
  const month = MONTHS.indexOf(first.slice(0, 3));
  const day = Number(words[1]!.replace(/,$/, ''));
  const year = Number(words[2]);
  const time = clock(words[3]);
  if (month < 0 || !Number.isInteger(day) || day < 1 || day > 31 || !time) return null;
  if (!Number.isInteger(year) || year < 2000 || year > 9999) return null;
  const date = zonedTime(timeZone, year, month, day, ...time);
  return Number.isNaN(date.getTime()) ? null : date;
}

/**
 * How the forums write `instant` as seen at `now` in `timeZone`: "Today 10:11:12",
 * "Yesterday 10:11:12", "Tomorrow 10:11:12" or "Sept. 3, 2024 10:11:12" (the sandbox's pages use it).
 */
export function formatForumTime(instant: Date, timeZone = SITE_TIME_ZONE, now = Date.now()): string {
  const wall = new Date(wallClock(instant.getTime(), timeZone));
  const two = (n: number) => String(n).padStart(2, '0');
  const time = `${two(wall.getUTCHours())}:${two(wall.getUTCMinutes())}:${two(wall.getUTCSeconds())}`;
  const day = [wall.getUTCFullYear(), wall.getUTCMonth(), wall.getUTCDate()].join('-');
  if (day === dateIn(timeZone, now, 0).join('-')) return `Today ${time}`;
  if (day === dateIn(timeZone, now, -1).join('-')) return `Yesterday ${time}`;
  if (day === dateIn(timeZone, now, 1).join('-')) return `Tomorrow ${time}`;
  return `${AP_MONTHS[wall.getUTCMonth()]} ${wall.getUTCDate()}, ${wall.getUTCFullYear()} ${time}`;
}
