// The shape of the demo world's vocabulary (demo-world.json, data rather than code): product
// categories in clusters of related shopping contexts, the ASER-style events around them, and the
// co-buy intentions between them. demo-world.ts turns it into a graph, a catalogue, FolkScope-style
// assertions and concept phrases.
//
// Design (what makes it a useful demo for context similarity and distractors):
// - categories in one cluster share context events (phones ~ chargers ~ cases share "PersonX
//   phone battery die"), so their context embeddings are close;
// - clusters are bridged by a few shared events (jewelry ~ beauty via "PersonX want to look
//   pretty"; coffee ~ mobile via "PersonX commute by train"), giving medium similarities;
// - near neighbours share words but not contexts (phone case ~ pencil case, water bottle ~ baby
//   bottle, headphone ~ gaming headset, dog food ~ cat food): distractor-worthy pairs;
// - hub events ("PersonX go to the store", "PersonX have money", "PersonX be happy") touch every
//   category; a few purchase nodes and events are isolated (no edges at all);
// - every co-buy assertion reads as something a shopper could say: an intention names the category
//   pairs it fits ("protecting a phone": phone case + screen protector, never headphones), and only
//   a cluster-wide one ("a type of jewelry") leaves them open.
// Node texts follow ASER's normalised style: lemmatised verbs, singular nouns, PersonX/PeopleX.

export interface DemoCategory {
  /** The object phrase of its purchase nodes (singular, ASER style). */
  noun: string;
  /** A mass noun takes no article: "PersonX buy dog food". */
  mass?: boolean;
  /** Raw concept phrases, as a ChatGPT-style conceptualizer would answer (title case, 2 words). */
  concepts: string[];
  /** Head nouns used in product titles. */
  titleNouns: string[];
  /** Title modifiers (before the head noun). */
  modifiers: string[];
  /** Title attachments (after the head noun). */
  extras: string[];
  /** Title suffixes (colour, size, pack) that suit the category; half the titles take one. Empty: none. */
  attributes: string[];
  /** Why one buys it: `purchase —Reason→ event`. */
  reasons: string[];
  /** What follows: `purchase —Result→ event` (the first also as Precedence). */
  results: string[];
}

export interface DemoIntention {
  relation: string;
  /** The clause after "because " (assertions end with a period unless the clause has one). */
  clause: string;
}

/** A co-buy intention and the category pairs (by noun, either order) it is plausible for. */
export interface DemoPairedIntention extends DemoIntention {
  /** Absent: any two categories of the cluster. */
  pairs?: Array<[string, string]>;
}

export interface DemoCluster {
  name: string;
  /** A cluster-level purchase object (e.g. "jewelry"), matched by broad concept phrases. */
  clusterNoun: string;
  /** Events shared by every category of the cluster (Co_Occurrence / Conjunction). */
  shared: string[];
  /** Edges among the cluster's events, [head, sense, tail]. */
  chains: Array<[string, string, string]>;
  categories: DemoCategory[];
  /** Co-buy intentions for pairs inside the cluster. */
  intentions: DemoPairedIntention[];
}

/** The whole of demo-world.json. */
export interface DemoWorldData {
  /** Every intention template is prefixed with this (FolkScope's assertion form). */
  assertionPrefix: string;
  hubs: {
    /** `hub —Precedence→ purchase`: "PersonX go to the store. Then, PersonX buy a phone." */
    before: string;
    /** `purchase —Condition→ hub`: "Only when PersonX have money, PersonX buy a phone." */
    condition: string;
    /** `purchase —Result→ hub`: "If PersonX buy a phone, then PersonX be happy." */
    after: string;
  };
  /** Purchase nodes and events with no edges at all. */
  isolated: string[];
  /** Categories whose only purchase node is isolated: their products match but have no context. */
  isolatedCategories: DemoCategory[];
  /** Near-neighbour pairs (by noun): similar words, different contexts, [noun, sense, noun]. */
  nearNeighbours: Array<[string, string, string]>;
  /** Events shared across clusters (bridges), [event, cluster names]. */
  bridges: Array<[string, string[]]>;
  /** Brand names that start product titles. */
  brands: string[];
  clusters: DemoCluster[];
  /** Intentions for pairs across clusters that share a bridge event: [noun of the first cluster, noun of the second]. */
  crossIntentions: Array<{ clusters: [string, string]; intention: DemoIntention; pairs: Array<[string, string]> }>;
  /** The co-buy intention of the isolated categories' products, and the category nouns they are bought with. */
  isolatedCoBuys: { intention: DemoIntention; partners: string[] };
}
