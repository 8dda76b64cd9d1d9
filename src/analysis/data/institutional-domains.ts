/**
 * Government, academic and non-profit sites that the suffix rules do not catch (the rules
 * already cover .gov, .edu, .mil, .int and gov./ac./edu./… second levels such as
 * .gov.uk or .ac.jp): international bodies, standards bodies, foundations, academic
 * publishers and preprint servers. Each cited page on them is `institutional`.
 */
export const INSTITUTIONAL_DOMAINS: readonly string[] = [
  // international and public bodies outside .gov/.int
  'un.org', 'unicef.org', 'unesco.org', 'worldbank.org', 'imf.org', 'oecd.org', 'wto.org', 'europa.eu',
  'gov.uk', 'canada.ca', 'nhs.uk', 'ons.gov.uk', 'ecb.europa.eu', 'bis.org', 'weforum.org',
  // standards bodies and open-source foundations
  'w3.org', 'ietf.org', 'iso.org', 'ieee.org', 'unicode.org', 'icann.org', 'apache.org', 'linuxfoundation.org',
  'opensource.org', 'mozilla.org', 'eff.org', 'wikimedia.org', 'owasp.org', 'cncf.io', 'python.org',
  'fsf.org', 'gnu.org', 'creativecommons.org', 'internetsociety.org', 'oasis-open.org', 'pcisecuritystandards.org',
  // charities and foundations
  'redcross.org', 'icrc.org', 'gatesfoundation.org', 'amnesty.org', 'hrw.org', 'oxfam.org', 'savethechildren.org',
  'doctorswithoutborders.org', 'msf.org', 'wwf.org', 'worldwildlife.org', 'greenpeace.org', 'khanacademy.org',
  'pewresearch.org', 'brookings.edu', 'rand.org', 'cfr.org', 'aarp.org', 'mayoclinic.org', 'clevelandclinic.org',
  'cancer.org', 'heart.org', 'who.int', 'sba.gov',
  // academic publishers, journals, preprint servers
  'arxiv.org', 'ssrn.com', 'jstor.org', 'nature.com', 'science.org', 'sciencedirect.com', 'springer.com',
  'link.springer.com', 'wiley.com', 'onlinelibrary.wiley.com', 'tandfonline.com', 'sagepub.com', 'plos.org',
  'cell.com', 'thelancet.com', 'nejm.org', 'bmj.com', 'acm.org', 'researchgate.net', 'semanticscholar.org',
  'scholar.google.com', 'pubmed.ncbi.nlm.nih.gov', 'biorxiv.org', 'medrxiv.org', 'cambridge.org', 'oup.com',
  'mit.edu', 'ox.ac.uk', 'ethz.ch', 'epfl.ch',
];

/** Second-level labels that mark government or academic registries under a country code (gov.uk, ac.jp, gouv.fr). */
export const INSTITUTIONAL_SECOND_LEVELS: readonly string[] = [
  'gov', 'govt', 'gouv', 'gob', 'go', 'gv', 'gc', 'mil', 'ac', 'edu', 'int', 'nhs', 'police', 'parliament',
];

/** Top-level domains reserved to governments, universities, the military and treaty bodies. */
export const INSTITUTIONAL_TLDS: readonly string[] = ['gov', 'edu', 'mil', 'int'];
