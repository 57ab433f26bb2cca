/**
 * The conversation Llama Guard is shown, built within the model's rules and a
 * size bound (pure). The model takes only `user` and `assistant` turns, which
 * must alternate starting with `user`; given an odd number of turns it judges
 * the user's side of the conversation (prompt classification), given an even
 * number the last assistant turn. So: empty turns are dropped, consecutive
 * turns of one role merged, leading and trailing assistant turns (a prefill)
 * dropped; the result starts and ends with a user turn, or is empty.
 *
 * The bound is in UTF-16 code units over all contents. The model's window is
 * 131,072 tokens and one message may hold 131,072 characters; a token is at
 * most about 4 code units' worth of text in the worst case (emoji, rare
 * scripts), and the safety prompt the model wraps around the conversation
 * takes under a thousand tokens, so 30,000 units always fits. The default,
 * 24,000 units (about 6,000 tokens of English), also bounds cost and latency.
 * Over the bound, the newest user turn is kept (cut from its middle if it must
 * be), then the opening turn (up to a quarter of the bound), then the newest
 * turns between them whole, newest first; what does not fit is cut from the
 * middle of the oldest kept turn or dropped. Text beyond the bound is not
 * judged: the local detectors still read all of it.
 */
import type { GuardRole, GuardTurn } from './port';

export const DEFAULT_BUDGET_CHARS = 24_000;
export const MIN_BUDGET_CHARS = 1_000;
export const MAX_BUDGET_CHARS = 30_000;

/** Stands where a turn's middle was cut out. */
export const CUT_MARK = '\n[…]\n';
/** Joins turns of one role that were merged. */
export const JOIN = '\n\n';
/** A partly fitting older turn is kept only if this much of it fits. */
const MIN_PIECE = 256;

const isHigh = (code: number) => code >= 0xd800 && code <= 0xdbff;
const isLow = (code: number) => code >= 0xdc00 && code <= 0xdfff;

/** The text at most `max` units long, its middle replaced by CUT_MARK; never splits a surrogate pair. */
export function cutMiddle(text: string, max: number): string {
  if (text.length <= max) return text;
  const keep = Math.max(0, max - CUT_MARK.length);
  let head = Math.ceil(keep / 2);
  let tailStart = text.length - (keep - head);
  if (head > 0 && isHigh(text.charCodeAt(head - 1))) head--;
  if (tailStart < text.length && isLow(text.charCodeAt(tailStart))) tailStart++;
  return text.slice(0, head) + CUT_MARK + text.slice(tailStart);
}

/** Merged, alternating, starting and ending with `user`; empty when no user said anything. */
export function normalise(turns: readonly GuardTurn[]): GuardTurn[] {
  const roles: GuardRole[] = [];
  const parts: string[][] = [];
  for (const turn of turns) {
    if (turn.content.trim() === '') continue;
    if (roles.length === 0 && turn.role === 'assistant') continue;
    if (roles.at(-1) === turn.role) parts.at(-1)?.push(turn.content);
    else {
      roles.push(turn.role);
      parts.push([turn.content]);
    }
  }
  if (roles.at(-1) === 'assistant') roles.pop();
  return roles.map((role, i) => ({ role, content: (parts[i] as string[]).join(JOIN) }));
}

const size = (turns: readonly GuardTurn[]) => turns.reduce((sum, t) => sum + t.content.length, 0);

/** The conversation to send: normalised, then fitted within `budget` code units (see the header). */
export function guardConversation(
  turns: readonly GuardTurn[],
  budget: number = DEFAULT_BUDGET_CHARS,
): GuardTurn[] {
  const all = normalise(turns);
  if (size(all) <= budget) return all;
  const n = all.length;
  const newest = all[n - 1] as GuardTurn;
  if (n === 1) return [{ role: 'user', content: cutMiddle(newest.content, budget) }];
  const opening = all[0] as GuardTurn;
  const first = cutMiddle(opening.content, Math.floor(budget / 4));
  const last = cutMiddle(newest.content, budget - first.length - JOIN.length);
  // JOIN is held back for the one merge that dropping turns can cause, after the opening turn.
  let room = budget - first.length - last.length - JOIN.length;
  const between: GuardTurn[] = [];
  for (let i = n - 2; i >= 1; i--) {
    const turn = all[i] as GuardTurn;
    if (turn.content.length <= room) {
      between.push(turn);
      room -= turn.content.length;
      continue;
    }
    if (room >= MIN_PIECE) between.push({ role: turn.role, content: cutMiddle(turn.content, room) });
    break;
  }
  between.reverse();
  return normalise([{ role: 'user', content: first }, ...between, { role: 'user', content: last }]);
}
