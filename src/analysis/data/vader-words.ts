/**
 * VADER's rule words (Hutto & Gilbert, 2014), as in the vader-sentiment package:
 * negations, intensity boosters and dampeners, and idioms with a fixed valence.
 */

/** Words that flip the valence of a sentiment word up to three words after them. */
export const NEGATIONS: readonly string[] = [
  'aint', 'arent', 'cannot', 'cant', 'couldnt', 'darent', 'didnt', 'doesnt', "ain't", "aren't", "can't", "couldn't",
  "daren't", "didn't", "doesn't", 'dont', 'hadnt', 'hasnt', 'havent', 'isnt', 'mightnt', 'mustnt', 'neither',
  "don't", "hadn't", "hasn't", "haven't", "isn't", "mightn't", "mustn't", 'neednt', "needn't", 'never', 'none',
  'nope', 'nor', 'not', 'nothing', 'nowhere', 'oughtnt', 'shant', 'shouldnt', 'uhuh', 'wasnt', 'werent', "oughtn't",
  "shan't", "shouldn't", 'uh-uh', "wasn't", "weren't", 'without', 'wont', 'wouldnt', "won't", "wouldn't", 'rarely',
  'seldom', 'despite',
];

/** Degree adverbs that raise the intensity of the sentiment word after them. */
export const BOOSTER_INCREMENTS: readonly string[] = [
  'absolutely', 'amazingly', 'awfully', 'completely', 'considerably', 'decidedly', 'deeply', 'effing', 'enormously',
  'entirely', 'especially', 'exceptionally', 'extremely', 'fabulously', 'flipping', 'flippin', 'fricking', 'frickin',
  'frigging', 'friggin', 'fully', 'fucking', 'greatly', 'hella', 'highly', 'hugely', 'incredibly', 'intensely',
  'majorly', 'more', 'most', 'particularly', 'purely', 'quite', 'really', 'remarkably', 'so', 'substantially',
  'thoroughly', 'totally', 'tremendously', 'uber', 'unbelievably', 'unusually', 'utterly', 'very',
];

/** Degree adverbs that lower it. */
export const BOOSTER_DAMPENERS: readonly string[] = [
  'almost', 'barely', 'hardly', 'just enough', 'kind of', 'kinda', 'kindof', 'kind-of', 'less', 'little',
  'marginally', 'occasionally', 'partly', 'scarcely', 'slightly', 'somewhat', 'sort of', 'sorta', 'sortof', 'sort-of',
];

/** Idioms whose valence replaces that of the sentiment word in them. */
export const SPECIAL_IDIOMS: Readonly<Record<string, number>> = {
  'the shit': 3, 'the bomb': 3, 'bad ass': 1.5, 'yeah right': -2, 'cut the mustard': 2, 'kiss of death': -1.5,
  'hand to mouth': -2,
};
