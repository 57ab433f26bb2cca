/**
 * The guardrails' rewriter of an Anthropic Messages stream (src/guardrails/stream-guard.ts): each
 * content block's text or partial JSON goes through its own text transform, and what a transform
 * still holds is flushed as one more delta before the block's content_block_stop.
 */
import type { RewrittenEvent } from '../../sse/observer';
import type { TextFlush, TextRewriter, TextThrough } from '../codec';
import { obj } from '../json';

/** Keys `b<index>` for a content block's text or partial JSON. */
export function anthropicTextRewriter(through: TextThrough, flush: TextFlush): TextRewriter {
  const kinds = new Map<number, 'text_delta' | 'input_json_delta'>();
  const closing = (index: number): RewrittenEvent[] => {
    const rest = flush(`b${index}`);
    const kind = kinds.get(index);
    kinds.delete(index);
    if (!rest || !kind) return [];
    const delta = kind === 'text_delta' ? { type: kind, text: rest } : { type: kind, partial_json: rest };
    return [{ event: 'content_block_delta', data: { type: 'content_block_delta', index, delta } }];
  };
  return {
    rewrite(data, event) {
      const type = event ?? String(data.type ?? '');
      const index = Number(data.index ?? 0);
      if (type === 'content_block_delta') {
        const delta = obj(data.delta);
        if (delta?.type === 'text_delta' && typeof delta.text === 'string') {
          kinds.set(index, 'text_delta');
          delta.text = through(`b${index}`, delta.text);
        } else if (delta?.type === 'input_json_delta' && typeof delta.partial_json === 'string') {
          kinds.set(index, 'input_json_delta');
          delta.partial_json = through(`b${index}`, delta.partial_json);
        }
      } else if (type === 'content_block_stop') {
        return [...closing(index), { event, data }];
      }
      return [{ event, data }];
    },
    finish(open) {
      return open.flatMap((key) => closing(Number(key.slice(1))));
    },
  };
}
