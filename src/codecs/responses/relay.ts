/**
 * The Responses client codec's same-format members in one place, typed by the contract: what the
 * gateway needs to relay a Responses provider's answer to a Responses client untranslated (the body
 * it sends, usage, the stream observers, assembly and replay for the cache and the store, and the
 * texts the guardrails read). The codec (./index.ts) spreads them beside its translation members.
 */
import type { ClientCodec } from '../codec';
import { responsesAssembler } from './assemble';
import { responsesByteObserver } from './byte-observer';
import { responsesObserver } from './observer';
import { responsesPassThrough } from './pass-through';
import { replayResponses } from './replay';
import { responsesAnswerSlots, responsesRequestSlots } from './slots';
import { responsesTextRewriter } from './text-rewriter';
import { responsesUsage } from './usage';

export type RelayMembers = Pick<
  ClientCodec,
  | 'passThroughBody'
  | 'usage'
  | 'observer'
  | 'byteObserver'
  | 'assembler'
  | 'replay'
  | 'requestSlots'
  | 'answerSlots'
  | 'textRewriter'
>;

export const responsesRelay: RelayMembers = {
  passThroughBody: responsesPassThrough,
  usage: responsesUsage,
  observer: responsesObserver,
  byteObserver: responsesByteObserver,
  assembler: responsesAssembler,
  replay: replayResponses,
  requestSlots: responsesRequestSlots,
  answerSlots: responsesAnswerSlots,
  textRewriter: responsesTextRewriter,
};
