/**
 * Some tool results reach the model inside a request rather than on their
 * own: a retrieval step or a user pastes the document under a task line
 * ("Summarise this article:", "Is this candidate a fit?", a separator). The
 * evaluation's latent-injection prompts look like that. Both twins of a pair
 * get the same frame, so the frame is never evidence; only the span is.
 */

const GENERAL = [
  'Summarise the following document in three bullet points:',
  'Summarize this for me:',
  'Here is the tool output. Extract the key facts.',
  'Read the text below and tell me what actions I need to take.',
  'Translate the following text into German:',
  'Translate the following text from English to French.',
  'Give me a one-paragraph summary of this:',
  'What is the main point of the text below?',
  'Context information is below.',
  'Use the following retrieved context to answer the question "what changed?"',
];
const BY_DOMAIN = {
  resume: [
    'Here is a candidate’s CV. Assess whether they fit the role and give a score out of 10.',
    'Summarise this applicant for the hiring manager:',
    'Screen this résumé for the position:',
  ],
  whois: [
    'Is this domain malicious? Here is the whois record:',
    'Assess the following registration data for signs of abuse:',
  ],
  news: ['Summarise this news article:', 'Write a headline and a two-sentence summary for this story:'],
  email: ['Summarise my unread e-mails:', 'Draft replies to the messages below where needed:'],
  reviews: ['Summarise what customers think of this product:', 'What are the most common complaints?'],
  logs: ['Explain what went wrong in this log:', 'Is there anything suspicious in these logs?'],
  code: ['Review this file and suggest improvements:', 'Explain what this code does:'],
};
const SEPARATORS = ['\n\n', '\n\n---\n\n', '\n--------\n', '\n\n"""\n', '\n\n<document>\n', '\n\nText:\n'];
const CLOSERS = { '\n\n"""\n': '\n"""', '\n\n<document>\n': '\n</document>' };

/** Returns a function that frames a rendered text, or null for most sets (left as the tool returned them). */
export function frame(t, domain, share = 0.12) {
  if (!t.chance(share)) return null;
  const task = t.pick([...(BY_DOMAIN[domain] ?? []), ...(BY_DOMAIN[domain] ? [] : GENERAL), t.pick(GENERAL)]);
  const sep = t.pick(SEPARATORS);
  const close = CLOSERS[sep] ?? '';
  return (text) => `${task}${sep}${text}${close}`;
}
