/**
 * Inline files across the codecs (src/codecs/files.ts and each format's request module): Responses
 * `input_file`, chat `file` and Anthropic `document` read as the canonical file part; the part written
 * as each provider's document shape; files stored at OpenAI, other media types and Workers AI refused
 * with a 400 naming the part; a PDF kept byte for byte from Responses through Anthropic and back.
 */
import { describe, expect, it } from 'vitest';
import { anthropicClient, anthropicUpstream } from '../../../src/codecs/anthropic/index';
import { bedrockUpstream } from '../../../src/codecs/bedrock/index';
import type { EncodeContext } from '../../../src/codecs/codec';
import type { FilePart, Part } from '../../../src/codecs/ir';
import { geminiUpstream } from '../../../src/codecs/gemini/index';
import { openAiClient, openAiUpstream } from '../../../src/codecs/openai/index';
import { responsesClient, responsesUpstream } from '../../../src/codecs/responses/index';
import { workersAiUpstream } from '../../../src/codecs/workers-ai/index';
import { GatewayError } from '../../../src/core/errors';
import { canonicalRequest } from './fixtures/canonical';

const PDF = btoa('%PDF-1.4\n%âãÏÓ\n1 0 obj<<>>endobj\n%%EOF');
const TEXT = 'Héllo, file ✓';
const TEXT_B64 = btoa(String.fromCharCode(...new TextEncoder().encode(TEXT)));

const pdfPart: FilePart = {
  type: 'file',
  mediaType: 'application/pdf',
  data: PDF,
  filename: 'report v2.pdf',
};
const textPart: FilePart = { type: 'file', mediaType: 'text/plain', data: TEXT_B64, filename: null };

const context = (model: string): EncodeContext => ({
  model,
  providerId: 'acme',
  outputCap: 1024,
  enforceCap: true,
  dropped: [],
});
const withParts = (...parts: Part[]) =>
  canonicalRequest({
    messages: [{ role: 'user', content: [{ type: 'text', text: 'Read this' }, ...parts] }],
  });

function refusal(run: () => unknown): GatewayError {
  try {
    run();
  } catch (err) {
    if (err instanceof GatewayError) return err;
    throw err;
  }
  throw new Error('expected a refusal');
}

const responsesBody = (part: Record<string, unknown>) => ({
  model: 'm',
  input: [{ role: 'user', content: [{ type: 'input_text', text: 'Read this' }, part] }],
});

describe('decoding files', () => {
  it('reads a Responses input_file data URL as a file part with its name', () => {
    const request = responsesClient.decodeRequest(
      responsesBody({
        type: 'input_file',
        file_data: `data:application/pdf;base64,${PDF}`,
        filename: 'a.pdf',
      }),
    );
    expect(request.messages[0]?.content[1]).toEqual({
      type: 'file',
      mediaType: 'application/pdf',
      data: PDF,
      filename: 'a.pdf',
    });
  });

  it('refuses a Responses input_file by file_id or file_url, naming the part', () => {
    for (const part of [
      { type: 'input_file', file_id: 'file-abc' },
      { type: 'input_file', file_url: 'https://example.com/a.pdf' },
    ]) {
      const err = refusal(() => responsesClient.decodeRequest(responsesBody(part)));
      expect(err.status).toBe(400);
      expect(err.param).toBe('input[0].content[1]');
      expect(err.message).toContain('file_id or file_url');
    }
  });

  it('reads a chat file part and refuses one by file_id', () => {
    const body = (file: Record<string, unknown>) => ({
      model: 'm',
      messages: [{ role: 'user', content: [{ type: 'file', file }] }],
    });
    const request = openAiClient.decodeRequest(
      body({ file_data: `data:text/plain;base64,${TEXT_B64}`, filename: 'notes.txt' }),
    );
    expect(request.messages[0]?.content).toEqual([
      { type: 'file', mediaType: 'text/plain', data: TEXT_B64, filename: 'notes.txt' },
    ]);
    const err = refusal(() => openAiClient.decodeRequest(body({ file_id: 'file-abc' })));
    expect(err.status).toBe(400);
    expect(err.param).toBe('messages[0].content[0]');
  });

  it('reads Anthropic base64 and plain-text documents (text as base64 of its UTF-8) and refuses a URL source', () => {
    const body = (document: Record<string, unknown>) => ({
      model: 'm',
      max_tokens: 10,
      messages: [{ role: 'user', content: [{ type: 'document', ...document }] }],
    });
    const pdf = anthropicClient.decodeRequest(
      body({
        source: { type: 'base64', media_type: 'application/pdf', data: PDF },
        title: 'a.pdf',
        cache_control: { type: 'ephemeral' },
      }),
    );
    expect(pdf.messages[0]?.content).toEqual([
      { type: 'file', mediaType: 'application/pdf', data: PDF, filename: 'a.pdf', cache: { ttl: '5m' } },
    ]);
    const text = anthropicClient.decodeRequest(
      body({ source: { type: 'text', media_type: 'text/plain', data: TEXT } }),
    );
    expect(text.messages[0]?.content).toEqual([textPart]);
    const err = refusal(() =>
      anthropicClient.decodeRequest(body({ source: { type: 'url', url: 'https://example.com/a.pdf' } })),
    );
    expect(err.param).toBe('messages[0].content[0].source.type');
  });
});

describe('encoding files', () => {
  it('writes an Anthropic document: a PDF as base64, plain text decoded, the name as title', () => {
    const body = anthropicUpstream.encodeRequest(withParts(pdfPart, textPart), context('claude'));
    expect((body.messages as { content: unknown[] }[])[0]?.content.slice(1)).toEqual([
      {
        type: 'document',
        source: { type: 'base64', media_type: 'application/pdf', data: PDF },
        title: 'report v2.pdf',
      },
      { type: 'document', source: { type: 'text', media_type: 'text/plain', data: TEXT } },
    ]);
  });

  it('writes an OpenAI chat file part with a data URL and a default name', () => {
    const body = openAiUpstream.encodeRequest(withParts(textPart), context('gpt'));
    expect((body.messages as { content: unknown[] }[])[0]?.content[1]).toEqual({
      type: 'file',
      file: { file_data: `data:text/plain;base64,${TEXT_B64}`, filename: 'file.txt' },
    });
  });

  it('writes a Responses input_file', () => {
    const body = responsesUpstream.encodeRequest(withParts(pdfPart), context('gpt'));
    expect((body.input as { content: unknown[] }[])[0]?.content[1]).toEqual({
      type: 'input_file',
      file_data: `data:application/pdf;base64,${PDF}`,
      filename: 'report v2.pdf',
    });
  });

  it('writes Gemini inline data', () => {
    const body = geminiUpstream.encodeRequest(withParts(pdfPart), context('gemini-2.5-flash'));
    expect((body.contents as { parts: unknown[] }[])[0]?.parts[1]).toEqual({
      inlineData: { mimeType: 'application/pdf', data: PDF },
    });
  });

  it('writes a Bedrock document with a sanitised name (no extension, dots or underscores)', () => {
    const odd: FilePart = { ...pdfPart, filename: 'Q3_report.final (v2) [draft]..pdf' };
    const body = bedrockUpstream.encodeRequest(
      withParts(odd, textPart),
      context('anthropic.claude-3-5-sonnet-20241022-v2:0'),
    );
    expect((body.messages as { content: unknown[] }[])[0]?.content.slice(1)).toEqual([
      { document: { format: 'pdf', name: 'Q3 report final (v2) [draft]', source: { bytes: PDF } } },
      { document: { format: 'txt', name: 'file', source: { bytes: TEXT_B64 } } },
    ]);
  });

  it('refuses a file of another media type, and any file for Workers AI, naming the part', () => {
    const csv: FilePart = { ...textPart, mediaType: 'text/csv' };
    for (const [codec, model] of [
      [anthropicUpstream, 'claude'],
      [openAiUpstream, 'gpt'],
      [responsesUpstream, 'gpt'],
      [geminiUpstream, 'gemini-2.5-flash'],
      [bedrockUpstream, 'amazon.nova-pro-v1:0'],
    ] as const) {
      const err = refusal(() => codec.encodeRequest(withParts(csv), context(model)));
      expect(err.status).toBe(400);
      expect(err.param).toBe('messages[0].content[1]');
      expect(err.message).toContain("'text/csv'");
    }
    const err = refusal(() =>
      workersAiUpstream.encodeRequest(withParts(pdfPart), context('@cf/meta/llama-4-scout-17b-16e-instruct')),
    );
    expect(err.status).toBe(400);
    expect(err.param).toBe('messages[0].content[1]');
  });
});

describe('a round trip', () => {
  it('keeps a PDF from Responses through Anthropic and back', () => {
    const file = { type: 'input_file', file_data: `data:application/pdf;base64,${PDF}`, filename: 'a.pdf' };
    const request = responsesClient.decodeRequest(responsesBody(file));
    const anthropic = anthropicUpstream.encodeRequest(request, context('claude'));
    const back = anthropicClient.decodeRequest(anthropic);
    expect(back.messages).toEqual(request.messages);
    const responses = responsesUpstream.encodeRequest(back, context('gpt'));
    expect((responses.input as { content: unknown[] }[])[0]?.content[1]).toEqual(file);
  });

  it('keeps a plain-text file from chat through Anthropic and back', () => {
    const request = withParts(textPart);
    const back = anthropicClient.decodeRequest(anthropicUpstream.encodeRequest(request, context('claude')));
    expect(back.messages).toEqual(request.messages);
  });
});
