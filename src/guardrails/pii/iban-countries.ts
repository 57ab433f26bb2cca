/**
 * IBAN length per country (ISO 13616 registry, SWIFT release of 2024): an
 * IBAN whose country is not listed, or whose length differs from its
 * country's, is not an IBAN whatever its checksum.
 */
/** Country code and length, e.g. `DE22`. */
const TABLE =
  'AD24 AE23 AL28 AT20 AZ28 BA20 BE16 BG22 BH22 BI27 BR29 BY28 CH21 CR22 CY28 CZ24 DE22 DJ27 DK18 ' +
  'DO28 EE20 EG29 ES24 FI18 FK18 FO18 FR27 GB22 GE22 GI23 GL18 GR27 GT28 HR21 HU28 IE22 IL23 IQ23 ' +
  'IS26 IT27 JO30 KW30 KZ20 LB28 LC32 LI21 LT20 LU20 LV21 LY25 MC27 MD24 ME22 MK19 MN20 MR27 MT31 ' +
  'MU30 NI28 NL18 NO15 OM23 PK24 PL28 PS29 PT25 QA29 RO24 RS22 RU33 SA24 SC31 SD18 SE24 SI19 SK24 ' +
  'SM27 SO23 ST25 SV28 TL23 TN24 TR26 UA29 VA22 VG24 XK20 YE30';

export const IBAN_LENGTHS: ReadonlyMap<string, number> = new Map(
  TABLE.split(' ').map((entry) => [entry.slice(0, 2), Number(entry.slice(2))]),
);
