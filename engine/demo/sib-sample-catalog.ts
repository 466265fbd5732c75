// The distractor catalogue of the sample SessionIntentBench sessions (examples/sib/catalog.jsonl):
// products that may replace P_t or stand beside it as a next-product option. Built so that hard
// negatives exist: each session's products have neighbouring categories (same parent path) holding
// products that are related and wrong for most of the session's intentions, a few products that do
// serve an intention (and that the serve rules must refuse: the sport sunscreen, the ceramide serum,
// the cream cleanser for dry skin, the headlamp for dark mornings, the phone armband, the fleece
// gloves for cold weather), and far
// products of other departments. What a product is for is written where a catalogue writes it: in
// its title or its attributes.
//
// Categories are paths, broadest first (serve-rules.ts): the sessions' products carry them too.

export interface SampleCatalogProduct {
  id: string;
  title: string;
  attributes: Record<string, string>;
  category: string;
}

const SKIN = 'Beauty > Skin Care';
const COFFEE = 'Home & Kitchen > Coffee & Tea';
const BEANS = 'Grocery > Coffee';
const RUN = 'Sports > Running';

const p = (id: string, title: string, attributes: Record<string, string>, category: string): SampleCatalogProduct => ({
  id,
  title,
  attributes,
  category,
});

export const SAMPLE_CATALOG: readonly SampleCatalogProduct[] = [
  p(
    'C001',
    'Purelle Hydrating Cream Cleanser for Dry Skin, 6 fl oz',
    { 'skin type': 'dry', scent: 'unscented' },
    `${SKIN} > Face Cleansers`,
  ),
  p(
    'C002',
    'Dermalux Hyaluronic Day Moisturizer SPF 15, 1.7 oz',
    { 'key ingredient': 'hyaluronic acid', use: 'day' },
    `${SKIN} > Face Moisturizers`,
  ),
  p('C003', 'Aqualeaf Soothing Aloe Night Gel, 2 oz', { texture: 'gel', use: 'night' }, `${SKIN} > Face Moisturizers`),
  p('C004', 'SunVeil Sport Sunscreen Spray SPF 30', { SPF: '30', format: 'spray' }, `${SKIN} > Sunscreens`),
  p(
    'C005',
    'Clearview Salicylic Acid Acne Spot Treatment',
    { 'key ingredient': 'salicylic acid', use: 'blemishes' },
    `${SKIN} > Acne Treatments`,
  ),
  p('C006', 'Velvet Rose Perfumed Body Lotion, 16 oz', { scent: 'rose', size: '16 oz' }, `${SKIN} > Body Lotions`),
  p('C007', 'Mineralis Tinted Moisturizer SPF 30, Light', { SPF: '30', finish: 'dewy' }, `${SKIN} > Sunscreens`),
  p(
    'C008',
    'Glowbar Micellar Cleansing Water, 13.5 fl oz',
    { 'skin type': 'all', scent: 'fragrance-free' },
    `${SKIN} > Face Cleansers`,
  ),
  p(
    'C009',
    'Barrier Boost Ceramide Face Serum, 1 oz',
    { 'key ingredient': 'ceramides', texture: 'serum' },
    `${SKIN} > Face Serums`,
  ),
  p(
    'C010',
    'Nightshift Retinol Anti-Aging Cream, 1.7 oz',
    { 'key ingredient': 'retinol', use: 'night' },
    `${SKIN} > Face Moisturizers`,
  ),
  p(
    'C041',
    'Brightline Vitamin C Brightening Serum, 1 oz',
    { 'key ingredient': 'vitamin C', concern: 'dull tone' },
    `${SKIN} > Face Serums`,
  ),
  p(
    'C042',
    'Poreless Witch Hazel Toner, 8 fl oz',
    { 'key ingredient': 'witch hazel', concern: 'large pores' },
    `${SKIN} > Toners`,
  ),
  p(
    'C043',
    'Kaolin Clay Purifying Face Mask, 3.4 oz',
    { 'key ingredient': 'kaolin clay', concern: 'oily skin' },
    `${SKIN} > Face Masks`,
  ),
  p(
    'C044',
    'Caffeine Eye Cream for Puffiness, 0.5 oz',
    { 'key ingredient': 'caffeine', area: 'under eyes' },
    `${SKIN} > Eye Creams`,
  ),
  p(
    'C045',
    'Glycolic Acid Exfoliating Pads, 60 Count',
    { 'key ingredient': 'glycolic acid', concern: 'uneven texture' },
    `${SKIN} > Exfoliators`,
  ),
  p(
    'C046',
    'Coconut Lime Scented Body Scrub, 10 oz',
    { scent: 'coconut lime', texture: 'sugar scrub' },
    `${SKIN} > Body Scrubs`,
  ),
  p('C047', 'Matte Oil-Control Primer, 1 oz', { finish: 'matte', concern: 'shine' }, `${SKIN} > Face Primers`),

  p(
    'C011',
    'Brewcraft Electric Blade Coffee Grinder',
    { 'burr type': 'blade', capacity: '70 g' },
    `${COFFEE} > Coffee Grinders`,
  ),
  p(
    'C012',
    'Kettleworks Stovetop Whistling Kettle, 2 L',
    { capacity: '2 L', heating: 'stovetop' },
    `${COFFEE} > Kettles`,
  ),
  p(
    'C013',
    'Pourwell Glass Pour-Over Coffee Maker, 6 Cup',
    { material: 'glass', cups: '6' },
    `${COFFEE} > Pour-Over Brewers`,
  ),
  p(
    'C014',
    'Unbleached Paper Coffee Filters, Size 02, 100 Count',
    { size: '02', count: '100' },
    `${COFFEE} > Coffee Filters`,
  ),
  p(
    'C015',
    'Highland Estate Dark Roast Ground Coffee, 12 oz',
    { roast: 'dark', form: 'ground' },
    `${BEANS} > Ground Coffee`,
  ),
  p(
    'C016',
    'Colombian Medium Roast Whole Bean Coffee, 2 lb',
    { origin: 'Colombia', roast: 'medium' },
    `${BEANS} > Whole Bean Coffee`,
  ),
  p(
    'C017',
    'Digital Coffee Scale with Timer, 0.1 g',
    { precision: '0.1 g', timer: 'yes' },
    `${COFFEE} > Coffee Scales`,
  ),
  p(
    'C018',
    'Stainless Steel French Press, 34 oz',
    { material: 'stainless steel', capacity: '34 oz' },
    `${COFFEE} > Coffee Presses`,
  ),
  p(
    'C019',
    'Espresso Machine with Milk Frother, 15 Bar',
    { pressure: '15 bar', frother: 'yes' },
    `${COFFEE} > Espresso Machines`,
  ),
  p(
    'C020',
    'Loose Leaf Green Tea Sampler, 6 Varieties',
    { type: 'green tea', count: '6' },
    'Grocery > Tea > Loose Leaf Tea',
  ),
  p(
    'C048',
    'Handheld Milk Frother, Battery Powered',
    { power: 'AA batteries', use: 'lattes' },
    `${COFFEE} > Milk Frothers`,
  ),
  p('C049', 'Stoneware Coffee Mug Set, 4 x 12 oz', { material: 'stoneware', count: '4' }, `${COFFEE} > Coffee Mugs`),
  p(
    'C050',
    'Drip Coffee Maker with Glass Carafe, 12 Cup',
    { cups: '12', carafe: 'glass' },
    `${COFFEE} > Drip Coffee Makers`,
  ),
  p(
    'C051',
    'Vanilla Hazelnut Coffee Creamer Pods, 24 Count',
    { flavor: 'vanilla hazelnut', count: '24' },
    `${BEANS} > Coffee Creamers`,
  ),
  p('C052', 'Classic Instant Coffee Granules, 7 oz', { form: 'instant', roast: 'medium' }, `${BEANS} > Instant Coffee`),
  p('C053', 'Descaling Solution for Coffee Machines, 2 Uses', { use: 'descaling' }, `${COFFEE} > Coffee Machine Care`),
  p(
    'C061',
    'Decaf Coffee Pods for Single-Serve Machines, 24 Count',
    { form: 'pods', caffeine: 'decaf' },
    `${BEANS} > Coffee Pods`,
  ),
  p(
    'C062',
    'Cold Brew Coffee Concentrate, 32 oz',
    { form: 'liquid concentrate', serving: 'cold' },
    `${BEANS} > Cold Brew`,
  ),
  p(
    'C063',
    'Caramel and Vanilla Coffee Syrup Set, 2 x 750 ml',
    { flavor: 'caramel, vanilla' },
    `${BEANS} > Coffee Syrups`,
  ),

  p(
    'C021',
    "Stridemax Lightweight Racing Flats, Men's Size 10",
    { cushioning: 'low', surface: 'road' },
    `${RUN} > Running Shoes`,
  ),
  p('C022', 'Coolrun Cotton Crew Socks, 6 Pairs', { material: 'cotton', height: 'crew' }, `${RUN} > Running Socks`),
  p(
    'C023',
    'Pacekeeper Fitness Tracker Band with Sleep Tracking',
    { GPS: 'no', sensor: 'wrist heart rate' },
    `${RUN} > Running Watches`,
  ),
  p('C024', 'Chest Strap Heart Rate Monitor, Bluetooth', { sensor: 'chest strap' }, `${RUN} > Heart Rate Monitors`),
  p('C025', 'Hydraflow Running Belt with Two Bottles', { capacity: '2 x 250 ml' }, `${RUN} > Hydration Packs`),
  p('C026', 'Treadmill Belt Lubricant, 4 oz', { use: 'treadmill maintenance' }, `${RUN} > Treadmill Care`),
  p(
    'C027',
    "Trailgrip Hiking Boots, Men's Size 10",
    { membrane: 'waterproof', surface: 'trail' },
    'Sports > Hiking > Hiking Boots',
  ),
  p(
    'C028',
    'Glowline Reflective Safety Vest for Runners in the Dark',
    { visibility: 'reflective', use: 'dark mornings and evenings' },
    `${RUN} > Running Safety Gear`,
  ),
  p(
    'C029',
    'Rechargeable LED Running Headlamp for Dark Mornings, 300 Lumens',
    { brightness: '300 lumens' },
    `${RUN} > Running Safety Gear`,
  ),
  p('C030', 'Compression Running Tights for Men', { fit: 'compression', length: 'full' }, `${RUN} > Running Tights`),
  p('C031', 'Foam Roller for Muscle Recovery, 18 Inch', { length: '18 in' }, 'Sports > Fitness > Recovery'),
  p('C032', 'Energy Gels for Endurance Running, 12 Pack', { count: '12' }, 'Sports > Nutrition > Energy Gels'),
  p(
    'C033',
    'Fleece-Lined Running Gloves for Cold Weather',
    { touchscreen: 'yes', warmth: 'fleece-lined' },
    `${RUN} > Running Gloves`,
  ),
  p('C054', 'Running Armband Phone Holder', { fits: 'phones up to 6.7 in' }, `${RUN} > Running Phone Holders`),
  p('C055', 'Breathable Running Cap with Sun Visor', { material: 'polyester mesh' }, `${RUN} > Running Hats`),
  p('C056', 'Elastic No-Tie Shoe Laces, 2 Pairs', { material: 'elastic' }, `${RUN} > Shoe Accessories`),
  p(
    'C060',
    'Lightweight Windbreaker Running Jacket, Unlined',
    { shell: 'nylon windbreaker', lining: 'none' },
    `${RUN} > Running Jackets`,
  ),
  p('C057', 'Sports Sunglasses, Polarized', { lens: 'polarized' }, `${RUN} > Running Eyewear`),
  p('C058', 'Running Shorts with Liner, 5 Inch', { inseam: '5 in', liner: 'yes' }, `${RUN} > Running Shorts`),
  p('C059', 'Shoe Deodorizer Spray, 4 oz', { use: 'odor' }, `${RUN} > Shoe Care`),

  p(
    'C034',
    'Cast Iron Skillet, 12 Inch, Pre-Seasoned',
    { material: 'cast iron' },
    'Home & Kitchen > Cookware > Skillets',
  ),
  p('C035', 'Wireless Noise-Cancelling Headphones', { battery: '30 h' }, 'Electronics > Audio > Headphones'),
  p('C036', 'Hardcover Notebook, Dotted, A5', { size: 'A5' }, 'Office > Paper > Notebooks'),
  p('C037', 'LED Desk Lamp with USB Charging Port', { power: 'USB' }, 'Home & Kitchen > Lighting > Desk Lamps'),
  p(
    'C038',
    'Organic Cotton Bath Towel Set, 4 Pieces',
    { material: 'organic cotton' },
    'Home & Kitchen > Bath > Towels',
  ),
  p('C039', 'Kids Building Blocks Set, 500 Pieces', { age: '4+' }, 'Toys > Building > Blocks'),
  p(
    'C040',
    'Stainless Steel Insulated Water Bottle, 750 ml',
    { capacity: '750 ml' },
    'Home & Kitchen > Drinkware > Water Bottles',
  ),
];
