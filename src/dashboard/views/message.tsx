/** A page that only says something: a refusal, an error, a missing thing. */
import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { ApiFailure } from '../admin-api';
import type { DashboardEnv, SignedIn } from '../context';
import { page } from './layout';

export function messagePage(
  c: Context<DashboardEnv>,
  status: ContentfulStatusCode,
  title: string,
  text: string,
  session: SignedIn | null,
  back?: { href: string; label: string },
) {
  return page(
    c,
    { title, session },
    <>
      <h1>{title}</h1>
      <div class={status >= 400 ? 'alert error' : 'alert ok'} role={status >= 400 ? 'alert' : 'status'}>
        {text}
      </div>
      {back ? (
        <p>
          <a href={back.href}>{back.label}</a>
        </p>
      ) : null}
    </>,
    status,
  );
}

/** An admin API refusal as a page, with the API's own words. */
export function failurePage(
  c: Context<DashboardEnv>,
  failure: ApiFailure,
  session: SignedIn,
  back?: { href: string; label: string },
) {
  const title = failure.status === 404 ? 'Not found' : 'The admin API refused this';
  return messagePage(c, failureStatus(failure), title, failure.message, session, back);
}

/** The page answers with the API's own status (any 4xx/5xx; anything else reads as 500). */
export function failureStatus(failure: ApiFailure | null): ContentfulStatusCode {
  if (!failure) return 200;
  return (failure.status >= 400 && failure.status <= 599 ? failure.status : 500) as ContentfulStatusCode;
}
