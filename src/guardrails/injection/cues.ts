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

/**
 * Word classes with their words in English, German, Spanish and French (and a few Russian, Croatian,
 * Italian and Portuguese ones), as written: they are folded like the text when the table is built.
 */
const CLASSES = {
  /** Override verbs. */
  override:
    'ignore ignoring disregard disregarding forget forgot override bypass ignoriere ignorieren ignoriert ignorier vergiss vergessen vergesst vergiß missachte olvida olvide olvidar olviden ignora ignorar ignoren oublie oubliez oublier ignorez abweichend забудь забудьте игнорируй игнорируйте zaboravi dimentica esquece',
  /** What came before, as a pronoun or adverb ("ignore the above", "vergiss alles"). */
  before: 'above before everything all alles vorher zuvor oben davor todas todo toutes tout dessus все sve',
  instructions:
    'instructions instruction rules prompts prompt directions guidelines directives commands orders programming assignments tasks anweisungen anweisung instruktionen regeln befehle aufgaben vorgaben ausführungen instrucciones instrucción reglas órdenes indicaciones consignes règles tâches ordres инструкции указания instrukcije upute istruzioni instruções',
  you: 'you du tu vous ihr sie',
  now: 'now jetzt nun ahora maintenant henceforth désormais',
  /** Act / pretend. */
  pretend:
    'act pretend roleplay simulate impersonate fungieren fungierst agieren agiere verhalte spiele actúa actua finge simula agis joue',
  /** Special modes. */
  'mode-name': 'developer entwickler desarrollador développeur god debug jailbreak unrestricted',
  mode: 'mode modus modo',
  without: 'no without ohne keine sin sans aucune any',
  limits:
    'restrictions restriction limits limitations filters filter censorship boundaries guardrails einschränkungen grenzen beschränkungen filter zensur restricciones límites limites filtros censura restrictions limites filtres',
  system: 'system systems',
  reveal:
    'reveal print show output repeat display leak zeige zeig gib verrate nenne wiederhole muestra revela dime repite montre révèle affiche répète',
  new: 'new additional further weitere zusätzliche neue neuen neues nuevas nuevo nueva nouvelles nouvelle nouveau',
  from: 'from ab von desde partir dès',
  /** Single-word cues. */
  single:
    'jailbreak jailbroken jailbreaking uncensored unfiltered unrestricted amoral systemprompt systemanweisung',
  be: 'are bist seid eres es êtes be sein ser être',
  your: 'your deine deinen dein ihre tus tes vos',
  /** A task is finished. */
  done: 'done enough finished complete fertig erledigt genug terminado listo fini terminé',
  /** What came before, as an adjective ("forget the previous draft" is no attack; "… instructions" is). */
  previous:
    'previous prior earlier preceding vorherigen vorherige vorigen obigen obige bisherigen anteriores anterior previas précédentes précédents précédent предыдущие',
  // Classes for the tool-result model's cues (the prompt model was trained before them and ignores them).
  /** Who an injection in a tool result addresses: the model reading it. */
  ai: 'ai llm llms assistant assistants chatbot bot gpt chatgpt claude gemini copilot llama automated ki assistent assistentin ia asistente assistente',
  /** What that reader is doing to the text. */
  reading:
    'reading processing summarising summarizing summarise summarize analysing analyzing parsing reviewing screening evaluating scanning reads processes',
  task: 'task tasks mission assignment aufgabe tarea tâche',
  gave: 'gave given assigned original initial beginning',
  confirm: 'confirmation confirming approval permission consent verification',
  message: 'message messages',
  rest: 'rest remainder remaining',
  reply: 'reply respond answer say print repeat output write',
  only: 'only solely exclusively',
  tool: 'tool tools function functions',
  use: 'use call invoke execute',
  send: 'send forward share upload transfer wire post email',
  secret: 'password passwords passcode credentials token tokens secret secrets iban',
} as const;
type ClassName = keyof typeof CLASSES;
/** At most 32: a word's classes are the bits of one 32-bit integer. */
const CLASS_NAMES = Object.keys(CLASSES) as ClassName[];
const bit = (name: ClassName): number => CLASS_NAMES.indexOf(name);

/** A pair cue: a word of `second` within `distance` words after a word of `first` (or before: `either`). */
interface PairCue {
  readonly name: string;
  readonly first: number;
  readonly second: number;
  readonly distance: number;
  readonly either: boolean;
}
const pair = (
  name: string,
  first: ClassName,
  second: ClassName,
  distance: number,
  either = false,
): PairCue => ({
  name,
  first: bit(first),
  second: bit(second),
  distance,
  either,
});
/** In cue-id order: the shipped model's cue weights follow it, so append, never reorder. */
const PAIRS: readonly PairCue[] = [
  pair('override-instructions', 'override', 'instructions', 6, true), // ignore … instructions / Anweisungen … ignorieren
  pair('override-before', 'override', 'before', 3, true), // ignore the above / vergiss alles
  pair('previous-instructions', 'previous', 'instructions', 2), // vorherigen Anweisungen
  pair('all-instructions', 'before', 'instructions', 2), // all instructions / alle Anweisungen
  pair('you-now', 'you', 'now', 2, true), // you are now / du bist jetzt / ahora eres
  pair('from-now', 'from', 'now', 2), // from now on / ab jetzt / von nun an
  pair('pretend-be', 'pretend', 'be', 2), // pretend to be / pretend you are
  pair('special-mode', 'mode-name', 'mode', 1), // developer mode, god mode
  pair('without-limits', 'without', 'limits', 2), // no restrictions / ohne Einschränkungen
  pair('system-prompt', 'system', 'instructions', 1),
  pair('reveal-instructions', 'reveal', 'instructions', 3), // print your instructions / show the prompt
  pair('new-instructions', 'new', 'instructions', 1), // new instructions / neue Anweisungen
  pair('your-instructions', 'your', 'instructions', 1), // deine Anweisungen
  pair('done-now', 'done', 'now', 3), // that is done. Now … / das ist erledigt. Jetzt …
];

/**
 * The tool-result model's cues, after the single-word cue in cue-id order (the prompt model knows only
 * the first DIRECT_CUE_COUNT cues: the pairs above and the single words).
 */
const TOOL_PAIRS: readonly PairCue[] = [
  pair('you-ai', 'you', 'ai', 3), // to you, the AI language model / if you are an AI
  pair('ai-reading', 'ai', 'reading', 3, true), // an AI assistant processing this / the LLM summarising it
  pair('task-given', 'task', 'gave', 4, true), // the task that I gave you / the original task
  pair('without-confirm', 'without', 'confirm', 3), // without asking for confirmation
  pair('system-message', 'system', 'message', 1), // ###(system_message)
  pair('override-rest', 'override', 'rest', 3), // ignore the rest of this data
  pair('reply-only', 'reply', 'only', 2, true), // reply only with / only say
  pair('use-tool', 'use', 'tool', 3), // you should use the tool `send_money`
  pair('send-all', 'send', 'before', 2), // forward all messages / send everything
  pair('send-secret', 'send', 'secret', 5, true), // send the password / share the IBAN
];

const SINGLE_CLASS = bit('single');
/**
 * Every cue's name, in cue-id order: the pairs, then the single words ("jailbreak", "uncensored"), then
 * the tool-result model's pairs.
 */
export const CUE_NAMES: readonly string[] = [
  ...PAIRS.map((p) => p.name),
  'single-word',
  ...TOOL_PAIRS.map((p) => p.name),
];
export const CUE_COUNT = CUE_NAMES.length;
/** How many cues the prompt model (model.ts) was trained with: the first ones, in cue-id order. */
export const DIRECT_CUE_COUNT = PAIRS.length + 1;

const TABLE_BITS = 10;
const TABLE_MASK = (1 << TABLE_BITS) - 1;
const tableKeys = new Int32Array(1 << TABLE_BITS);
const tableClasses = new Uint32Array(1 << TABLE_BITS);
CLASS_NAMES.forEach((name, cls) => {
  for (const word of CLASSES[name].split(' ')) {
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
const lastSeen = new Int32Array(CLASS_NAMES.length);
const NEVER = -1_000_000;

/** Starts a scan: forgets the classes seen in the previous one. */
export function resetCues(): void {
  lastSeen.fill(NEVER);
}

/** Feeds the `index`-th word of the scan (class bits `classes` ≠ 0), reporting every cue it completes. */
export function cueStep(classes: number, index: number, position: number, sink: CueSink): void {
  pairSteps(PAIRS, 0, classes, index, position, sink);
  if ((classes >>> SINGLE_CLASS) & 1) sink(PAIRS.length, position);
  pairSteps(TOOL_PAIRS, DIRECT_CUE_COUNT, classes, index, position, sink);
  for (let k = 0; k < CLASS_NAMES.length; k++) if ((classes >>> k) & 1) lastSeen[k] = index;
}

/** Reports each of `pairs` (cue ids from `first`) that the word completes. */
function pairSteps(
  pairs: readonly PairCue[],
  first: number,
  classes: number,
  index: number,
  position: number,
  sink: CueSink,
): void {
  for (let c = 0; c < pairs.length; c++) {
    const pair = pairs[c]!;
    if (
      ((classes >>> pair.second) & 1 && index - lastSeen[pair.first]! <= pair.distance) ||
      (pair.either && (classes >>> pair.first) & 1 && index - lastSeen[pair.second]! <= pair.distance)
    ) {
      sink(first + c, position);
    }
  }
}
