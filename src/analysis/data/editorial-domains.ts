/**
 * News and media sites: cited pages on these domains are `editorial` (docs/analytics.md).
 * Registrable domains (or full host names), lower-case. Analyst firms whose reports are
 * published research (Gartner, Forrester) count as media here.
 */
export const EDITORIAL_DOMAINS: readonly string[] = [
  // general news
  'nytimes.com', 'wsj.com', 'washingtonpost.com', 'usatoday.com', 'latimes.com', 'reuters.com', 'apnews.com',
  'bloomberg.com', 'ft.com', 'economist.com', 'theguardian.com', 'bbc.com', 'bbc.co.uk', 'cnn.com', 'cnbc.com',
  'nbcnews.com', 'abcnews.go.com', 'cbsnews.com', 'foxnews.com', 'foxbusiness.com', 'npr.org', 'politico.com',
  'axios.com', 'theatlantic.com', 'newyorker.com', 'vox.com', 'time.com', 'newsweek.com', 'independent.co.uk',
  'telegraph.co.uk', 'thetimes.co.uk', 'dailymail.co.uk', 'aljazeera.com', 'lemonde.fr', 'spiegel.de',
  'elpais.com', 'yahoo.com', 'msn.com', 'news.google.com', 'marketwatch.com', 'barrons.com', 'fortune.com',
  'qz.com', 'vice.com', 'huffpost.com', 'thehill.com', 'nypost.com', 'smh.com.au', 'abc.net.au', 'cbc.ca',
  'theglobeandmail.com', 'scmp.com', 'straitstimes.com', 'timesofindia.indiatimes.com', 'economictimes.indiatimes.com',
  // business and tech press
  'forbes.com', 'businessinsider.com', 'insider.com', 'hbr.org', 'fastcompany.com', 'inc.com', 'entrepreneur.com',
  'techcrunch.com', 'theverge.com', 'wired.com', 'arstechnica.com', 'engadget.com', 'venturebeat.com',
  'zdnet.com', 'cnet.com', 'pcmag.com', 'pcworld.com', 'techradar.com', 'tomsguide.com', 'tomshardware.com',
  'digitaltrends.com', 'gizmodo.com', 'mashable.com', 'theregister.com', 'techrepublic.com', 'computerworld.com',
  'infoworld.com', 'informationweek.com', 'siliconangle.com', 'thenextweb.com', 'protocol.com', 'the-information.com',
  'theinformation.com', 'makeuseof.com', 'howtogeek.com', 'lifehacker.com', 'androidauthority.com', '9to5mac.com',
  'macrumors.com', 'appleinsider.com', 'businessnewsdaily.com', 'smallbiztrends.com', 'cio.com', 'techtarget.com',
  'eweek.com', 'crn.com', 'thestreet.com', 'fool.com', 'kiplinger.com', 'nerdwallet.com', 'bankrate.com',
  // marketing and industry press
  'searchenginejournal.com', 'searchengineland.com', 'marketingweek.com', 'adweek.com', 'adage.com',
  'marketingdive.com', 'emarketer.com', 'martech.org', 'marketingprofs.com', 'retaildive.com', 'ciodive.com',
  'hrdive.com', 'customerthink.com', 'cmswire.com', 'fiercehealthcare.com', 'healthline.com', 'webmd.com',
  'pcgamer.com', 'ign.com',
  // analysts and research publishers
  'gartner.com', 'forrester.com', 'idc.com', 'mckinsey.com', 'statnews.com',
];
