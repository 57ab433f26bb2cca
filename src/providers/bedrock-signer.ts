/**
 * AWS Signature Version 4 for Bedrock calls, by aws4fetch (a small SigV4
 * library made for Workers, on Web Crypto). One signer per set of
 * credentials, kept with the adapter for the isolate's life, so the derived
 * signing key is computed once a day rather than once a request.
 */
import { AwsClient } from 'aws4fetch';

export interface AwsCredentials {
  readonly accessKeyId: string;
  readonly secretAccessKey: string;
  readonly sessionToken: string | null;
}

export interface SignInput {
  readonly url: string;
  readonly headers: Headers;
  readonly body: string;
  /** The signing time as `YYYYMMDDTHHMMSSZ`; now when absent (tests fix it). */
  readonly datetime?: string;
}

export type Signer = (input: SignInput) => Promise<Headers>;

/**
 * A signer for `service` in `region`: the request's headers plus `x-amz-date`,
 * `x-amz-security-token` (with temporary credentials) and `authorization`.
 * The scope is always the real service and region, whatever host the URL
 * names (a proxy, or the mock LLM in tests).
 */
export function createSigner(credentials: AwsCredentials, region: string, service: string): Signer {
  const client = new AwsClient({
    accessKeyId: credentials.accessKeyId,
    secretAccessKey: credentials.secretAccessKey,
    ...(credentials.sessionToken ? { sessionToken: credentials.sessionToken } : {}),
    service,
    region,
    retries: 0,
  });
  return async ({ url, headers, body, datetime }) => {
    const signed = await client.sign(url, {
      method: 'POST',
      headers,
      body,
      ...(datetime ? { aws: { datetime } } : {}),
    });
    return signed.headers;
  };
}
