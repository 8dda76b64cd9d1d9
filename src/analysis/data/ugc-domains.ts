/**
 * Forums, social networks, Q&A, video, self-publishing platforms and user-review sites:
 * `ugc`. Review sites (G2, Capterra, Trustpilot…) are here because their pages are
 * user reviews; Medium, Substack and dev.to because anyone publishes there.
 */
export const UGC_DOMAINS: readonly string[] = [
  // forums and Q&A
  'reddit.com', 'redd.it', 'quora.com', 'stackoverflow.com', 'stackexchange.com', 'superuser.com', 'serverfault.com',
  'askubuntu.com', 'mathoverflow.net', 'news.ycombinator.com', 'slashdot.org', 'lobste.rs', 'indiehackers.com',
  'spiceworks.com', 'community.spiceworks.com', 'discourse.org', 'tripadvisor.com', 'answers.microsoft.com',
  'discord.com', 'discord.gg', 'lemmy.world', 'boards.ie', 'mumsnet.com', 'stackshare.io', 'warriorforum.com',
  // social networks
  'x.com', 'twitter.com', 't.co', 'facebook.com', 'fb.com', 'instagram.com', 'linkedin.com', 'lnkd.in',
  'tiktok.com', 'pinterest.com', 'threads.net', 'tumblr.com', 'mastodon.social', 'bsky.app', 'snapchat.com',
  'weibo.com', 'vk.com', 'telegram.org', 't.me', 'whatsapp.com',
  // video and audio
  'youtube.com', 'youtu.be', 'vimeo.com', 'twitch.tv', 'dailymotion.com', 'rumble.com', 'bilibili.com',
  'podcasts.apple.com', 'open.spotify.com', 'soundcloud.com',
  // self-publishing and code hosting
  'medium.com', 'substack.com', 'dev.to', 'hashnode.com', 'hashnode.dev', 'blogspot.com', 'wordpress.com',
  'github.com', 'gist.github.com', 'gitlab.com', 'bitbucket.org', 'huggingface.co', 'kaggle.com', 'fandom.com',
  // user reviews
  'g2.com', 'capterra.com', 'getapp.com', 'softwareadvice.com', 'trustpilot.com', 'trustradius.com',
  'producthunt.com', 'yelp.com', 'glassdoor.com', 'sitejabber.com', 'alternativeto.net',
  'saasworthy.com', 'crozdesk.com', 'sourceforge.net', 'slant.co',
];

/** First host labels of community sites run by anyone (community.hubspot.com is corporate: tracked brands win). */
export const UGC_SUBDOMAINS: readonly string[] = [
  'forum', 'forums', 'community', 'communities', 'discuss', 'discussion', 'discussions', 'answers', 'groups',
];
