/**
 * Company sites that are `corporate` even when no tracked brand owns them and the answer
 * does not name them: large vendors whose sites AI answers cite for product facts.
 * Other company sites are recognised by rule (see categories.ts): a domain whose name
 * matches a brand-like name in the answer, or a product page (pricing, features, plans).
 */
export const COMPANY_DOMAINS: readonly string[] = [
  'microsoft.com', 'apple.com', 'google.com', 'amazon.com', 'aws.amazon.com', 'meta.com', 'oracle.com', 'ibm.com',
  'sap.com', 'salesforce.com', 'adobe.com', 'hubspot.com', 'zoho.com', 'atlassian.com', 'slack.com', 'zoom.us',
  'shopify.com', 'stripe.com', 'paypal.com', 'intuit.com', 'quickbooks.intuit.com', 'servicenow.com', 'workday.com',
  'dropbox.com', 'box.com', 'notion.so', 'asana.com', 'monday.com', 'clickup.com', 'airtable.com', 'canva.com',
  'figma.com', 'mailchimp.com', 'zendesk.com', 'intercom.com', 'freshworks.com', 'pipedrive.com', 'close.com',
  'twilio.com', 'cloudflare.com', 'datadoghq.com', 'snowflake.com', 'databricks.com', 'mongodb.com', 'openai.com',
  'anthropic.com', 'nvidia.com', 'intel.com', 'amd.com', 'dell.com', 'hp.com', 'lenovo.com', 'samsung.com',
  'sony.com', 'cisco.com', 'vmware.com', 'docusign.com', 'wix.com', 'squarespace.com', 'godaddy.com',
  'semrush.com', 'ahrefs.com', 'moz.com', 'similarweb.com', 'tableau.com', 'netflix.com', 'spotify.com',
  'uber.com', 'airbnb.com', 'booking.com', 'expedia.com', 'tesla.com', 'nike.com', 'walmart.com', 'target.com',
  'bestbuy.com', 'ebay.com', 'etsy.com', 'gusto.com', 'rippling.com', 'bamboohr.com', 'adp.com', 'xero.com',
  'sage.com', 'netsuite.com', 'brex.com', 'ramp.com', 'gong.io', 'outreach.io', 'apollo.io', 'zapier.com',
  'make.com', 'calendly.com', 'loom.com', 'miro.com', 'trello.com', 'basecamp.com', 'wrike.com', 'smartsheet.com',
];
