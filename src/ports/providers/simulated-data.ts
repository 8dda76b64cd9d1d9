// Word banks of the simulated provider: markets (found from the prompt's wording), the
// invented "other brands" of each, and the sentences answer engines typically write.
// Everything here is made up; the brand names are invented so no real company is praised
// or blamed by a simulation.

export interface Market {
  key: string;
  /** Lower-case words that point to this market, looked for in the prompt and brand names. */
  keywords: string[];
  /** What the products are called: "CRM software". */
  noun: string;
  /** URL slug of the noun: "crm-software". */
  slug: string;
  wiki: string;
  features: string[];
  others: string[];
  subreddits: string[];
  institutional: Array<{ url: string; title: string }>;
}

export const MARKETS: Market[] = [
  {
    key: 'crm',
    keywords: ['crm', 'sales pipeline', 'customer relationship', 'lead management', 'sales team', 'deal tracking'],
    noun: 'CRM platforms',
    slug: 'crm-software',
    wiki: 'Customer_relationship_management',
    features: ['pipeline management', 'email tracking', 'lead scoring', 'reporting dashboards', 'workflow automation', 'contact management'],
    others: ['Relatiq', 'Leadhive', 'Clientwise', 'Dealstack', 'Salesloom', 'Prospera CRM'],
    subreddits: ['sales', 'CRM', 'smallbusiness', 'startups'],
    institutional: [
      { url: 'https://www.sba.gov/business-guide/manage-your-business/marketing-sales', title: 'Marketing and sales | U.S. Small Business Administration' },
      { url: 'https://www.hbs.edu/faculty/Pages/item.aspx?num=51234', title: 'Customer Relationship Management Adoption - Harvard Business School' },
      { url: 'https://www.ftc.gov/business-guidance/privacy-security/data-security', title: 'Data Security | Federal Trade Commission' },
    ],
  },
  {
    key: 'project',
    keywords: ['project management', 'task management', 'kanban', 'project tracking', 'team collaboration', 'gantt'],
    noun: 'project management tools',
    slug: 'project-management-software',
    wiki: 'Project_management_software',
    features: ['task dependencies', 'Gantt charts', 'resource planning', 'time tracking', 'kanban boards', 'integrations'],
    others: ['Taskline', 'Planwise', 'Boardwise', 'Sprintcraft', 'Trackstack', 'Workloom'],
    subreddits: ['projectmanagement', 'productivity', 'agile', 'startups'],
    institutional: [
      { url: 'https://www.pmi.org/learning/library/project-management-software-selection-7890', title: 'Selecting Project Management Software | PMI' },
      { url: 'https://www.gsa.gov/technology/government-it-initiatives/project-management', title: 'Project Management | GSA' },
      { url: 'https://extension.harvard.edu/blog/project-management-tools/', title: 'Choosing Project Management Tools - Harvard Extension School' },
    ],
  },
  {
    key: 'email',
    keywords: ['email marketing', 'newsletter', 'email campaign', 'marketing automation', 'mailing list'],
    noun: 'email marketing platforms',
    slug: 'email-marketing-software',
    wiki: 'Email_marketing',
    features: ['automation workflows', 'deliverability', 'A/B testing', 'segmentation', 'landing pages', 'template editor'],
    others: ['Sendwell', 'Mailcraft', 'Inboxora', 'Campaignly', 'Dripwise', 'Postlark'],
    subreddits: ['emailmarketing', 'marketing', 'Entrepreneur', 'smallbusiness'],
    institutional: [
      { url: 'https://www.ftc.gov/business-guidance/resources/can-spam-act-compliance-guide-business', title: 'CAN-SPAM Act: A Compliance Guide for Business | FTC' },
      { url: 'https://www.sba.gov/business-guide/manage-your-business/marketing-sales', title: 'Marketing and sales | SBA' },
      { url: 'https://ischool.illinois.edu/news-events/news/email-engagement-study', title: 'Email Engagement Study - University of Illinois' },
    ],
  },
  {
    key: 'accounting',
    keywords: ['accounting', 'bookkeeping', 'invoic', 'expense', 'payroll', 'tax'],
    noun: 'accounting tools',
    slug: 'accounting-software',
    wiki: 'Accounting_software',
    features: ['bank reconciliation', 'invoicing', 'expense tracking', 'multi-currency support', 'tax reports', 'payroll add-ons'],
    others: ['Ledgerly', 'Bookwise', 'Tallybase', 'Numbrix', 'Balancio', 'Accountia'],
    subreddits: ['Accounting', 'smallbusiness', 'Bookkeeping', 'freelance'],
    institutional: [
      { url: 'https://www.irs.gov/businesses/small-businesses-self-employed/recordkeeping', title: 'Recordkeeping | Internal Revenue Service' },
      { url: 'https://www.sba.gov/business-guide/manage-your-business/manage-your-finances', title: 'Manage your finances | SBA' },
      { url: 'https://www.aicpa-cima.com/resources/landing/small-business-technology', title: 'Small business technology resources | AICPA' },
    ],
  },
  {
    key: 'helpdesk',
    keywords: ['help desk', 'helpdesk', 'customer support', 'ticketing', 'customer service', 'live chat'],
    noun: 'help desk tools',
    slug: 'help-desk-software',
    wiki: 'Help_desk_software',
    features: ['ticket routing', 'knowledge base', 'SLA tracking', 'live chat', 'AI-assisted replies', 'omnichannel inbox'],
    others: ['Supportly', 'Ticketwise', 'Helpnest', 'Caseflow', 'Answerbase', 'Deskloom'],
    subreddits: ['CustomerService', 'sysadmin', 'msp', 'SaaS'],
    institutional: [
      { url: 'https://www.nist.gov/itl/smallbusinesscyber', title: 'Small Business Cybersecurity Corner | NIST' },
      { url: 'https://www.digital.gov/topics/customer-experience/', title: 'Customer experience | Digital.gov' },
      { url: 'https://www.mccombs.utexas.edu/research/customer-service-technology', title: 'Customer Service Technology Research - UT Austin' },
    ],
  },
  {
    key: 'analytics',
    keywords: ['analytics', 'dashboard', 'business intelligence', 'data visualization', 'reporting tool', 'seo'],
    noun: 'analytics platforms',
    slug: 'analytics-software',
    wiki: 'Analytics',
    features: ['real-time dashboards', 'data connectors', 'custom reports', 'event tracking', 'forecasting', 'data governance'],
    others: ['Metriq', 'Datawise', 'Chartbeam', 'Trendline', 'Querylab', 'Insightora'],
    subreddits: ['analytics', 'BusinessIntelligence', 'dataengineering', 'marketing'],
    institutional: [
      { url: 'https://www.census.gov/topics/business-economy/data-tools.html', title: 'Business and Economy Data Tools | U.S. Census Bureau' },
      { url: 'https://www.nist.gov/privacy-framework', title: 'Privacy Framework | NIST' },
      { url: 'https://mitsloan.mit.edu/ideas-made-to-matter/data-analytics', title: 'Data analytics | MIT Sloan' },
    ],
  },
  {
    key: 'software',
    keywords: [],
    noun: 'software tools',
    slug: 'business-software',
    wiki: 'Business_software',
    features: ['ease of use', 'integrations', 'automation', 'reporting', 'security controls', 'mobile apps'],
    others: ['Brightlane', 'Nexora', 'Stackwise', 'Corevia', 'Fluxbase', 'Northwind Apps'],
    subreddits: ['software', 'smallbusiness', 'SaaS', 'startups'],
    institutional: [
      { url: 'https://www.sba.gov/business-guide/manage-your-business', title: 'Manage your business | SBA' },
      { url: 'https://www.nist.gov/itl/smallbusinesscyber', title: 'Small Business Cybersecurity Corner | NIST' },
      { url: 'https://hbr.org/topic/subject/technology-and-analytics', title: 'Technology and analytics - Harvard Business Review' },
    ],
  },
];

export const NEWS = [
  { host: 'techcrunch.com', name: 'TechCrunch', path: (y: string, m: string, s: string) => `/${y}/${m}/14/${s}/` },
  { host: 'www.forbes.com', name: 'Forbes Advisor', path: (_y: string, _m: string, s: string) => `/advisor/business/software/${s}/` },
  { host: 'www.zdnet.com', name: 'ZDNET', path: (_y: string, _m: string, s: string) => `/article/${s}/` },
  { host: 'www.techradar.com', name: 'TechRadar', path: (_y: string, _m: string, s: string) => `/best/${s}` },
  { host: 'www.pcmag.com', name: 'PCMag', path: (_y: string, _m: string, s: string) => `/picks/${s}` },
  { host: 'www.theverge.com', name: 'The Verge', path: (y: string, m: string, s: string) => `/${y}/${m}/2/${s}` },
  { host: 'www.businessinsider.com', name: 'Business Insider', path: (_y: string, _m: string, s: string) => `/${s}-2024-1` },
  { host: 'www.cnbc.com', name: 'CNBC', path: (y: string, m: string, s: string) => `/${y}/${m}/09/${s}.html` },
];

export const REVIEW_SITES = [
  { host: 'www.g2.com', name: 'G2', category: (slug: string) => `/categories/${slug.replace(/-software$/, '')}`, product: (b: string) => `/products/${b}/reviews` },
  { host: 'www.capterra.com', name: 'Capterra', category: (slug: string) => `/${slug}/`, product: (b: string) => `/p/1${b.length}4${b.length}2/${b}/` },
  { host: 'www.trustradius.com', name: 'TrustRadius', category: (slug: string) => `/${slug}`, product: (b: string) => `/products/${b}/reviews` },
];

export const SEGMENTS = ['small businesses', 'startups', 'enterprise teams', 'agencies', 'remote teams', 'non-profits', 'growing sales teams', 'solo founders'];

// {B} brand, {F} feature, {S} segment, {N} noun. Tones drive the sentiment the analysis should find.
export const PRAISE = [
  '{B} stands out for its {F} and a clean, intuitive interface.',
  "Users consistently praise {B}'s {F}, and onboarding is quick.",
  '{B} is a strong all-rounder with excellent {F}.',
  '{B} offers reliable {F} and a generous free tier.',
  'Reviewers like {B} for its {F} and responsive support team.',
  '{B} is a great choice for {S} thanks to its polished {F}.',
];
export const MIXED = [
  '{B} is powerful for {F}, but it is not the cheapest option.',
  '{B} handles {F} well, though the learning curve is steeper than most.',
  '{B} has solid {F}; however, advanced features sit behind higher tiers.',
  "{B} works well for smaller teams, but it isn't ideal for large enterprises.",
  '{B} is flexible, although setting up {F} takes some effort.',
];
export const CRITICAL = [
  '{B} lacks advanced {F}, and several users report slow support.',
  'Some reviewers find {B} clunky, and its {F} feels dated.',
  '{B} is not the best fit if you need robust {F}.',
  '{B} has drawn complaints about price increases and limited {F}.',
  '{B} falls behind the leaders on {F}, and its mobile app is buggy.',
];
export const NEUTRAL = [
  '{B} focuses on {F} for {S}.',
  '{B} positions itself as a mid-market option built around {F}.',
  '{B} is frequently shortlisted by {S} looking for {F}.',
];
export const DETAILS = [
  'Pricing starts at a modest per-user monthly fee, with annual discounts.',
  'It integrates with common email and calendar tools out of the box.',
  'Setup typically takes a day or two for a small team.',
  'Its reporting covers the basics without extra add-ons.',
  'A free trial lets you test the core features first.',
  'Customer support is available by chat and email on paid plans.',
];

export const INTROS = [
  'Choosing between {N} comes down to your team size, budget and the workflows you need to support.',
  'There is no single best option among {N}; the right pick depends on what you value most.',
  'Based on recent reviews, pricing pages and user discussions, several {N} stand out this year.',
  'Here are some of the most frequently recommended {N}, with their main strengths and weaknesses.',
  'The market for {N} is crowded, but a handful of products consistently come up in comparisons.',
];
/** Claude answers in a more conversational, hedged voice. */
export const CLAUDE_INTROS = [
  'It depends on your priorities, but a few {N} come up again and again in reviews and user discussions.',
  "Good question. There isn't one right answer, but several {N} are worth a close look.",
  'Short answer: a handful of {N} lead the field, each with clear trade-offs.',
];
export const INTRO_FOLLOW = [
  'Most of them offer free trials, so it is worth testing two or three before committing.',
  'Ease of use and integrations tend to matter more than long feature lists.',
  'Prices vary widely, from free plans to enterprise contracts.',
];
export const CONSIDERATIONS = [
  'Check how each tool integrates with the software you already use.',
  'Compare total cost of ownership, including add-ons and seat minimums.',
  'Look at data export options so you are not locked in later.',
  'Read recent user reviews, since product quality can change quickly.',
  'Ask for a demo focused on your own use case rather than a generic tour.',
];
