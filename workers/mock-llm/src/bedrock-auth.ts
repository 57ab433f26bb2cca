/**
 * The SigV4 check of the Bedrock fake, as AWS does it: the Authorization
 * header is parsed, the access key must be known (AWS's documentation key
 * pair, AKIDEXAMPLE, is the only account), the scope must name the `bedrock`
 * service and the date must be within 5 minutes, and the signature is
 * recomputed (aws4fetch) over exactly the headers the client signed and the
 * body received. Each failure is the real 403 with its real type and message.
 */
import { AwsV4Signer } from 'aws4fetch';
import { bedrockError } from './bedrock-errors';

/** AWS's documentation credentials (SigV4 test suite); the fake's one account. */
export const MOCK_ACCESS_KEY_ID = 'AKIDEXAMPLE';
export const MOCK_SECRET_ACCESS_KEY = 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY';

const SKEW_MS = 5 * 60 * 1000;
const AUTH = /^AWS4-HMAC-SHA256 Credential=([^,\s]+),\s*SignedHeaders=([^,\s]+),\s*Signature=([0-9a-f]{64})$/;
const AMZ_DATE = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/;

const forbidden = (type: string, message: string): Response => bedrockError(403, type, message);

function parseAmzDate(value: string): number | null {
  const m = AMZ_DATE.exec(value);
  if (!m) return null;
  const [, y, mo, d, h, mi, s] = m.map(Number) as number[];
  return Date.UTC(y as number, (mo as number) - 1, d, h, mi, s);
}

const amzDate = (ms: number): string => new Date(ms).toISOString().replace(/[:-]|\.\d{3}/g, '');

/** Null when the request is signed by the fake's account; else the error to answer. */
export async function checkSignature(
  request: Request,
  body: ArrayBuffer,
  now = Date.now(),
): Promise<Response | null> {
  const header = request.headers.get('authorization');
  if (header === null)
    return forbidden('MissingAuthenticationTokenException', 'Missing Authentication Token');
  const match = AUTH.exec(header.trim());
  if (!match)
    return forbidden(
      'IncompleteSignatureException',
      `Authorization header requires 'Credential', 'Signature' and 'SignedHeaders' parameters. Authorization=${header.split(' ')[0]}`,
    );
  const [, credential = '', signedHeaders = '', signature = ''] = match;
  const [accessKeyId, date, region, service, terminal] = credential.split('/');
  if (accessKeyId !== MOCK_ACCESS_KEY_ID)
    return forbidden('UnrecognizedClientException', 'The security token included in the request is invalid.');
  if (service !== 'bedrock' || terminal !== 'aws4_request' || !region)
    return forbidden(
      'InvalidSignatureException',
      "Credential should be scoped to correct service: 'bedrock'. ",
    );
  const stamp = request.headers.get('x-amz-date') ?? '';
  const signedAt = parseAmzDate(stamp);
  if (signedAt === null)
    return forbidden(
      'IncompleteSignatureException',
      "Authorization header requires existence of either a 'X-Amz-Date' or a 'Date' header.",
    );
  if (date !== stamp.slice(0, 8))
    return forbidden(
      'InvalidSignatureException',
      `Date in Credential scope does not match YYYYMMDD from ISO-8601 version of date from HTTP: '${date}' != '${stamp.slice(0, 8)}', from '${stamp}'.`,
    );
  if (signedAt < now - SKEW_MS)
    return forbidden(
      'InvalidSignatureException',
      `Signature expired: ${stamp} is now earlier than ${amzDate(now - SKEW_MS)} (${amzDate(now)} - 5 min.)`,
    );
  if (signedAt > now + SKEW_MS)
    return forbidden(
      'InvalidSignatureException',
      `Signature not yet current: ${stamp} is still later than ${amzDate(now + SKEW_MS)} (${amzDate(now)} + 5 min.)`,
    );

  const names = signedHeaders.split(';');
  if (!names.includes('host') || !names.includes('x-amz-date'))
    return forbidden(
      'InvalidSignatureException',
      'The request signature we calculated does not match the signature you provided. Check your AWS Secret Access Key and signing method. Consult the service documentation for details.',
    );
  const headers = new Headers();
  for (const name of names) if (name !== 'host') headers.set(name, request.headers.get(name) ?? '');
  const expected = await new AwsV4Signer({
    method: request.method,
    url: request.url,
    headers,
    body,
    accessKeyId,
    secretAccessKey: MOCK_SECRET_ACCESS_KEY,
    service,
    region,
    datetime: stamp,
    allHeaders: true,
  }).signature();
  if (expected !== signature)
    return forbidden(
      'InvalidSignatureException',
      'The request signature we calculated does not match the signature you provided. Check your AWS Secret Access Key and signing method. Consult the service documentation for details.',
    );
  return null;
}
