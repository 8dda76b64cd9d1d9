/**
 * Capitalised words and phrases that answers put in lists, bold or tables but that are not
 * brands (section labels, generic acronyms). Competitor detection never proposes them.
 * Dictionary words are dropped by rule as well (see competitors.ts); this list catches the
 * acronyms and labels the dictionary does not hold. Lower-case.
 */
export const COMPETITOR_STOPLIST: readonly string[] = [
  // labels
  'pros', 'cons', 'pricing', 'price', 'features', 'key features', 'best for', 'ideal for', 'good for', 'overview',
  'summary', 'conclusion', 'verdict', 'bottom line', 'recommendation', 'recommendations', 'note', 'notes', 'tip',
  'tips', 'example', 'step', 'option', 'options', 'free', 'free plan', 'paid plans', 'starter', 'professional',
  'enterprise', 'basic', 'premium', 'standard', 'yes', 'no', 'n/a', 'faq', 'faqs', 'tl;dr', 'tldr', 'key takeaways',
  'use case', 'use cases', 'strengths', 'weaknesses', 'limitations', 'drawbacks', 'benefits', 'integrations',
  'ease of use', 'customer support', 'support', 'security', 'scalability', 'rating', 'ratings', 'score', 'tool',
  'tools', 'platform', 'software', 'name', 'vendor', 'provider', 'product', 'category', 'feature', 'criteria',
  // generic acronyms and terms
  'ai', 'api', 'apis', 'crm', 'crms', 'erp', 'seo', 'sem', 'saas', 'paas', 'iaas', 'b2b', 'b2c', 'smb', 'smbs', 'sme',
  'smes', 'roi', 'kpi', 'kpis', 'ui', 'ux', 'usd', 'eur', 'gbp', 'us', 'usa', 'uk', 'eu', 'pdf', 'csv', 'sql', 'html',
  'css', 'json', 'xml', 'gdpr', 'hipaa', 'soc', 'soc 2', 'sla', 'hr', 'it', 'ceo', 'cto', 'cmo', 'cfo', 'sms',
  'voip', 'llm', 'llms', 'ml', 'nlp', 'sdk', 'sso', 'mfa', '2fa', 'iot', 'vpn', 'os', 'ios', 'pc', 'mac', 'q&a',
  'diy', 'pos', 'cms', 'cdp', 'dam', 'pim', 'plm', 'hcm', 'ats', 'lms', 'itsm', 'rpa', 'bi', 'etl', 'okr', 'okrs',
  'gtm', 'abm', 'ppc', 'cpc', 'cpm', 'ctr', 'nps', 'csat', 'arr', 'mrr', 'ltv', 'cac', 'mvp', 'poc', 'rfp', 'tbd',
];
