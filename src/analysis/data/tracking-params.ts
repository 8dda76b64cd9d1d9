/**
 * Query parameters that track a click and do not change the page: dropped when a URL is
 * normalised. Names are matched lower-case; `PREFIXES` drop every parameter that starts so.
 */
export const TRACKING_PARAMS: readonly string[] = [
  'gclid', 'gclsrc', 'dclid', 'gbraid', 'wbraid', 'fbclid', 'msclkid', 'yclid', 'twclid', 'ttclid', 'li_fat_id',
  'igshid', 'igsh', 'mc_cid', 'mc_eid', '_ga', '_gl', '_hsenc', '_hsmi', '__hstc', '__hssc', '__hsfp', 'hsctatracking',
  'mkt_tok', 'vero_id', 'oly_enc_id', 'oly_anon_id', 'rb_clickid', 's_cid', 'srsltid', 'si', 'ref_src', 'ref_url',
  'trk', 'trkcampaign', 'sc_campaign', 'sc_channel', 'cmpid', 'campaign_id', 'ad_id', 'adset_id', 'spm', 'scid',
  // Shopify storefront session tag that Google Shopping appends to product links.
  '_gsid',
];
export const TRACKING_PARAM_PREFIXES: readonly string[] = ['utm_', 'pk_', 'mtm_', 'hsa_', 'matomo_'];
