/**
 * Injection cues: short word patterns that an attack uses and a benign host
 * text cannot water down ("ignore … previous … instructions", "you are now",
 * "developer mode", "no restrictions", "system prompt", and their German,
 * Spanish and French forms). Words belong to classes (a bit each); a cue fires
 * when a word of one class follows (or, for some, precedes) a word of another
 * within a few words, or, for the single-word cues, on the word alone. The
 * scanner (features.ts) calls `cueStep` once per completed word with that
 * word's hash, so matching is part of its single pass: one table probe per
 * word, a few comparisons when the word is in a class, no allocation.
 * The model gives each cue its own weight, added to a window's logit without
 * the √(feature count) normalisation that dilutes the n-grams (score.ts).
 */
import { fold } from './normalise';

export type CueSink = (cue: number, position: number) => void;

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

/** The scanner's hash of a word (features.ts): FNV-1a over its folded units. */
export function wordHash(word: string): number {
  let h = FNV_OFFSET;
  for (let i = 0; i < word.length; i++) h = Math.imul(h ^ fold(word.charCodeAt(i)), FNV_PRIME);
  return h;
}

/** Word classes, one bit each, with their words in English, German, Spanish and French (folded). */
const CLASSES: readonly (readonly string[])[] = [
  // 0 override verbs
  'ignore ignoring disregard disregarding forget forgot override bypass ignoriere ignorieren ignoriert ignorier vergiss vergessen vergesst vergiß missachte olvida olvide olvidar olviden ignora ignorar ignoren oublie oubliez oublier ignorez abweichend забудь забудьте игнорируй игнорируйте zaboravi dimentica esquece'.split(
    ' ',
  ),
  // 1 what came before, as a pronoun or adverb ("ignore the above", "vergiss alles")
  'above before everything all alles vorher zuvor oben davor todas todo toutes tout dessus все sve'.split(
    ' ',
  ),
  // 2 instructions
  'instructions instruction rules prompts prompt directions guidelines directives commands orders programming assignments tasks anweisungen anweisung instruktionen regeln befehle aufgaben vorgaben ausführungen instrucciones instrucción reglas órdenes indicaciones consignes règles tâches ordres инструкции указания instrukcije upute istruzioni instruções'.split(
    ' ',
  ),
  // 3 you
  'you du tu vous ihr sie'.split(' '),
  // 4 now
  'now jetzt nun ahora maintenant henceforth désormais'.split(' '),
  // 5 act / pretend
  'act pretend roleplay simulate impersonate fungieren fungierst agieren agiere verhalte spiele actúa actua finge simula agis joue'.split(
    ' ',
  ),
  // 6 as
  'as als como comme'.split(' '),
  // 7 special modes
  'developer entwickler desarrollador développeur god debug jailbreak unrestricted'.split(' '),
  // 8 mode
  'mode modus modo'.split(' '),
  // 9 without
  'no without ohne keine sin sans aucune any'.split(' '),
  // 10 limits
  'restrictions restriction limits limitations filters filter censorship boundaries guardrails einschränkungen grenzen beschränkungen filter zensur restricciones límites limites filtros censura restrictions limites filtres'.split(
    ' ',
  ),
  // 11 system
  'system systems'.split(' '),
  // 12 reveal
  'reveal print show output repeat display leak zeige zeig gib verrate nenne wiederhole muestra revela dime repite montre révèle affiche répète'.split(
    ' ',
  ),
  // 13 new
  'new additional further weitere zusätzliche neue neuen neues nuevas nuevo nueva nouvelles nouvelle nouveau'.split(
    ' ',
  ),
  // 14 from
  'from ab von desde partir dès'.split(' '),
  // 15 single-word cues
  'jailbreak jailbroken jailbreaking uncensored unfiltered unrestricted amoral systemprompt systemanweisung'.split(
    ' ',
  ),
  // 16 are / be
  'are bist seid eres es êtes be sein ser être'.split(' '),
  // 17 your
  'your deine deinen dein ihre tus tes vos'.split(' '),
  // 18 a task is finished
  'done enough finished complete fertig erledigt genug terminado listo fini terminé'.split(' '),
  // 19 what came before, as an adjective ("forget the previous draft" is no attack; "… instructions" is)
  'previous prior earlier preceding vorherigen vorherige vorigen obigen obige bisherigen anteriores anterior previas précédentes précédents précédent предыдущие'.split(
    ' ',
  ),
];

/** A pair cue: a word of `second` within `distance` words after a word of `first` (or before: `either`). */
interface PairCue {
  readonly first: number;
  readonly second: number;
  readonly distance: number;
  readonly either: boolean;
}
const PAIRS: readonly PairCue[] = [
  { first: 0, second: 2, distance: 6, either: true }, // ignore … instructions / Anweisungen … ignorieren
  { first: 0, second: 1, distance: 3, either: true }, // ignore the above / vergiss alles
  { first: 19, second: 2, distance: 2, either: false }, // previous instructions / vorherigen Anweisungen
  { first: 1, second: 2, distance: 2, either: false }, // all instructions / alle Anweisungen
  { first: 3, second: 4, distance: 2, either: true }, // you are now / du bist jetzt / ahora eres
  { first: 14, second: 4, distance: 2, either: false }, // from now on / ab jetzt / von nun an
  { first: 5, second: 16, distance: 2, either: false }, // pretend to be / pretend you are
  { first: 7, second: 8, distance: 1, either: false }, // developer mode / Entwicklermodus is one word
  { first: 9, second: 10, distance: 2, either: false }, // no restrictions / ohne Einschränkungen
  { first: 11, second: 2, distance: 1, either: false }, // system prompt
  { first: 12, second: 2, distance: 3, either: false }, // reveal your instructions / print the prompt
  { first: 13, second: 2, distance: 1, either: false }, // new instructions / neue Anweisungen
  { first: 17, second: 2, distance: 1, either: false }, // your instructions / deine Anweisungen
  { first: 18, second: 4, distance: 3, either: false }, // that is done. now … / das ist erledigt. Jetzt …
];

const SINGLE_CLASS = 15;
/** Cue ids: the pairs, then the single-word cue. */
export const CUE_COUNT = PAIRS.length + 1;

const TABLE_BITS = 10;
const TABLE_MASK = (1 << TABLE_BITS) - 1;
const tableKeys = new Int32Array(1 << TABLE_BITS);
const tableClasses = new Uint32Array(1 << TABLE_BITS);
CLASSES.forEach((words, cls) => {
  for (const word of words) {
    const h = wordHash(word) | 0;
    let slot = (h ^ (h >>> TABLE_BITS)) & TABLE_MASK;
    while (tableClasses[slot] !== 0 && tableKeys[slot] !== h) slot = (slot + 1) & TABLE_MASK;
    tableKeys[slot] = h;
    tableClasses[slot]! |= 1 << cls;
  }
});

/** The class bits of the word whose scanner hash is `h` (0 for almost every word). */
export function wordClasses(h: number): number {
  const key = h | 0;
  let slot = (key ^ (key >>> TABLE_BITS)) & TABLE_MASK;
  for (;;) {
    const classes = tableClasses[slot]!;
    if (classes === 0 || tableKeys[slot] === key) return classes;
    slot = (slot + 1) & TABLE_MASK;
  }
}

/** Word index at which each class was last seen in the current scan. */
const lastSeen = new Int32Array(CLASSES.length);
const NEVER = -1_000_000;

/** Starts a scan: forgets the classes seen in the previous one. */
export function resetCues(): void {
  lastSeen.fill(NEVER);
}

/** Feeds the `index`-th word of the scan (class bits `classes` ≠ 0), reporting every cue it completes. */
export function cueStep(classes: number, index: number, position: number, sink: CueSink): void {
  for (let c = 0; c < PAIRS.length; c++) {
    const pair = PAIRS[c]!;
    if (
      ((classes >>> pair.second) & 1 && index - lastSeen[pair.first]! <= pair.distance) ||
      (pair.either && (classes >>> pair.first) & 1 && index - lastSeen[pair.second]! <= pair.distance)
    ) {
      sink(c, position);
    }
  }
  if ((classes >>> SINGLE_CLASS) & 1) sink(PAIRS.length, position);
  for (let k = 0; k < CLASSES.length; k++) if ((classes >>> k) & 1) lastSeen[k] = index;
}
