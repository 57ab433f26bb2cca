/**
 * Small building blocks shared by the pages: alerts, form fields, badges, the CSRF field, a pager, and
 * `Id`, the one way an id, model or other unbounded value is shown.
 */
import type { Child } from 'hono/jsx';
import type { ApiFailure } from '../admin-api';
import type { FormValues } from '../forms';
import type { Session } from '../session';

/**
 * An admin API refusal, in words, announced to screen readers. It takes the focus when the page loads
 * (`autofocus` on a focusable alert; no script needed), so the browser scrolls it into view: a failed save
 * is seen at once, however far down the page its form is.
 */
export function Failure(props: { failure: ApiFailure | null | undefined; action?: string }) {
  const f = props.failure;
  if (!f) return null;
  return (
    <div class="alert error" role="alert" id="form-error" tabindex={-1} autofocus>
      <strong>{props.action ?? 'That did not work'}: </strong>
      {f.message}
      {f.param ? (
        <>
          {' '}
          (field <code>{f.param}</code>)
        </>
      ) : null}
      <span class="muted"> · HTTP {f.status}</span>
    </div>
  );
}

export function Notice(props: { text: string | null | undefined }) {
  return props.text ? (
    <div class="alert ok" role="status">
      {props.text}
    </div>
  ) : null;
}

export function Csrf(props: { session: Session }) {
  return <input type="hidden" name="_csrf" value={props.session.csrf} />;
}

/** A form that changes something: POST with the session's CSRF token. */
export function ActionForm(props: {
  action: string;
  session: Session;
  class?: string;
  children: Child;
  id?: string;
}) {
  return (
    <form method="post" action={props.action} class={props.class} id={props.id}>
      <Csrf session={props.session} />
      {props.children}
    </form>
  );
}

export function fieldId(name: string): string {
  return `f-${name.replaceAll('.', '-')}`;
}

interface FieldProps {
  name: string;
  label: string;
  values?: FormValues;
  failure?: ApiFailure | null;
  hint?: string;
  type?: 'text' | 'number' | 'date' | 'datetime-local' | 'password';
  step?: string;
  required?: boolean;
  placeholder?: string;
  autocomplete?: string;
  /** Keeps ids unique when two forms on a page edit fields of the same name (a tenant's and a rule's limits). */
  idPrefix?: string;
}

/** A labelled input; marked invalid (and tied to the error) when the API named it. */
export function Field(props: FieldProps) {
  const id = fieldId(`${props.idPrefix ?? ''}${props.name}`);
  const invalid =
    props.failure?.param === props.name || (props.failure?.param?.startsWith(`${props.name}.`) ?? false);
  const hintId = props.hint ? `${id}-hint` : undefined;
  const described = [hintId, invalid ? 'form-error' : undefined].filter(Boolean).join(' ') || undefined;
  return (
    <div>
      <label for={id}>
        {props.label}
        {props.hint ? (
          <span class="hint" id={hintId}>
            {props.hint}
          </span>
        ) : null}
      </label>
      <input
        id={id}
        name={props.name}
        type={props.type ?? 'text'}
        value={props.values?.[props.name] ?? ''}
        step={props.step}
        required={props.required}
        placeholder={props.placeholder}
        autocomplete={props.autocomplete ?? 'off'}
        aria-invalid={invalid ? 'true' : undefined}
        aria-describedby={described}
      />
    </div>
  );
}

/**
 * The width class for a wanted maximum in rem: the CSP allows no style attribute, so widths come from a
 * few classes (12, 16, 30 rem, or the whole line past 30; never wider than its container).
 */
function widthClass(max: number | undefined): string {
  if (max === undefined) return 'id';
  if (max <= 12) return 'id s';
  if (max <= 16) return 'id';
  return max <= 30 ? 'id l' : 'id xl';
}

/**
 * An id, model name or any value of unbounded length: ellipsised past about `max` rem (CSS class `id`), the
 * full value in its title (shown on hover) and kept whole for copying and screen readers. With `name`, the
 * name comes first and the id after it, muted. With `href`, it is a link. `text` shows a name (a tenant's,
 * a key's) in the body font rather than as code.
 */
export function Id(props: {
  value: string;
  name?: string | null;
  href?: string;
  max?: number;
  text?: boolean;
}) {
  const cls = widthClass(props.max);
  const title = props.name ? `${props.name} (${props.value})` : props.value;
  // Each part is cut on its own, so a long name still leaves room for the start of the id.
  const body = props.name ? (
    <>
      <span>{props.name}</span> <code class="muted">{props.value}</code>
    </>
  ) : props.text ? (
    <span>{props.value}</span>
  ) : (
    <code>{props.value}</code>
  );
  return props.href ? (
    <a class={cls} href={props.href} title={title}>
      {body}
    </a>
  ) : (
    <span class={cls} title={title}>
      {body}
    </span>
  );
}

export function Badge(props: { value: string }) {
  return <span class={`badge ${props.value}`}>{props.value}</span>;
}

export function Time(props: { ms: number | null }) {
  if (props.ms === null) return <span class="muted">never</span>;
  const iso = new Date(props.ms).toISOString();
  return <time datetime={iso}>{`${iso.slice(0, 16).replace('T', ' ')} UTC`}</time>;
}

/** Links to the newest page and to the next (older) one, keeping every filter. */
export function Pager(props: {
  base: string;
  query: Record<string, string | undefined>;
  next: string | null;
  label: string;
}) {
  const href = (cursor?: string) => {
    const q = new URLSearchParams();
    for (const [k, v] of Object.entries(props.query)) if (v && k !== 'cursor') q.set(k, v);
    if (cursor) q.set('cursor', cursor);
    const s = q.toString();
    return s ? `${props.base}?${s}` : props.base;
  };
  return (
    <nav class="actions" aria-label={`${props.label} pages`}>
      {props.query.cursor ? <a href={href()}>« Newest</a> : null}
      {props.next ? (
        <a href={href(props.next)} rel="next">
          Older »
        </a>
      ) : null}
    </nav>
  );
}

/** A secret shown once: a read-only field to select and copy (the copy button appears with the page's script). */
export function SecretField(props: { label: string; value: string }) {
  return (
    <>
      <label for="secret">{props.label}</label>
      <div class="secret">
        <input
          id="secret"
          type="text"
          readonly
          value={props.value}
          autocomplete="off"
          spellcheck={false}
          aria-describedby="copy-status"
        />
        <button type="button" class="secondary" data-copy="secret" hidden>
          Copy
        </button>
      </div>
      <p id="copy-status" class="hint" aria-live="polite">
        Select the field and copy it (Ctrl+C or ⌘C).
      </p>
    </>
  );
}
