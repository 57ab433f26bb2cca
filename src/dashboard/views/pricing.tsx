/**
 * The pricing page: the price overrides in force (edit, delete) and the form that sets one, then the
 * built-in price table (src/core/pricing.json) with a search and, per model, a link that fills the
 * form with its price to override it. USD per 1M tokens throughout. Forms only for roles that may
 * change prices (owner and admin).
 */
import type { ApiFailure } from '../admin-api';
import type { SignedIn } from '../context';
import type { Price } from '../../core/pricing';
import type { FormValues } from '../forms';
import { PRICE_FIELDS, type PriceField } from '../price-form';
import { ActionForm, Failure, Field, Id, Notice } from './parts';

const LABELS: Record<PriceField, string> = {
  input: 'Input',
  output: 'Output',
  cached: 'Cache read',
  cache_write: 'Cache write (5 min)',
  cache_write_1h: 'Cache write (1 h)',
};

const usd = (n: number) => `$${n.toLocaleString('en-US', { maximumFractionDigits: 6 })}`;
const editHref = (model: string) => `/dashboard/pricing?model=${encodeURIComponent(model)}#override`;

function PriceCells(props: { price: Price }) {
  return (
    <>
      {PRICE_FIELDS.map((f) => (
        <td class="num">{usd(props.price[f])}</td>
      ))}
    </>
  );
}

function PriceHead(props: { first: string; actions: boolean }) {
  return (
    <thead>
      <tr>
        <th scope="col">{props.first}</th>
        {PRICE_FIELDS.map((f) => (
          <th scope="col" class="num">
            {LABELS[f]}
          </th>
        ))}
        {props.actions ? <th scope="col">Actions</th> : null}
      </tr>
    </thead>
  );
}

export function PricingPage(props: {
  session: SignedIn;
  editable: boolean;
  defaultPrice: Price;
  overrides: Readonly<Record<string, Price>>;
  builtIn: { model: string; price: Price }[];
  builtInTotal: number;
  query: string;
  updated: string;
  values: FormValues;
  failure: ApiFailure | null;
  notice: string | null;
}) {
  const { session, editable } = props;
  const overrides = Object.entries(props.overrides).sort(([a], [b]) => a.localeCompare(b));
  return (
    <>
      <h1>Pricing</h1>
      <Notice text={props.notice} />
      <p class="muted">
        USD per 1M tokens. An override replaces a model's built-in price for every tenant; a model with
        neither is priced at the default ({usd(props.defaultPrice.input)} in, {usd(props.defaultPrice.output)}{' '}
        out). Changes reach every isolate within about a minute.
      </p>
      <section aria-labelledby="overrides-h">
        <h2 id="overrides-h">Price overrides</h2>
        {overrides.length === 0 ? (
          <p>No override: every model has its built-in or the default price.</p>
        ) : (
          <div class="scroll">
            <table>
              <PriceHead first="Model" actions={editable} />
              <tbody>
                {overrides.map(([model, price]) => (
                  <tr>
                    <th scope="row">
                      <Id value={model} />
                    </th>
                    <PriceCells price={price} />
                    {editable ? (
                      <td class="actions">
                        <a href={editHref(model)} aria-label={`Edit the price of ${model}`}>
                          Edit
                        </a>
                        <ActionForm action="/dashboard/pricing/delete" session={session} class="inline">
                          <input type="hidden" name="model" value={model} />
                          <button type="submit" class="danger" aria-label={`Delete the override of ${model}`}>
                            Delete
                          </button>
                        </ActionForm>
                      </td>
                    ) : null}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
      {editable ? (
        <section aria-labelledby="override-h" id="override">
          <h2 id="override-h">Set a price override</h2>
          <Failure failure={props.failure} action="The price was not saved" />
          <ActionForm action="/dashboard/pricing" session={session} class="stack">
            <Field
              name="model"
              label="Model id"
              hint="As clients name it, e.g. openai/gpt-4o. Saving an existing override replaces it."
              values={props.values}
              failure={props.failure}
              required
            />
            {PRICE_FIELDS.map((f) => (
              <Field
                name={f}
                label={`${LABELS[f]}, USD per 1M tokens`}
                hint={
                  f === 'input' || f === 'output'
                    ? undefined
                    : f === 'cache_write_1h'
                      ? 'Empty: the 5-minute write price.'
                      : 'Empty: the input price.'
                }
                values={props.values}
                failure={props.failure}
                required={f === 'input' || f === 'output'}
              />
            ))}
            <div>
              <button type="submit">Save price</button>
            </div>
          </ActionForm>
        </section>
      ) : null}
      <section aria-labelledby="built-in-h">
        <h2 id="built-in-h">Built-in prices</h2>
        <p class="muted">The table shipped with this version (updated {props.updated}).</p>
        <form method="get" action="/dashboard/pricing" class="inline" aria-label="Search built-in prices">
          <label for="price-q">Search models</label> <input id="price-q" name="q" value={props.query} />{' '}
          <button type="submit" class="secondary">
            Search
          </button>
        </form>
        <p>
          {props.builtIn.length} of {props.builtInTotal} models
          {props.query ? (
            <>
              {' '}
              matching <code>{props.query}</code> · <a href="/dashboard/pricing">all</a>
            </>
          ) : null}
          .
        </p>
        <div class="scroll">
          <table>
            <PriceHead first="Model" actions={editable} />
            <tbody>
              {props.builtIn.map(({ model, price }) => (
                <tr>
                  <th scope="row">
                    <Id value={model} />
                    {props.overrides[model] ? <span class="badge near_limit">overridden</span> : null}
                  </th>
                  <PriceCells price={price} />
                  {editable ? (
                    <td class="actions">
                      <a href={editHref(model)} aria-label={`Override the price of ${model}`}>
                        Override
                      </a>
                    </td>
                  ) : null}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>
    </>
  );
}
