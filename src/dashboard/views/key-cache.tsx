/**
 * A key's response-cache settings on its page: exact cache on or off and its TTL, the semantic cache
 * and its similarity threshold, and when semantic hits may answer requests with tools or a
 * temperature. Editable by roles that may PATCH the key; read-only in words for the others.
 */
import { DEFAULT_TTL_S } from '../../cache/directives';
import { DEFAULT_SEMANTIC_MAX_TURNS, DEFAULT_SEMANTIC_THRESHOLD } from '../../cache/semantic-request';
import type { ApiFailure } from '../admin-api';
import { cacheField, describeCache } from '../cache-form';
import type { SignedIn } from '../context';
import type { FormValues } from '../forms';
import type { ApiKey } from '../schemas';
import { ActionForm, Failure, Field } from './parts';

function Check(props: { name: string; label: string; values: FormValues }) {
  return (
    <label class="check">
      <input type="checkbox" name={props.name} checked={props.values[props.name] === 'on'} /> {props.label}
    </label>
  );
}

export function KeyCacheSection(props: {
  session: SignedIn;
  apiKey: ApiKey;
  values: FormValues;
  failure: ApiFailure | null;
  editable: boolean;
}) {
  const { values, failure } = props;
  return (
    <section aria-labelledby="key-cache-h">
      <h2 id="key-cache-h">Response cache</h2>
      <p id="key-cache-now">Now: {describeCache(props.apiKey.cache)}.</p>
      {props.editable ? (
        <>
          <Failure failure={failure} action="The cache settings were not changed" />
          <ActionForm
            action={`/dashboard/keys/${encodeURIComponent(props.apiKey.id)}/cache`}
            session={props.session}
            class="stack"
          >
            <Check
              name={cacheField('exact')}
              label="Exact cache: answer identical requests from cache"
              values={values}
            />
            <Field
              name={cacheField('ttl_seconds')}
              label="Exact cache TTL, seconds"
              hint={`60 to 31,536,000. Empty: ${DEFAULT_TTL_S}.`}
              type="number"
              values={values}
              failure={failure}
            />
            <Check
              name={cacheField('semantic')}
              label="Semantic cache: answer similar prompts"
              values={values}
            />
            <Field
              name={cacheField('threshold')}
              label="Semantic similarity threshold"
              hint={`0 to 1. Empty: ${DEFAULT_SEMANTIC_THRESHOLD}.`}
              values={values}
              failure={failure}
            />
            <Field
              name={cacheField('semantic_max_turns')}
              label="Longest conversation for a semantic hit, messages"
              hint={`Empty: ${DEFAULT_SEMANTIC_MAX_TURNS}.`}
              type="number"
              values={values}
              failure={failure}
            />
            <Check
              name={cacheField('semantic_tools')}
              label="Semantic hits for requests with tools"
              values={values}
            />
            <Check
              name={cacheField('semantic_temperature')}
              label="Semantic hits for requests with temperature above 0"
              values={values}
            />
            <div>
              <button type="submit">Save cache settings</button>
            </div>
          </ActionForm>
        </>
      ) : null}
    </section>
  );
}
