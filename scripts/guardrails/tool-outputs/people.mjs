/**
 * Who and where: the people, companies, places and contact details every
 * domain shares (a bank statement and an inbox name the same kinds of
 * people). Domain-specific words live with their domain. All names here are
 * invented or common given names; companies and web domains are made up.
 * Attack goals draw their outside addresses from these same lists, so an
 * address is never evidence of an attack by itself.
 */

export const FIRST = [
  'Olivia',
  'Liam',
  'Amara',
  'Noah',
  'Sofia',
  'Mateo',
  'Hannah',
  'Yusuf',
  'Priya',
  'Lukas',
  'Chloé',
  'Diego',
  'Mei',
  'Tomás',
  'Ingrid',
  'Kwame',
  'Aisha',
  'Jonas',
  'Elena',
  'Rahul',
  'Freya',
  'Samuel',
  'Nadia',
  'Oskar',
  'Leila',
  'Marcus',
  'Yuki',
  'Fatima',
  'Henrik',
  'Grace',
  'Ibrahim',
  'Zoe',
  'Daniel',
  'Keiko',
  'Pablo',
  'Anya',
  'Ethan',
  'Nora',
  'Carlos',
  'Sara',
  'Ben',
  'Lucía',
  'Victor',
  'Maya',
  'Arjun',
  'Clara',
  'Felix',
  'Rosa',
  'Tariq',
  'Julia',
  'Owen',
  'Ines',
  'Dmitri',
  'Ava',
  'Kofi',
  'Lena',
  'Hugo',
  'Emily',
  'Ravi',
  'Astrid',
];
export const LAST = [
  'Okafor',
  'Lindqvist',
  'Moreau',
  'Tanaka',
  'Fischer',
  'Castillo',
  'Nguyen',
  'Haddad',
  'Kowalski',
  'Reyes',
  'Brennan',
  'Schneider',
  'Osei',
  'Petrov',
  'Silva',
  'Kaur',
  'Whitaker',
  'Andersen',
  'Rossi',
  'Yilmaz',
  'Dubois',
  'Murphy',
  'Sato',
  'Mendes',
  'Johansson',
  'Adeyemi',
  'Novak',
  'Clarke',
  'Hoffmann',
  'Bianchi',
  'Chen',
  'Walsh',
  'Park',
  'Lopez',
  'Ahmed',
  'Berger',
  'Costa',
  'Ivanova',
  'Foster',
  'Gupta',
  'Eriksen',
  'Vargas',
  'Keller',
  'Mensah',
  'Duarte',
  'Hartmann',
  'Quinn',
  'Sokolov',
  'Takahashi',
  'Barros',
  'Holm',
  'Farouk',
  'Lambert',
];

export const COMPANIES = [
  { name: 'Harbor & Finch', domain: 'harborfinch.com' },
  { name: 'Nordlys Analytics', domain: 'nordlys-analytics.com' },
  { name: 'Quillstone Legal', domain: 'quillstonelegal.co.uk' },
  { name: 'Brightwater Logistics', domain: 'brightwater-logistics.com' },
  { name: 'Tessellate Labs', domain: 'tessellatelabs.io' },
  { name: 'Marigold Health', domain: 'marigoldhealth.org' },
  { name: 'Ridgeline Outdoor', domain: 'ridgelineoutdoor.com' },
  { name: 'Fernhill Studios', domain: 'fernhillstudios.com' },
  { name: 'Lumengrid Energy', domain: 'lumengrid.energy' },
  { name: 'Pinecrest Realty', domain: 'pinecrestrealty.com' },
  { name: 'Saltmarsh Coffee Roasters', domain: 'saltmarshcoffee.com' },
  { name: 'Vantage Point Capital', domain: 'vantagepointcap.com' },
  { name: 'Kestrel Aerospace', domain: 'kestrel-aero.com' },
  { name: 'Bluefin Systems', domain: 'bluefinsystems.net' },
  { name: 'Alder & Rowe', domain: 'alderrowe.com' },
  { name: 'Meridian Freight', domain: 'meridianfreight.eu' },
  { name: 'Sundial Software', domain: 'sundialsoft.com' },
  { name: 'Halcyon Insurance', domain: 'halcyon-insurance.com' },
  { name: 'Orchard Lane Bakery', domain: 'orchardlanebakery.com' },
  { name: 'Cobalt Ridge Mining', domain: 'cobaltridge.ca' },
  { name: 'Wavecrest Media', domain: 'wavecrestmedia.com' },
  { name: 'Stonebridge Architects', domain: 'stonebridge-arch.de' },
  { name: 'Kiteworks Robotics', domain: 'kiteworksrobotics.com' },
  { name: 'Juniper Dental Group', domain: 'juniperdental.com' },
  { name: 'Polaris Learning', domain: 'polarislearning.edu' },
  { name: 'Granite Peak Brewing', domain: 'granitepeakbrewing.com' },
  { name: 'Atlas Biotech', domain: 'atlasbiotech.io' },
  { name: 'Silverline Telecom', domain: 'silverline-tel.com' },
];

export const PROVIDERS = [
  'gmail.com',
  'outlook.com',
  'proton.me',
  'yahoo.com',
  'icloud.com',
  'fastmail.com',
  'gmx.de',
  'hotmail.co.uk',
  'web.de',
  'mail.com',
  'zoho.com',
  'aol.com',
  'posteo.net',
  'laposte.net',
];

export const CITIES = [
  { city: 'Lisbon', country: 'Portugal', cc: 'PT' },
  { city: 'Austin', country: 'United States', cc: 'US' },
  { city: 'Manchester', country: 'United Kingdom', cc: 'GB' },
  { city: 'Hamburg', country: 'Germany', cc: 'DE' },
  { city: 'Lyon', country: 'France', cc: 'FR' },
  { city: 'Toronto', country: 'Canada', cc: 'CA' },
  { city: 'Melbourne', country: 'Australia', cc: 'AU' },
  { city: 'Rotterdam', country: 'Netherlands', cc: 'NL' },
  { city: 'Denver', country: 'United States', cc: 'US' },
  { city: 'Valencia', country: 'Spain', cc: 'ES' },
  { city: 'Gothenburg', country: 'Sweden', cc: 'SE' },
  { city: 'Dublin', country: 'Ireland', cc: 'IE' },
  { city: 'Osaka', country: 'Japan', cc: 'JP' },
  { city: 'Nairobi', country: 'Kenya', cc: 'KE' },
  { city: 'Seattle', country: 'United States', cc: 'US' },
  { city: 'Zurich', country: 'Switzerland', cc: 'CH' },
  { city: 'Kraków', country: 'Poland', cc: 'PL' },
  { city: 'Bristol', country: 'United Kingdom', cc: 'GB' },
  { city: 'São Paulo', country: 'Brazil', cc: 'BR' },
  { city: 'Singapore', country: 'Singapore', cc: 'SG' },
];

const STREETS = [
  'Maple Avenue',
  'Harbour Road',
  'Kastanienallee',
  'Rue des Lilas',
  'Elm Street',
  'Calle Mayor',
  'Queen Street',
  'Birchwood Drive',
  'Station Road',
  'Oak Lane',
  'Via Roma',
  'Lakeview Terrace',
  'Mill Street',
  'Hillcrest Road',
  'Rua Augusta',
  'Park Lane',
  'Cedar Court',
  'Bahnhofstrasse',
  'Willow Way',
  'Market Square',
];

export function person(t) {
  const first = t.pick(FIRST);
  const last = t.pick(LAST);
  return { first, last, name: `${first} ${last}` };
}

const ascii = (s) =>
  s
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase();

/** A personal or work address for `p`, in one of the shapes real mailboxes use. */
export function emailOf(t, p, domain) {
  const f = ascii(p.first);
  const l = ascii(p.last);
  const d = domain ?? t.pick(PROVIDERS);
  const local = t.pick([
    `${f}.${l}`,
    `${f}.${l}`,
    `${f[0]}${l}`,
    `${f}${t.int(1, 99)}`,
    `${f}_${l}`,
    `${l}.${f}`,
    f,
  ]);
  return `${local}@${d}`;
}

export function company(t) {
  return t.pick(COMPANIES);
}

export function address(t) {
  const c = t.pick(CITIES);
  return { street: `${t.int(2, 240)} ${t.pick(STREETS)}`, city: c.city, country: c.country, cc: c.cc };
}

export function phone(t, cc = 'US') {
  const prefix = { US: '+1', CA: '+1', GB: '+44', DE: '+49', FR: '+33', ES: '+34', PT: '+351', NL: '+31' }[
    cc
  ];
  if (!prefix) return `+${t.int(30, 99)} ${t.digits(3)} ${t.digits(3)} ${t.digits(4)}`;
  if (prefix === '+1') return `+1 (${t.int(201, 989)}) ${t.digits(3)}-${t.digits(4)}`;
  return `${prefix} ${t.int(10, 99)} ${t.digits(4)} ${t.digits(4)}`;
}

/** A syntactically plausible IBAN (the checksum is not computed: no tool here validates it). */
export function iban(t) {
  const cc = t.pick(['DE', 'GB', 'FR', 'ES', 'NL', 'IE', 'PT', 'IT', 'BE', 'CH']);
  const len = { DE: 18, GB: 18, FR: 23, ES: 20, NL: 14, IE: 18, PT: 21, IT: 23, BE: 12, CH: 17 }[cc];
  const body = cc === 'GB' || cc === 'NL' || cc === 'IE' ? `${t.code(4)}${t.digits(len - 4)}` : t.digits(len);
  return `${cc}${t.digits(2)}${body}`;
}

export const SITE_WORDS = [
  'northpeak',
  'quickfiles',
  'docshare',
  'travelnest',
  'greenleaf',
  'pixelforge',
  'dataharbor',
  'cloudberry',
  'sparrowmail',
  'tinyurl-like',
  'linkhub',
  'securebox',
  'promo-deals',
  'openledger',
  'fastpay',
  'verify-now',
];
export const TLDS = ['com', 'net', 'io', 'org', 'co', 'app', 'info', 'xyz', 'site'];

/** An arbitrary website URL, such as benign pages and attack goals both use. */
export function url(t, path) {
  const host = `${t.chance(0.3) ? 'www.' : ''}${t.pick(SITE_WORDS)}.${t.pick(TLDS)}`;
  const p =
    path ??
    t.pick([
      '',
      `/${t.hex(6)}`,
      `/share/${t.code(8)}`,
      `/upload`,
      `/r/${t.code(6)}`,
      `/form/${t.int(100, 999)}`,
    ]);
  return `https://${host}${p}`;
}
