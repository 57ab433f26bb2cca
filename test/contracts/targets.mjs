/**
 * The upstream formats checked against a published description, with the model each call names
 * and the context the codecs encode with. Workers AI is left out: no description of its models'
 * inputs is vendored here.
 */
export const DESCRIBED = ['openai', 'responses', 'anthropic', 'gemini', 'bedrock'];

export const MODELS = {
  openai: 'gpt-4o-mini',
  responses: 'gpt-5-mini',
  anthropic: 'claude-sonnet-4-5',
  gemini: 'gemini-2.5-flash',
  bedrock: 'anthropic.claude-sonnet-4-5-20250929-v1:0',
};

export const encodeContext = (format) => ({
  model: MODELS[format],
  providerId: format,
  outputCap: 4096,
  enforceCap: true,
  dropped: [],
});

/** The description's message for a provider body: a streaming request where the format has its own. */
export const requestMessage = (messages, stream) =>
  stream && messages.streamRequest ? 'streamRequest' : 'chatRequest';
