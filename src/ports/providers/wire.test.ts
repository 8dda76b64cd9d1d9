import { describe, expect, it } from 'vitest';
import { numberReferences, sentenceBefore } from './references.js';
import { errorMessage, joinUrl, retryAfterMs, retryDelayInBody } from './wire.js';

describe('Retry-After', () => {
  it('reads seconds, HTTP dates and retry-after-ms', () => {
    expect(retryAfterMs(new Headers({ 'retry-after': '3' }))).toBe(3000);
    expect(retryAfterMs(new Headers({ 'retry-after': '0.5' }))).toBe(500);
    const now = Date.parse('2025-08-27T10:00:00Z');
    expect(retryAfterMs(new Headers({ 'retry-after': 'Wed, 27 Aug 2025 10:00:05 GMT' }), now)).toBe(5000);
    expect(retryAfterMs(new Headers({ 'retry-after': '3', 'retry-after-ms': '250' }))).toBe(250);
    expect(retryAfterMs(new Headers({}))).toBeUndefined();
    expect(retryAfterMs(new Headers({ 'retry-after': 'soon' }))).toBeUndefined();
  });
});

describe('errorMessage', () => {
  it("takes each provider's error shape", () => {
    expect(errorMessage({ error: { message: 'Incorrect API key provided', type: 'invalid_request_error', code: 'invalid_api_key' } })).toBe(
      'Incorrect API key provided (invalid_request_error)',
    );
    expect(errorMessage({ type: 'error', error: { type: 'authentication_error', message: 'invalid x-api-key' } })).toBe('invalid x-api-key (authentication_error)');
    expect(errorMessage({ error: { code: 400, message: 'API key not valid.', status: 'INVALID_ARGUMENT' } })).toBe('API key not valid. (INVALID_ARGUMENT)');
    expect(errorMessage({ error: 'Invalid API key.' })).toBe('Invalid API key.');
    expect(errorMessage(undefined, '<html>502 Bad Gateway</html>')).toBe('<html>502 Bad Gateway</html>');
  });
});

describe('references', () => {
  it('numbers from 1 in the given order and keeps the first of identical links', () => {
    expect(
      numberReferences([
        { link: 'https://a.com/x', title: 'A' },
        { link: 'https://b.com/', title: 'B', snippet: 'b' },
        { link: 'https://a.com/x', title: 'A again', snippet: 'late snippet' },
        { link: '' },
      ]),
    ).toEqual([
      { reference_index: 1, link: 'https://a.com/x', title: 'A', snippet: 'late snippet' },
      { reference_index: 2, link: 'https://b.com/', title: 'B', snippet: 'b' },
    ]);
  });

  it('finds the claim a citation follows, without earlier citations or list markup', () => {
    const text = 'Intro. **HubSpot** is free to start. ([hubspot.com](https://hubspot.com/)) Next one.[2] ';
    expect(sentenceBefore(text, text.indexOf('([hubspot'))).toBe('HubSpot is free to start.');
    expect(sentenceBefore(text, text.length)).toBe('Next one.');
    expect(sentenceBefore('1. Pipedrive is visual', 22)).toBe('Pipedrive is visual');
  });

  it('joins base URLs with or without a trailing slash', () => {
    expect(joinUrl('https://api.openai.com/v1/', '/responses')).toBe('https://api.openai.com/v1/responses');
    expect(joinUrl('https://serpapi.com', 'search')).toBe('https://serpapi.com/search');
  });
});

describe('RetryInfo in a Google error body', () => {
  it('reads retryDelay in seconds', () => {
    const body = { error: { code: 429, details: [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '13s' }] } };
    expect(retryDelayInBody(body)).toBe(13000);
    expect(retryDelayInBody({ error: { code: 429 } })).toBeUndefined();
  });
});
