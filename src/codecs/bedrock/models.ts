/**
 * What a Bedrock model takes beyond Converse's common fields, read from its id (pure). Ids are
 * the base model's (`anthropic.claude-sonnet-4-5-20250929-v1:0`) or an inference profile's, with a
 * geography prefix (`us.`, `eu.`, `apac.`, `global.`). Sources: the Bedrock user guide's pages on
 * extended thinking, prompt caching (docs.aws.amazon.com/bedrock/latest/userguide/prompt-caching.html),
 * structured output (…/structured-output.html) and Amazon Nova 2's reasoning
 * (docs.aws.amazon.com/nova/latest/nova2-userguide/extended-thinking.html) and OpenAI's models
 * (docs.aws.amazon.com/bedrock/latest/userguide/model-parameters-openai.html).
 */

/** Anthropic Claude, any version. */
export const isClaude = (model: string): boolean => /(?:^|\.)anthropic\.claude-/.test(model);

/** Amazon Nova, any version. */
export const isNova = (model: string): boolean => /(?:^|\.)amazon\.nova-/.test(model);

/** Claude models with extended thinking (`thinking` in additionalModelRequestFields): 3.7 Sonnet and Claude 4 on. */
export const claudeThinks = (model: string): boolean =>
  /(?:^|\.)anthropic\.claude-(?:3-7-|(?:opus|sonnet|haiku)-(?:[4-9]|\d\d))/.test(model);

/** Amazon Nova 2 models, which reason through `reasoningConfig` in additionalModelRequestFields. */
export const novaReasons = (model: string): boolean => /(?:^|\.)amazon\.nova-2-/.test(model);

/**
 * OpenAI's gpt-oss models, which take OpenAI's `reasoning_effort` in additionalModelRequestFields
 * (the user guide's OpenAI models page: fields Converse has no place for go there).
 */
export const gptOssReasons = (model: string): boolean => /(?:^|\.)openai\.gpt-oss-/.test(model);

/** Models that take `cachePoint` blocks: Claude and Nova (others refuse them). */
export const takesCachePoints = (model: string): boolean => isClaude(model) || isNova(model);

/** Models whose cache points may last an hour (`ttl: '1h'`): Claude 4.5 and later. */
export const takesHourCache = (model: string): boolean =>
  /(?:^|\.)anthropic\.claude-(?:(?:opus|sonnet|haiku)-4-[5-9]|(?:opus|sonnet|haiku)-[5-9])/.test(model);

/** Models with Converse's native structured output (`outputConfig.textFormat`): Claude 4.5 and later. */
export const takesOutputFormat = takesHourCache;

/** Models that take a specific tool choice (`toolChoice.tool`): Claude 3 and later, and Nova (botocore's ToolChoice). */
export const takesForcedTool = (model: string): boolean =>
  (isClaude(model) && !/anthropic\.claude-(?:v2|instant)/.test(model)) || isNova(model);
