// The sample SessionIntentBench input shipped in examples/sib/ (sessions, annotations, catalogue),
// built from hand-written content. It feeds the README, the demo and the tests; a test checks that
// the files in examples/sib/ are exactly what this module builds.
//
// Tree shape, after the paper's: a single root at step 1, five children per node for the products
// before the fifth one (nodes at steps 1–3 have five children each, at steps 2–4), and a single
// child per node from the fifth product on. Node ids spell the path: "n1.3.2" is the second child
// of the third child of the root. The content of a node depends on its step and its branch number
// (the last digit); from step 5 on, where there is one child, on the branch number at step 4.
import { writeFileAtomic } from '../../core/atomic.js';
import { join } from 'node:path';
import { SAMPLE_CATALOG } from './sib-sample-catalog.js';

interface Candidate {
  intention: string;
  attribute: string;
  rationale: string;
  /** Comparison of the previous product with this one (null at step 1). */
  comparison: string | null;
}

interface SampleSession {
  session_id: string;
  products: Array<{ id: string; title: string; attributes: Record<string, string>; category: string }>;
  /** candidates[s-1]: the candidates at step s (one at step 1, five after). */
  candidates: Candidate[][];
}

const c = (intention: string, attribute: string, rationale: string, comparison: string | null): Candidate => ({
  intention,
  attribute,
  rationale,
  comparison,
});

const SESSIONS: SampleSession[] = [
  {
    session_id: 'skincare-01',
    products: [
      {
        id: 'B0SK001',
        title: 'Glowbar Gentle Foaming Facial Cleanser, 8 fl oz',
        attributes: { brand: 'Glowbar', 'skin type': 'sensitive', scent: 'fragrance-free', size: '8 fl oz' },
        category: 'Beauty > Skin Care > Face Cleansers',
      },
      {
        id: 'B0SK002',
        title: 'Dermalux Ceramide Night Repair Moisturizer, 1.7 oz',
        attributes: { brand: 'Dermalux', 'key ingredient': 'ceramides', texture: 'rich cream', use: 'night' },
        category: 'Beauty > Skin Care > Face Moisturizers',
      },
      {
        id: 'B0SK003',
        title: 'SunVeil Mineral Sunscreen SPF 50, Tinted',
        attributes: { brand: 'SunVeil', SPF: '50', filter: 'zinc oxide', finish: 'tinted matte' },
        category: 'Beauty > Skin Care > Sunscreens',
      },
    ],
    candidates: [
      [
        c(
          'Building a gentle daily skincare routine for sensitive skin',
          'Fragrance-free formula',
          'The customer starts with a mild cleanser labelled for sensitive skin.',
          null,
        ),
      ],
      [
        c(
          'Repairing the skin barrier overnight',
          'Ceramide-rich formula',
          'After cleansing, the customer looks for a product that restores moisture during sleep.',
          'The cleanser only removes dirt, while the ceramide moisturizer actively rebuilds the skin barrier during the night.',
        ),
        c(
          'Treating dryness caused by daily cleansing',
          'Rich cream texture',
          'Washing twice a day leaves the skin tight, so a richer cream is needed.',
          'Foaming cleansers can leave skin tight; the rich night cream replaces the lipids that washing removes.',
        ),
        c(
          'Completing a two-step evening routine in one order',
          'Night-time use',
          'The customer wants the whole evening routine from one shopping trip.',
          'The cleanser is the first step of the evening routine and the night moisturizer is the natural second step.',
        ),
        c(
          'Finding products that suit sensitive skin',
          'Dermatologist-tested',
          'Sensitive skin reacts to many creams, so tested products are safer.',
          'Both products avoid fragrance, but the moisturizer adds soothing ceramides that the cleanser lacks.',
        ),
        c(
          'Trying a premium brand after a budget cleanser',
          'Brand reputation',
          'With the basic step covered cheaply, the customer is willing to spend on a specialist cream.',
          'The cleanser is an inexpensive basic, whereas the Dermalux cream is a higher-priced specialist product.',
        ),
      ],
      [
        c(
          'Protecting the skin during the day',
          'SPF 50 protection',
          'Repaired skin still needs protection from the sun in daytime.',
          'The night cream repairs skin while sleeping, while the sunscreen shields it from UV damage during the day.',
        ),
        c(
          'Covering redness without heavy makeup',
          'Tinted matte finish',
          'A tinted product hides redness and replaces foundation.',
          'The moisturizer has no coverage, whereas the tinted sunscreen evens out redness while protecting.',
        ),
        c(
          'Choosing mineral filters that sensitive skin tolerates',
          'Zinc oxide filter',
          'Chemical filters sting sensitive skin; mineral ones rarely do.',
          'Both are gentle, but the sunscreen uses zinc oxide, a mineral filter less likely to irritate than chemical filters.',
        ),
        c(
          'Preparing for an outdoor summer holiday',
          'High SPF',
          'A beach trip is coming and the customer needs strong protection.',
          'A night cream is of no use outdoors; a high-SPF sunscreen is what a beach trip requires.',
        ),
        c(
          'Completing the morning half of the routine',
          'Daytime use',
          'The evening routine is done, the morning one still lacks its last step.',
          'The moisturizer covers the evening routine; the sunscreen is the last step of the morning routine.',
        ),
      ],
    ],
  },
  {
    session_id: 'coffee-02',
    products: [
      {
        id: 'B0CF001',
        title: 'Brewcraft Burr Coffee Grinder, 40 Settings',
        attributes: { brand: 'Brewcraft', 'grind settings': '40', 'burr type': 'conical steel', capacity: '250 g' },
        category: 'Home & Kitchen > Coffee & Tea > Coffee Grinders',
      },
      {
        id: 'B0CF002',
        title: 'Kettleworks Gooseneck Electric Kettle, 1 L',
        attributes: { brand: 'Kettleworks', capacity: '1 L', 'temperature control': 'variable', spout: 'gooseneck' },
        category: 'Home & Kitchen > Coffee & Tea > Kettles',
      },
      {
        id: 'B0CF003',
        title: 'Pourwell Ceramic Pour-Over Dripper, Size 02',
        attributes: { brand: 'Pourwell', material: 'ceramic', size: '02', cups: '1-4' },
        category: 'Home & Kitchen > Coffee & Tea > Pour-Over Brewers',
      },
      {
        id: 'B0CF004',
        title: 'Highland Estate Single-Origin Whole Bean Coffee, 12 oz',
        attributes: { origin: 'Ethiopia', roast: 'light', form: 'whole bean', weight: '12 oz' },
        category: 'Grocery > Coffee > Whole Bean Coffee',
      },
    ],
    candidates: [
      [
        c(
          'Making better coffee at home',
          'Adjustable grind size',
          'A burr grinder is the usual first upgrade for home brewing.',
          null,
        ),
      ],
      [
        c(
          'Controlling water temperature for brewing',
          'Variable temperature control',
          'Freshly ground coffee is wasted with boiling water.',
          'The grinder sets the particle size, while the kettle controls the other key variable, water temperature.',
        ),
        c(
          'Setting up a pour-over station',
          'Gooseneck spout',
          'Pour-over needs a slow, precise stream of water.',
          'A grinder alone cannot brew; the gooseneck kettle allows the slow, precise pour that pour-over needs.',
        ),
        c(
          'Upgrading kitchen appliances',
          'Electric heating',
          'The customer is replacing old appliances one by one.',
          'Both are countertop appliances, but the kettle replaces a stovetop pot with faster electric heating.',
        ),
        c(
          'Brewing tea as well as coffee',
          'Temperature presets',
          'The household drinks both tea and coffee.',
          'The grinder serves only coffee, whereas a variable kettle also suits green and black tea.',
        ),
        c(
          'Buying a coffee gift set',
          'Matching design',
          'The products are meant as one gift and should look alike.',
          "The kettle shares the grinder's matte black finish, so the two make a coherent gift.",
        ),
      ],
      [
        c(
          'Brewing single cups by hand',
          '1-4 cup size',
          'The customer drinks one cup at a time and wants no machine.',
          'The kettle heats the water, and the dripper turns it into one fresh cup without a machine.',
        ),
        c(
          'Getting clean, bright flavours',
          'Ceramic heat retention',
          'Even extraction needs a steady brewing temperature.',
          'The kettle delivers the water, but the ceramic dripper keeps the brew temperature steady for even extraction.',
        ),
        c(
          'Avoiding plastic in the kitchen',
          'Ceramic material',
          'The customer prefers ceramic and steel to plastic.',
          'Both keep hot water away from plastic, and the dripper avoids the plastic baskets of drip machines.',
        ),
        c(
          'Completing the pour-over setup',
          'Standard 02 filter size',
          'Grinder and kettle are bought; the brewer is the missing piece.',
          'The gooseneck kettle is designed for pour-over, and the 02 dripper is the piece that was still missing.',
        ),
        c(
          'Saving counter space',
          'Compact size',
          'The kitchen is small and the counter is already full.',
          'The kettle already takes space; the dripper is small and fits in a cupboard, unlike a coffee machine.',
        ),
      ],
      [
        c(
          'Tasting specialty single-origin coffee',
          'Single-origin Ethiopian beans',
          'With the equipment complete, the customer wants coffee worth the effort.',
          'The dripper is equipment, while the Ethiopian beans are the specialty coffee the equipment was bought for.',
        ),
        c(
          'Grinding fresh beans for every cup',
          'Whole bean form',
          'Pre-ground coffee would make the burr grinder pointless.',
          'The dripper needs fresh grounds, and whole beans keep their aroma until ground in the burr grinder.',
        ),
        c(
          'Exploring light roasts',
          'Light roast',
          'Light roasts are said to shine in pour-over.',
          'Pour-over brewing brings out the floral notes of a light roast that a darker blend would hide.',
        ),
        c(
          'Restocking coffee supplies',
          '12 oz bag',
          'The customer needs something to brew with every week.',
          'The dripper is a one-time purchase, whereas a 12 oz bag of beans is a regular supply.',
        ),
        c(
          'Trying a coffee recommended with the dripper',
          'Recommended brew method',
          'The bag label recommends pour-over brewing.',
          "The bean's label recommends pour-over, so it pairs directly with the ceramic dripper.",
        ),
      ],
    ],
  },
  {
    session_id: 'running-03',
    products: [
      {
        id: 'B0RN001',
        title: "Stridemax Cushioned Road Running Shoes, Men's Size 10",
        attributes: { brand: 'Stridemax', cushioning: 'high', drop: '8 mm', surface: 'road' },
        category: 'Sports > Running > Running Shoes',
      },
      {
        id: 'B0RN002',
        title: 'Coolrun Moisture-Wicking Running Socks, 3 Pairs',
        attributes: { material: 'merino blend', height: 'quarter', pack: '3 pairs' },
        category: 'Sports > Running > Running Socks',
      },
      {
        id: 'B0RN003',
        title: 'Pacekeeper GPS Running Watch with Heart Rate',
        attributes: { brand: 'Pacekeeper', GPS: 'yes', battery: '14 days', sensor: 'wrist heart rate' },
        category: 'Sports > Running > Running Watches',
      },
      {
        id: 'B0RN004',
        title: 'Hydraflow Running Hydration Vest, 5 L',
        attributes: { capacity: '5 L', flasks: '2 x 500 ml', fit: 'unisex M' },
        category: 'Sports > Running > Hydration Packs',
      },
      {
        id: 'B0RN005',
        title: "Trailgrip Waterproof Trail Running Shoes, Men's Size 10",
        attributes: { brand: 'Trailgrip', lugs: '5 mm', membrane: 'waterproof', surface: 'trail' },
        category: 'Sports > Running > Running Shoes',
      },
      {
        id: 'B0RN006',
        title: 'Glowline Reflective Running Jacket, Lightweight',
        attributes: { visibility: '360-degree reflective', weight: '180 g', 'water resistance': 'light rain' },
        category: 'Sports > Running > Running Jackets',
      },
    ],
    candidates: [
      [
        c(
          'Starting to run regularly',
          'High cushioning',
          'Cushioned road shoes are the basic purchase of a new runner.',
          null,
        ),
      ],
      [
        c(
          'Avoiding blisters on longer runs',
          'Moisture-wicking merino blend',
          'Longer runs in cotton socks caused blisters.',
          'The shoes cushion impact, but only wicking socks keep feet dry enough to prevent blisters.',
        ),
        c(
          'Completing a basic running kit',
          'Multi-pair pack',
          'A new runner needs several pairs for a weekly routine.',
          'Shoes are the main item; a three-pack of socks covers the rest of a weekly running routine.',
        ),
        c(
          'Staying comfortable in cold weather',
          'Merino warmth',
          'Winter mornings are cold for a beginner.',
          'The shoes are breathable mesh, while merino socks add warmth on winter mornings.',
        ),
        c(
          'Improving shoe fit',
          'Quarter height',
          'The new shoes slip a little at the heel.',
          'Thin quarter-height socks let the size 10 shoes fit snugly without slipping at the heel.',
        ),
        c(
          'Buying running basics on a budget',
          'Low price per pair',
          'The shoes were expensive, the rest should not be.',
          'After an expensive pair of shoes, the socks are a cheap addition that still improves comfort.',
        ),
      ],
      [
        c(
          'Tracking pace and distance',
          'Built-in GPS',
          'The runner wants to see progress week by week.',
          'Socks improve comfort, but the GPS watch measures pace and distance to track progress.',
        ),
        c(
          'Training by heart rate zones',
          'Wrist heart-rate sensor',
          'A training plan prescribes heart-rate zones.',
          'Comfortable socks say nothing about effort, while the heart-rate watch shows which zone each run is in.',
        ),
        c(
          'Preparing for a first 10K race',
          'Race pacing features',
          'The runner signed up for a 10K.',
          'The socks help on race day, but the watch plans the training that leads up to it.',
        ),
        c(
          'Staying motivated with data',
          'Activity statistics',
          'Numbers keep a beginner going.',
          'Socks are a passive purchase; the watch gives weekly statistics that keep a beginner motivated.',
        ),
        c(
          'Running without carrying a phone',
          'Standalone GPS',
          'Holding a phone while running is awkward.',
          'Carrying a phone is awkward; a standalone GPS watch records the run without it, which socks cannot change.',
        ),
      ],
      [
        c(
          'Running longer distances',
          '5 L capacity',
          'Runs are getting longer than an hour.',
          'The watch tracks longer runs, and the hydration vest carries the water those runs require.',
        ),
        c(
          'Staying hydrated in summer heat',
          'Two 500 ml flasks',
          'Summer runs leave the runner dehydrated.',
          "The watch warns about a rising heart rate, but only the vest's two flasks let the runner drink on the way.",
        ),
        c(
          'Carrying a phone and keys hands-free',
          'Chest pockets',
          'Keys and phone bounce in shorts pockets.',
          'The watch removes the need to hold a phone, and the vest stores keys and phone without bouncing.',
        ),
        c(
          'Getting ready for trail running',
          'Trail-ready storage',
          'The runner wants to leave the roads for trails.',
          'The GPS watch navigates routes, and the vest carries the supplies that remote trails demand.',
        ),
        c(
          'Preparing for a half marathon',
          'Race-day fit',
          'A half marathon is the next goal.',
          'The watch paces the half marathon, while the close-fitting vest carries gels and water through 21 km.',
        ),
      ],
      [
        c(
          'Taking long runs off-road',
          'Waterproof membrane',
          'Long runs now lead onto wet paths.',
          'The vest supports long efforts, and the waterproof trail shoes keep feet dry on wet off-road paths.',
        ),
        c(
          'Running on shaded forest trails in summer',
          'Aggressive 5 mm lugs',
          'Forest trails are cooler than roads in summer.',
          'The vest keeps water close; the deep lugs grip the loose forest ground that road shoes slip on.',
        ),
        c(
          'Having a second pair of shoes for bad weather',
          'Waterproof membrane',
          'Road shoes get soaked on rainy days.',
          'The vest is weather-neutral, but the waterproof shoes replace the road shoes on rainy days.',
        ),
        c(
          'Starting trail running',
          'Trail-specific outsole',
          'The vest was bought with trails in mind.',
          'The vest was bought for trails, and trail shoes with lugs are the other essential for uneven terrain.',
        ),
        c(
          'Training on varied terrain before the race',
          'Versatile grip',
          'Hills and gravel build race strength.',
          'The vest covers race logistics, and the trail shoes add hill and gravel sessions that build strength.',
        ),
      ],
      [
        c(
          'Running safely in early morning darkness',
          '360-degree reflective details',
          'Winter runs start before sunrise.',
          'The trail shoes handle terrain, while the reflective jacket makes the runner visible on dark roads.',
        ),
        c(
          'Running through light rain',
          'Light rain resistance',
          'Drizzle should not cancel a run.',
          'The shoes are waterproof, and the jacket keeps the upper body dry in the same drizzle.',
        ),
        c(
          'Packing light layers for changing weather',
          '180 g weight',
          'Mountain weather changes quickly.',
          'The shoes are heavy trail footwear, whereas the 180 g jacket folds into the vest pocket.',
        ),
        c(
          'Staying warm on windy ridges',
          'Windproof shell',
          'Ridge trails are exposed to wind.',
          'The trail shoes grip the ridge path, and the jacket blocks the wind that chills a sweaty runner.',
        ),
        c(
          'Completing a full running wardrobe',
          'Lightweight running jacket',
          'Only an outer layer is still missing.',
          'With shoes for road and trail bought, an outer layer is the last missing piece of the kit.',
        ),
      ],
    ],
  },
];

/** Steps whose nodes branch five ways: the children at steps 2–4 (before the fifth product). */
const BRANCHING_STEPS_BEFORE = 5;

export interface SampleNode {
  id: string;
  parent: string | null;
  step: number;
  intention: string;
  attribute: string;
  rationale: string;
  comparison: string | null;
}

function buildTree(session: SampleSession): SampleNode[] {
  const nodes: SampleNode[] = [];
  const steps = session.products.length;
  // Depth-first, children in branch order, so that node order matches trajectory order.
  const visit = (id: string, parent: string | null, step: number, branches: number[]) => {
    // From step 5 on there is one child, whose content follows the step-4 branch.
    const branch = step === 1 ? 0 : step < BRANCHING_STEPS_BEFORE ? branches[step - 2]! : branches[2]!;
    const cand = session.candidates[step - 1]![branch]!;
    nodes.push({ id, parent, step, ...cand });
    if (step === steps) return;
    const fanOut = step + 1 < BRANCHING_STEPS_BEFORE ? 5 : 1;
    for (let b = 0; b < fanOut; b++) visit(`${id}.${b + 1}`, id, step + 1, fanOut === 5 ? [...branches, b] : branches);
  };
  visit('n1', null, 1, []);
  return nodes;
}

/** Sessions JSONL lines of the sample. */
export function sampleSessionLines(): string[] {
  return SESSIONS.map((s) => JSON.stringify({ session_id: s.session_id, products: s.products, tree: buildTree(s) }));
}

/** Annotations of the sample: gold letters, a clear majority, and two ties (one with an agreed binary label). */
export const SAMPLE_ANNOTATIONS: ReadonlyArray<Record<string, unknown>> = [
  { session_id: 'skincare-01', leaf_id: 'n1.1.1', task: 1, answer: 'A' },
  { session_id: 'skincare-01', leaf_id: 'n1.1.1', task: 2, votes: ['A', 'B', 'A'] },
  { session_id: 'skincare-01', leaf_id: 'n1.1.1', task: 3, votes: ['B', 'C', 'B'] },
  { session_id: 'skincare-01', leaf_id: 'n1.1.1', task: 4, answer: 'C' },
  { session_id: 'skincare-01', leaf_id: 'n1.4.3', task: 1, votes: ['A', 'B'] },
  { session_id: 'skincare-01', leaf_id: 'n1.5.4', task: 3, votes: ['B', 'C'] },
  { session_id: 'coffee-02', leaf_id: 'n1.2.4.2', task: 1, answer: 'A' },
  { session_id: 'coffee-02', leaf_id: 'n1.2.4.2', task: 4, votes: ['B', 'B', 'A'] },
  { session_id: 'running-03', leaf_id: 'n1.1.1.1.1.1', task: 2, answer: 'B' },
  { session_id: 'running-03', leaf_id: 'n1.5.3.5.1.1', task: 1, votes: ['D', 'D', 'C'] },
];

export { SAMPLE_CATALOG } from './sib-sample-catalog.js';

/** Writes sessions.jsonl, annotations.jsonl and catalog.jsonl (the content of examples/sib/). */
export async function writeSampleFiles(
  dir: string,
): Promise<{ sessions: string; annotations: string; catalog: string }> {
  const paths = {
    sessions: join(dir, 'sessions.jsonl'),
    annotations: join(dir, 'annotations.jsonl'),
    catalog: join(dir, 'catalog.jsonl'),
  };
  const lines = (rows: ReadonlyArray<unknown>) => rows.map((r) => JSON.stringify(r)).join('\n') + '\n';
  await writeFileAtomic(paths.sessions, sampleSessionLines().join('\n') + '\n');
  await writeFileAtomic(paths.annotations, lines(SAMPLE_ANNOTATIONS));
  await writeFileAtomic(paths.catalog, lines(SAMPLE_CATALOG));
  return paths;
}
