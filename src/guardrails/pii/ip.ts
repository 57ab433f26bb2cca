/**
 * IP addresses. IPv4: four dotted decimal octets of 0–255 without leading
 * zeros, not glued to a word or a longer dotted number, and not right after
 * "version", "release", "build" or "firmware" (a four-part version number).
 * IPv6: the full eight groups or a `::`-compressed form, optionally ending in
 * an IPv4 address; it must contain a digit, which keeps `Abc::Def` out, and a
 * time such as 12:30:45 has too few groups.
 */
import { charSet } from './char-set';
import { type Detector, patternDetector } from './detector';

const OCTET = '(?:25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)';
const IPV4 = new RegExp(`(?<![\\w.])${OCTET}(?:\\.${OCTET}){3}(?![\\w]|\\.\\d)`, 'g');
const VERSION_BEFORE = /(?:version|release|build|firmware|ver\.?)\s{0,2}$/i;

function checkIpv4(text: string, start: number, end: number): number {
  return VERSION_BEFORE.test(text.slice(Math.max(0, start - 12), start)) ? -1 : end;
}

// The hex-and-colon run is taken atomically (a look-ahead capture) and checked by code.
const IPV6 = /(?<![\w:.])(?=([0-9A-Fa-f]{0,4}:[0-9A-Fa-f:]{1,40}(?:\.\d{1,3}){0,3}))\1(?![\w:]|\.\d)/g;
const HEX_GROUP = /^[0-9A-Fa-f]{1,4}$/;
const IPV4_WHOLE = new RegExp(`^${OCTET}(?:\\.${OCTET}){3}$`);

function checkIpv6(text: string, start: number, end: number): number {
  const s = text.slice(start, end);
  if (!/\d/.test(s)) return -1;
  const halves = s.split('::');
  if (halves.length > 2) return -1;
  let groups = 0;
  for (let h = 0; h < halves.length; h++) {
    const half = halves[h]!;
    if (half === '') continue;
    const parts = half.split(':');
    for (let i = 0; i < parts.length; i++) {
      const part = parts[i]!;
      const last = h === halves.length - 1 && i === parts.length - 1;
      if (last && part.includes('.')) {
        if (!IPV4_WHOLE.test(part)) return -1;
        groups += 2;
      } else if (HEX_GROUP.test(part)) groups++;
      else return -1;
    }
  }
  const compressed = halves.length === 2;
  return (compressed ? groups >= 1 && groups <= 7 : groups === 8) ? end : -1;
}

const ipv4Detector: Detector = patternDetector({
  kind: 'ip',
  rank: 32,
  maxLength: 15,
  lookbehind: 12,
  pattern: IPV4,
  needs: ['.'],
  check: checkIpv4,
  tail: { chars: charSet('0-9.'), starts: charSet('0-9') },
});

const ipv6Detector: Detector = patternDetector({
  kind: 'ip',
  rank: 33,
  maxLength: 4 + 1 + 40 + 12,
  pattern: IPV6,
  needs: [':'],
  check: checkIpv6,
  tail: { chars: charSet('0-9A-Fa-f:.'), starts: charSet('0-9A-Fa-f:') },
});

export const ipDetectors: readonly Detector[] = [ipv4Detector, ipv6Detector];
