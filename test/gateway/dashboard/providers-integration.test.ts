/** The dashboard's providers page: every provider, configured or not, and who brought their own key; no secret. */
import { describe, expect, it } from 'vitest';
import { Browser } from '../dashboard-helpers';

describe('the providers page', () => {
  it('lists each provider with its deployment status and tenant keys, naming no secret', async () => {
    const b = new Browser();
    await b.signIn();
    const html = await b.page('/dashboard/providers');
    expect(html).toContain('<h1>Providers</h1>');
    expect(html).toMatch(/<code>gemini<\/code>[\s\S]*?configured/);
    expect(html).toMatch(/<code>openai<\/code>[\s\S]*?not configured/);
    expect(html).toMatch(/<code>gpt-only<\/code>[\s\S]*?no key needed/);
    expect(html).toMatch(/<code>mock<\/code>[\s\S]*?not accepted/);
    expect(html).not.toMatch(/_API_KEY|PROVIDER_KEY_|test-gemini-key|deployment-key/);
    expect(html).toContain('aria-current="page"');
  });
});
