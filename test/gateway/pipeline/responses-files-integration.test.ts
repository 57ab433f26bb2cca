/**
 * A Responses request with an inline file through the whole gateway: a PDF sent as `input_file` to an
 * Anthropic-format model (the mock's `claude-only` row) travels as a document block and is answered; a
 * file stored at OpenAI (`file_id`) is refused with a 400 naming the part.
 */
import { SELF } from 'cloudflare:test';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Loose } from '../answer-helpers';
import { seedKey } from '../helpers';

let key: string;
beforeAll(async () => {
  key = (await seedKey({ tenantId: 'ten_resp_files' })).secret;
});

function post(body: Record<string, unknown>): Promise<Response> {
  return SELF.fetch('https://gateway.test/v1/responses', {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

const PDF = btoa('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF');
const withFile = (file: Record<string, unknown>) => ({
  model: 'claude-only/echo',
  input: [
    {
      role: 'user',
      content: [
        { type: 'input_text', text: 'Summarise the attached report.' },
        { type: 'input_file', ...file },
      ],
    },
  ],
});

describe('POST /v1/responses with an input_file, translated to the Messages format', () => {
  it('answers 200 for an inline PDF', async () => {
    const res = await post(
      withFile({ file_data: `data:application/pdf;base64,${PDF}`, filename: 'report.pdf' }),
    );
    expect(res.status).toBe(200);
    const body = (await res.json()) as Loose;
    expect(body).toMatchObject({ object: 'response', status: 'completed' });
    const text = (body.output as Loose[])
      .filter((item) => item.type === 'message')
      .flatMap((item) => item.content as Loose[])
      .map((part) => part.text)
      .join('');
    expect(text).toContain('Summarise the attached report.');
  });

  it('refuses a file_id with a 400 naming the part', async () => {
    const res = await post(withFile({ file_id: 'file-abc123' }));
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error: { param: string; message: string } };
    expect(body.error.param).toBe('input[0].content[1]');
    expect(body.error.message).toContain('file_id');
  });
});
