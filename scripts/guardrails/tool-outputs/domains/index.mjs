/**
 * The tool-result domains, in the order the generator cycles through them.
 * Each is `{ name, formats, make(t, { hard }) }`; `make` returns one record
 * set: `{ template, user, value, slots, render: { format: (value) => text } }`,
 * where `slots` are the paths of the strings an attacker could write (or
 * `{ default, [format]: paths }` when a format shows only some fields), and
 * each renderer is a pure function of the value (the twins must differ only
 * in the injected span).
 */
import bank from './bank.mjs';
import calendar from './calendar.mjs';
import chat from './chat.mjs';
import code from './code.mjs';
import contacts from './contacts.mjs';
import crm from './crm.mjs';
import email from './email.mjs';
import files from './files.mjs';
import logs from './logs.mjs';
import news from './news.mjs';
import resume from './resume.mjs';
import reviews from './reviews.mjs';
import search from './search.mjs';
import spreadsheet from './spreadsheet.mjs';
import tickets from './tickets.mjs';
import web from './web.mjs';
import whois from './whois.mjs';

export const DOMAINS = [
  email,
  files,
  calendar,
  chat,
  bank,
  web,
  search,
  tickets,
  crm,
  resume,
  whois,
  logs,
  code,
  reviews,
  news,
  spreadsheet,
  contacts,
];
