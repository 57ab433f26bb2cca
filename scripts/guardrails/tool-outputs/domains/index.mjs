/**
 * The tool-result domains, in the order the generator cycles through them.
 * Each is `{ name, formats, make(t, { hard }) }`; `make` returns one record
 * set: `{ template, user, value, slots, render: { format: (value) => text } }`,
 * where `slots` are the paths of the strings an attacker could write.
 */
import bank from './bank.mjs';
import calendar from './calendar.mjs';
import chat from './chat.mjs';
import email from './email.mjs';
import files from './files.mjs';

export const DOMAINS = [email, files, calendar, chat, bank];
