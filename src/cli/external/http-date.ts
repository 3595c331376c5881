/**
 * HTTP-date, the timestamps of HTTP fields, read strictly in its three formats.
 *
 * https://www.rfc-editor.org/rfc/rfc9110#section-5.6.7
 *
 * @module
 */

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const DAY_NAME = "(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)";
const DAY_NAME_L = "(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday)";
const MONTH = `(${MONTHS.join("|")})`;
const TIME_OF_DAY = "(\\d\\d):(\\d\\d):(\\d\\d)";

// "HTTP-date is case sensitive": no `i` flag.
/** IMF-fixdate = day-name "," SP date1 SP time-of-day SP GMT, e.g. "Sun, 06 Nov 1994 08:49:37 GMT". */
const IMF_FIXDATE = new RegExp(`^${DAY_NAME}, (\\d\\d) ${MONTH} (\\d{4}) ${TIME_OF_DAY} GMT$`);
/** rfc850-date = day-name-l "," SP date2 SP time-of-day SP GMT, e.g. "Sunday, 06-Nov-94 08:49:37 GMT". */
const RFC850_DATE = new RegExp(`^${DAY_NAME_L}, (\\d\\d)-${MONTH}-(\\d\\d) ${TIME_OF_DAY} GMT$`);
/** asctime-date = day-name SP date3 SP time-of-day SP year, e.g. "Sun Nov  6 08:49:37 1994". */
const ASCTIME_DATE = new RegExp(`^${DAY_NAME} ${MONTH} (\\d\\d| \\d) ${TIME_OF_DAY} (\\d{4})$`);

/**
 * https://www.rfc-editor.org/rfc/rfc9110#section-5.6.7 — the time an
 * HTTP-date names (ms since the epoch), or null when `value` is not one or
 * names no real time (31 Feb). The day name is not checked (a sender's
 * duty). `now` is for rfc850-date's two-digit year.
 *
 * @example
 * ```ts
 * parseHTTPDate("Sun, 06 Nov 1994 08:49:37 GMT"); // 784111777000
 * parseHTTPDate("Sunday, 06-Nov-94 08:49:37 GMT", Date.UTC(2026, 0, 1)); // 784111777000
 * parseHTTPDate("Sun Nov  6 08:49:37 1994"); // 784111777000
 * parseHTTPDate("sun, 06 nov 1994 08:49:37 gmt"); // null
 * ```
 */
export function parseHTTPDate(value: string, now: number = Date.now()): number | null {
  let match = IMF_FIXDATE.exec(value);
  if (match !== null) return utc(Number(match[3]), match[2]!, Number(match[1]), match[4]!, match[5]!, match[6]!);
  match = ASCTIME_DATE.exec(value);
  if (match !== null) return utc(Number(match[6]), match[1]!, Number(match[2]!.trim()), match[3]!, match[4]!, match[5]!);
  match = RFC850_DATE.exec(value);
  if (match === null) return null;
  const thisYear = new Date(now).getUTCFullYear();
  const year = thisYear - (thisYear % 100) + Number(match[3]);
  const [, day, month, , hour, minute, second] = match;
  const time = utc(year, month!, Number(day), hour!, minute!, second!);
  // "MUST interpret a timestamp that appears to be more than 50 years in the future as representing the most recent year in the past that had the same last two digits."
  if (time === null || time - now <= 50 * 365.25 * 86_400_000) return time;
  return utc(year - 100, month!, Number(day), hour!, minute!, second!);
}

/** The UTC time of a date and time of day, or null when either is out of range. */
function utc(year: number, month: string, day: number, hour: string, minute: string, second: string): number | null {
  const m = MONTHS.indexOf(month);
  const h = Number(hour);
  const min = Number(minute);
  // second = 2DIGIT, "60" for a leap second (RFC 5322 §3.3, which IMF-fixdate subsets).
  const s = Number(second);
  if (h > 23 || min > 59 || s > 60 || day < 1) return null;
  const start = Date.UTC(year, m, day, h, min);
  return new Date(start).getUTCDate() === day ? start + s * 1000 : null;
}
