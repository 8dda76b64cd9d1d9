// The built-in writer's catalogue of markets: how to recognise one from a site's words,
// and the words a buyer in it uses. Kept as data so a market is added without new code.
// Weights: 3 names the market outright, 2 is strong evidence, 1 is a hint.

export type TopicKey = 'choose' | 'use' | 'buy';
export type Keyword = [RegExp, number];

interface MarketBase {
  id: string;
  keywords: Keyword[];
  topics: Record<TopicKey, [name: string, description: string]>;
}

export interface SoftwareMarket extends MarketBase {
  kind: 'software';
  /** one product of the category, usable after "the best": "CRM", "project management tool" */
  tool: string;
  /** the tool with its article; set for mass nouns ("accounting software", not "an accounting software") */
  aTool?: string;
  tools: string;
  audiences: string[];
  /** what buyers want it for, usable after "best for": "tracking sales leads" */
  jobs: string[];
  integrations: string[];
}

export interface ProductMarket extends MarketBase {
  kind: 'product';
  /** plural: "running shoes" */
  items: string;
  /** "running shoe brands" */
  makers: string;
  /** usable after "for": "flat feet", "marathon training" */
  uses: string[];
  qualities: string[];
}

export interface LocalMarket extends MarketBase {
  kind: 'local';
  place: string;
  places: string;
  /** plural or mass nouns: "sourdough bread", "custom birthday cakes" */
  offers: string[];
  /** offers are booked (appointments, tables), not ordered */
  booked?: boolean;
}

export type Market = SoftwareMarket | ProductMarket | LocalMarket;

const DESCRIPTIONS: Record<Market['kind'], Record<TopicKey, (what: string) => string>> = {
  software: {
    choose: (what) => `Which ${what} buyers shortlist, recommend and compare.`,
    use: (what) => `What ${what} do, which features matter and what they integrate with.`,
    buy: (what) => `What ${what} cost: free plans, trials and picking a plan.`,
  },
  product: {
    choose: (what) => `Which ${what} people recommend, and for whom.`,
    use: (what) => `How to choose ${what} and what sets good ones apart.`,
    buy: (what) => `Where to buy ${what}, what they cost and what to look for in an offer.`,
  },
  local: {
    choose: (what) => `Which ${what} people recommend nearby.`,
    use: (what) => `What sets good ${what} apart and what to look out for.`,
    buy: (what) => `Prices, ordering and visiting ${what}.`,
  },
};

function topicSet(kind: Market['kind'], names: [string, string, string], what: string): MarketBase['topics'] {
  const keys: TopicKey[] = ['choose', 'use', 'buy'];
  return Object.fromEntries(keys.map((k, i) => [k, [names[i], DESCRIPTIONS[kind][k](what)]])) as MarketBase['topics'];
}

export const MARKETS: Market[] = [
  {
    id: 'crm', kind: 'software', tool: 'CRM', tools: 'CRM tools',
    keywords: [[/\bcrms?\b/i, 3], [/customer relationship management/i, 3], [/sales pipeline/i, 2], [/\bleads?\b/i, 1], [/\bdeals?\b/i, 1], [/\bcontacts?\b/i, 1]],
    audiences: ['small businesses', 'startups', 'B2B sales teams', 'real estate agents', 'freelancers'],
    jobs: ['tracking sales leads', 'managing a sales pipeline', 'automating follow-up emails', 'sales forecasting'],
    integrations: ['Gmail', 'Outlook', 'Slack', 'Shopify'],
    topics: topicSet('software', ['CRM software', 'CRM features and integrations', 'CRM pricing and plans'], 'CRM tools'),
  },
  {
    id: 'project-management', kind: 'software', tool: 'project management tool', tools: 'project management tools',
    keywords: [[/project management/i, 3], [/\bkanban\b/i, 2], [/\bgantt\b/i, 2], [/\btasks?\b/i, 1], [/\bsprints?\b/i, 1], [/\btimelines?\b/i, 1], [/\bworkflows?\b/i, 1]],
    audiences: ['remote teams', 'small teams', 'agencies', 'software teams', 'construction companies'],
    jobs: ['planning sprints', 'tracking tasks across teams', 'managing client projects', 'resource planning'],
    integrations: ['Slack', 'GitHub', 'Google Drive', 'Microsoft Teams'],
    topics: topicSet('software', ['Project management software', 'Project management features and integrations', 'Project management tool pricing'], 'project management tools'),
  },
  {
    id: 'email-marketing', kind: 'software', tool: 'email marketing platform', tools: 'email marketing tools',
    keywords: [[/email marketing/i, 3], [/newsletters?/i, 2], [/email campaigns?/i, 2], [/\bsubscribers?\b/i, 1], [/\bautoresponders?\b/i, 1]],
    audiences: ['ecommerce stores', 'creators', 'small businesses', 'nonprofits', 'B2B companies'],
    jobs: ['sending newsletters', 'automated email sequences', 'growing an email list', 'abandoned cart emails'],
    integrations: ['Shopify', 'WordPress', 'WooCommerce', 'Stripe'],
    topics: topicSet('software', ['Email marketing software', 'Email marketing features and integrations', 'Email marketing pricing'], 'email marketing tools'),
  },
  {
    id: 'accounting', kind: 'software', tool: 'accounting software', aTool: 'accounting software', tools: 'accounting tools',
    keywords: [[/accounting/i, 3], [/bookkeeping/i, 3], [/\binvoic(e|es|ing)\b/i, 2], [/\bpayroll\b/i, 1], [/\bexpenses?\b/i, 1], [/\btax(es)?\b/i, 1]],
    audiences: ['small businesses', 'freelancers', 'accountants', 'startups', 'nonprofits'],
    jobs: ['sending invoices', 'tracking expenses', 'preparing for tax season', 'bank reconciliation'],
    integrations: ['Stripe', 'PayPal', 'Shopify', 'Square'],
    topics: topicSet('software', ['Accounting software', 'Accounting software features', 'Accounting software pricing'], 'accounting tools'),
  },
  {
    id: 'help-desk', kind: 'software', tool: 'help desk software', aTool: 'help desk software', tools: 'help desk tools',
    keywords: [[/help ?desk/i, 3], [/customer (support|service) software/i, 3], [/support tickets?|ticketing/i, 2], [/live chat/i, 1], [/knowledge base/i, 1]],
    audiences: ['SaaS companies', 'ecommerce stores', 'small support teams', 'IT teams'],
    jobs: ['managing support tickets', 'live chat support', 'building a knowledge base', 'measuring customer satisfaction'],
    integrations: ['Slack', 'Shopify', 'Salesforce', 'Jira'],
    topics: topicSet('software', ['Help desk software', 'Help desk features and integrations', 'Help desk pricing'], 'help desk tools'),
  },
  {
    id: 'website-builder', kind: 'software', tool: 'website builder', tools: 'website builders',
    keywords: [[/website builder/i, 3], [/build (a|your) website/i, 2], [/\btemplates?\b/i, 1], [/drag[- ]and[- ]drop/i, 1], [/\bhosting\b/i, 1]],
    audiences: ['small businesses', 'photographers', 'restaurants', 'beginners', 'online stores'],
    jobs: ['building a portfolio', 'SEO', 'blogging', 'selling online'],
    integrations: ['Google Analytics', 'Mailchimp', 'Stripe', 'Instagram'],
    topics: topicSet('software', ['Website builders', 'Website builder features', 'Website builder pricing'], 'website builders'),
  },
  {
    id: 'ecommerce-platform', kind: 'software', tool: 'ecommerce platform', tools: 'ecommerce platforms',
    keywords: [[/e-?commerce platform/i, 3], [/online store/i, 2], [/sell online/i, 2], [/\bcheckout\b/i, 1], [/\binventory\b/i, 1]],
    audiences: ['small businesses', 'fashion brands', 'dropshippers', 'B2B sellers'],
    jobs: ['selling internationally', 'managing inventory', 'subscriptions', 'selling on social media'],
    integrations: ['Amazon', 'Instagram', 'QuickBooks', 'Google Shopping'],
    topics: topicSet('software', ['Ecommerce platforms', 'Ecommerce platform features', 'Ecommerce platform pricing'], 'ecommerce platforms'),
  },
  {
    id: 'hr-payroll', kind: 'software', tool: 'HR software', aTool: 'HR software', tools: 'HR and payroll tools',
    keywords: [[/\bhr software\b|\bhris\b/i, 3], [/human resources/i, 2], [/\bpayroll\b/i, 2], [/\bonboarding\b/i, 1], [/\bemployees?\b/i, 1], [/time off|\bpto\b/i, 1]],
    audiences: ['small businesses', 'startups', 'remote companies', 'growing teams'],
    jobs: ['running payroll', 'employee onboarding', 'tracking time off', 'performance reviews'],
    integrations: ['Slack', 'QuickBooks', 'Google Workspace', 'Xero'],
    topics: topicSet('software', ['HR software', 'HR software features', 'HR and payroll pricing'], 'HR tools'),
  },
  {
    id: 'running-shoes', kind: 'product', items: 'running shoes', makers: 'running shoe brands',
    keywords: [[/running shoes?/i, 3], [/trail running/i, 2], [/\brunners?\b/i, 1], [/\bmarathons?\b/i, 1], [/\bsneakers?\b/i, 1], [/\bcushioning\b/i, 1]],
    uses: ['flat feet', 'marathon training', 'beginners', 'trail running', 'wide feet', 'knee pain', 'daily training'],
    qualities: ['comfortable', 'durable', 'lightweight'],
    topics: topicSet('product', ['Best running shoes', 'Running shoe advice', 'Buying running shoes'], 'running shoes'),
  },
  {
    id: 'skincare', kind: 'product', items: 'skincare products', makers: 'skincare brands',
    keywords: [[/skin ?care/i, 3], [/\bserums?\b/i, 2], [/moisturi[sz]ers?/i, 2], [/sunscreen|\bspf\b/i, 1], [/\bcleansers?\b/i, 1]],
    uses: ['sensitive skin', 'acne-prone skin', 'dry skin', 'oily skin', 'anti-aging', 'hyperpigmentation', 'men'],
    qualities: ['gentle', 'effective', 'affordable'],
    topics: topicSet('product', ['Best skincare products', 'Skincare advice', 'Buying skincare'], 'skincare products'),
  },
  {
    id: 'mattresses', kind: 'product', items: 'mattresses', makers: 'mattress brands',
    keywords: [[/mattress(es)?/i, 3], [/\bsleep\b/i, 1], [/memory foam/i, 2], [/\bpillows?\b/i, 1]],
    uses: ['back pain', 'side sleepers', 'couples', 'hot sleepers', 'stomach sleepers', 'heavy people', 'kids'],
    qualities: ['comfortable', 'supportive', 'durable'],
    topics: topicSet('product', ['Best mattresses', 'Mattress advice', 'Buying a mattress'], 'mattresses'),
  },
  {
    id: 'bakery', kind: 'local', place: 'bakery', places: 'bakeries',
    keywords: [[/\bbaker(y|ies)\b/i, 3], [/sourdough/i, 2], [/croissants?/i, 1], [/pastr(y|ies)/i, 1], [/\bcakes?\b/i, 1], [/\bbreads?\b|\bloaf|\bloaves\b/i, 1]],
    offers: ['sourdough bread', 'croissants', 'custom birthday cakes', 'gluten-free pastries', 'wedding cakes', 'cinnamon rolls'],
    topics: topicSet('local', ['Best bakeries', 'Bread and pastry know-how', 'Ordering from a bakery'], 'bakeries'),
  },
  {
    id: 'cafe', kind: 'local', place: 'coffee shop', places: 'coffee shops',
    keywords: [[/coffee (shop|house|bar)|\bcaf[eé]s?(?!\p{L})/iu, 3], [/espresso/i, 2], [/\blattes?\b|cappuccino/i, 1], [/\bbrunch\b/i, 1]],
    offers: ['specialty coffee', 'oat milk lattes', 'brunch', 'pour-over coffee', 'pastries', 'cold brew'],
    topics: topicSet('local', ['Best coffee shops', 'Coffee know-how', 'Visiting a coffee shop'], 'coffee shops'),
  },
  {
    id: 'restaurant', kind: 'local', place: 'restaurant', places: 'restaurants',
    keywords: [[/\brestaurants?\b/i, 3], [/\bbistro\b|\btrattoria\b|\beatery\b/i, 2], [/\bmenu\b/i, 1], [/reservations?|book a table/i, 1], [/\bdinner\b|\blunch\b/i, 1]],
    offers: ['date night dinners', 'vegetarian dishes', 'private dining', 'weekend brunch', 'tasting menus', 'group dinners'], booked: true,
    topics: topicSet('local', ['Best restaurants', 'Dining tips', 'Booking a restaurant'], 'restaurants'),
  },
  {
    id: 'dentist', kind: 'local', place: 'dentist', places: 'dental clinics',
    keywords: [[/dentists?|dental/i, 3], [/orthodont/i, 2], [/teeth whitening|invisalign/i, 2], [/\bimplants?\b/i, 1]],
    offers: ['teeth whitening', 'dental implants', 'emergency dental care', 'Invisalign', 'routine check-ups', 'dental veneers'], booked: true,
    topics: topicSet('local', ['Best dentists', 'Dental care advice', 'Dental treatment costs'], 'dentists'),
  },
  {
    id: 'gym', kind: 'local', place: 'gym', places: 'gyms',
    keywords: [[/\bgyms?\b|fitness (studio|club|centre|center)/i, 3], [/personal train/i, 2], [/\bworkouts?\b|\bclasses\b/i, 1], [/\bmembership\b/i, 1]],
    offers: ['personal training', 'group fitness classes', 'strength training', 'yoga classes', 'spin classes', 'boxing classes'], booked: true,
    topics: topicSet('local', ['Best gyms', 'Fitness advice', 'Gym memberships'], 'gyms'),
  },
];
