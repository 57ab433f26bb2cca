/**
 * SigV4 known answers. The signer (aws4fetch) must reproduce AWS's published
 * test-suite vector for `post-vanilla`, and, for a real Converse call, the
 * signature computed here by an independent implementation of the documented
 * algorithm (Web Crypto; canonical URI double-encoded as for every service but S3).
 */
import { describe, expect, it } from 'vitest';
import { createSigner } from '../../../src/providers/bedrock-signer';

const SUITE = {
  accessKeyId: 'AKIDEXAMPLE',
  secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY',
  sessionToken: null,
};
const DATETIME = '20150830T123600Z';

const encoder = new TextEncoder();
const hex = (buf: ArrayBuffer) =>
  [...new Uint8Array(buf)].map((b) => b.toString(16).padStart(2, '0')).join('');
const sha256 = async (text: string) => hex(await crypto.subtle.digest('SHA-256', encoder.encode(text)));
async function hmac(key: ArrayBuffer | Uint8Array, text: string): Promise<ArrayBuffer> {
  const k = await crypto.subtle.importKey('raw', key, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  return crypto.subtle.sign('HMAC', k, encoder.encode(text));
}
const rfc3986 = (s: string) =>
  encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/** The documented algorithm, written independently of the signer under test. */
async function expectedAuthorization(options: {
  host: string;
  path: string;
  headers: Record<string, string>;
  body: string;
  region: string;
  service: string;
}): Promise<string> {
  const names = ['host', ...Object.keys(options.headers)].sort();
  const value = (name: string) => (name === 'host' ? options.host : (options.headers[name] as string));
  const canonicalUri = options.path
    .split('/')
    .map((segment) => rfc3986(segment))
    .join('/');
  const canonical = [
    'POST',
    canonicalUri,
    '',
    `${names.map((n) => `${n}:${value(n)}`).join('\n')}\n`,
    names.join(';'),
    await sha256(options.body),
  ].join('\n');
  const scope = `${DATETIME.slice(0, 8)}/${options.region}/${options.service}/aws4_request`;
  const toSign = ['AWS4-HMAC-SHA256', DATETIME, scope, await sha256(canonical)].join('\n');
  let key = await hmac(encoder.encode(`AWS4${SUITE.secretAccessKey}`), DATETIME.slice(0, 8));
  for (const part of [options.region, options.service, 'aws4_request']) key = await hmac(key, part);
  const signature = hex(await hmac(key, toSign));
  return `AWS4-HMAC-SHA256 Credential=${SUITE.accessKeyId}/${scope}, SignedHeaders=${names.join(';')}, Signature=${signature}`;
}

describe('SigV4 signing (known answers)', () => {
  it("matches AWS's published post-vanilla vector", async () => {
    const sign = createSigner(SUITE, 'us-east-1', 'service');
    const headers = await sign({
      url: 'https://example.amazonaws.com/',
      headers: new Headers(),
      body: '',
      datetime: DATETIME,
    });
    expect(headers.get('authorization')).toBe(
      'AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/service/aws4_request, ' +
        'SignedHeaders=host;x-amz-date, Signature=5da7c1a2acd57cee7505fc6676e4e544621c30862966e37dddb68e92efbe5d6b',
    );
    expect(headers.get('x-amz-date')).toBe(DATETIME);
  });

  it('signs a Converse call (model id with a colon, JSON body) as the documented algorithm does', async () => {
    const sign = createSigner(SUITE, 'eu-west-3', 'bedrock');
    const body = '{"messages":[{"role":"user","content":[{"text":"Hello"}]}]}';
    const path = '/model/anthropic.claude-3-5-sonnet-20240620-v1%3A0/converse';
    const headers = await sign({
      url: `https://bedrock-runtime.eu-west-3.amazonaws.com${path}`,
      headers: new Headers({ 'content-type': 'application/json', accept: 'application/json' }),
      body,
      datetime: DATETIME,
    });
    const expected = await expectedAuthorization({
      host: 'bedrock-runtime.eu-west-3.amazonaws.com',
      path,
      headers: { accept: 'application/json', 'x-amz-date': DATETIME },
      body,
      region: 'eu-west-3',
      service: 'bedrock',
    });
    expect(headers.get('authorization')).toBe(expected);
    // The test's own algorithm is not vacuous: another body gives another signature.
    expect(
      await expectedAuthorization({
        host: 'bedrock-runtime.eu-west-3.amazonaws.com',
        path,
        headers: { accept: 'application/json', 'x-amz-date': DATETIME },
        body: `${body} `,
        region: 'eu-west-3',
        service: 'bedrock',
      }),
    ).not.toBe(expected);
  });

  it('adds and signs the session token of temporary credentials', async () => {
    const sign = createSigner({ ...SUITE, sessionToken: 'FQoGZXIvYXdzEXAMPLETOKEN' }, 'us-east-1', 'bedrock');
    const headers = await sign({
      url: 'https://bedrock-runtime.us-east-1.amazonaws.com/model/m/converse',
      headers: new Headers(),
      body: '{}',
      datetime: DATETIME,
    });
    expect(headers.get('x-amz-security-token')).toBe('FQoGZXIvYXdzEXAMPLETOKEN');
    expect(headers.get('authorization')).toContain('SignedHeaders=host;x-amz-date;x-amz-security-token');
  });
});
