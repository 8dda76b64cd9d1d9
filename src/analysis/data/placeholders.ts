/**
 * Hosts that stand for "some site" in examples: a URL on them is not a citation
 * (docs/analytics.md). A host matches when it equals an entry or ends with "." + entry.
 */
export const PLACEHOLDER_HOSTS: readonly string[] = [
  'example.com', 'example.org', 'example.net', 'example.edu', 'yourcompany.com', 'yourdomain.com', 'yoursite.com',
  'yourwebsite.com', 'your-website.com', 'your-domain.com', 'your-company.com', 'domain.com',
  'mysite.com', 'mywebsite.com', 'mydomain.com', 'mycompany.com', 'company.com', 'acme.com', 'foo.com', 'bar.com',
  'foobar.com', 'test.com', 'sample.com', 'placeholder.com', 'localhost',
];

/** Top-level names reserved for tests and examples (RFC 2606, RFC 6761) and local networks. */
export const PLACEHOLDER_TLDS: readonly string[] = ['test', 'example', 'invalid', 'localhost', 'local', 'internal', 'lan'];
