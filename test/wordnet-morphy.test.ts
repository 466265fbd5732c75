import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { projectRoot, sharedDir } from '../core/shared-files.js';
import {
  lemmatizeNoun,
  morphyNoun,
  parseExceptions,
  wordNet30Nouns,
  type WordNetNouns,
} from '../engine/products/wordnet-morphy.js';

/** A hand-made dictionary: the rules and the choice are checked on inputs small enough to verify by eye. */
function tinyWordNet(lemmas: string[], exceptions: Record<string, string[]> = {}): WordNetNouns {
  return { lemmas: new Set(lemmas), exceptions: new Map(Object.entries(exceptions)) };
}

describe('morphyNoun and lemmatizeNoun follow NLTK step by step (hand-made dictionaries)', () => {
  it('keeps the word and every one-step detachment that is a lemma, in rule order', () => {
    const wn = tinyWordNet(['lenses', 'lense', 'lens', 'box', 'wolf', 'church', 'fireman', 'battery', 'buzz', 'dish']);
    // s→'' then ses→s; the word itself comes first.
    expect(morphyNoun('lenses', wn)).toEqual(['lenses', 'lense', 'lens']);
    expect(morphyNoun('boxes', wn)).toEqual(['box']);
    expect(morphyNoun('wolves', wn)).toEqual(['wolf']);
    expect(morphyNoun('churches', wn)).toEqual(['church']);
    expect(morphyNoun('firemen', wn)).toEqual(['fireman']);
    expect(morphyNoun('batteries', wn)).toEqual(['battery']);
    expect(morphyNoun('buzzes', wn)).toEqual(['buzz']);
    expect(morphyNoun('dishes', wn)).toEqual(['dish']);
    expect(lemmatizeNoun('lenses', wn)).toBe('lens');
  });

  it('detaches once only (NLTK ≥ 3.9): no second pass when the first finds nothing', () => {
    const wn = tinyWordNet(['ass', 'woman', 'cat']);
    expect(morphyNoun('assess', wn)).toEqual([]); // asses is no lemma; ass would need a second pass
    expect(lemmatizeNoun('womens', wn)).toBe('womens'); // women → woman would be a second pass
    expect(lemmatizeNoun('catss', wn)).toBe('catss');
  });

  it('an exception-listed word skips the suffix rules and keeps itself and its bases that are lemmas', () => {
    const wn = tinyWordNet(['cat', 'kat', 'teeth', 'tooth', 'datum'], {
      cats: ['kat'],
      teeth: ['tooth'],
      data: ['datum'],
    });
    expect(morphyNoun('cats', wn)).toEqual(['kat']); // not cat: the s rule is not tried
    expect(morphyNoun('teeth', wn)).toEqual(['teeth', 'tooth']);
    expect(lemmatizeNoun('data', wn)).toBe('datum'); // data is no lemma here
    expect(lemmatizeNoun('mice', wn)).toBe('mice'); // not listed, no rule applies, no lemma
  });

  it('answers the shortest, the first of equally short ones, and the word itself when nothing is kept', () => {
    expect(lemmatizeNoun('teeth', tinyWordNet(['teeth', 'tooth'], { teeth: ['tooth'] }))).toBe('teeth');
    expect(lemmatizeNoun('teeth', tinyWordNet(['tooth', 'teeth'], { teeth: ['tooth'] }))).toBe('teeth'); // set order is irrelevant
    expect(lemmatizeNoun('men', tinyWordNet(['men', 'man']))).toBe('men');
    expect(lemmatizeNoun('glasses', tinyWordNet(['glasses', 'glass']))).toBe('glass');
    expect(lemmatizeNoun('us', tinyWordNet(['us', 'u']))).toBe('u');
    expect(lemmatizeNoun('earbuds', tinyWordNet([]))).toBe('earbuds');
  });

  it('lists a candidate once', () => {
    expect(morphyNoun('xs', tinyWordNet(['xs', 'x'], { xs: ['xs', 'x', 'x'] }))).toEqual(['xs', 'x']);
  });

  it('parses noun.exc as NLTK does: fields split on whitespace, the last line of a repeated form wins', () => {
    const exceptions = parseExceptions('aurar eyir\nabaci abacus\naurar eyrir\nlarvae  larva\tlarvum\n', 'noun.exc');
    expect([...exceptions]).toEqual([
      ['aurar', ['eyrir']],
      ['abaci', ['abacus']],
      ['larvae', ['larva', 'larvum']],
    ]);
    expect(() => parseExceptions('abaci abacus\n\n', 'x/noun.exc')).toThrow('x/noun.exc:2: empty line');
  });
});

describe("the committed WordNet 3.0 noun data gives NLTK's answers", () => {
  it('is WordNet 3.0: 117,798 noun lemmas, 2,054 noun.exc lines for 2,050 forms (3.1 has 117,953 lemmas)', () => {
    const wn = wordNet30Nouns();
    expect(wn.lemmas.size).toBe(117_798);
    expect(wn.exceptions.size).toBe(2_050);
    expect(wn.lemmas.has('biker')).toBe(false); // a 3.1 addition
  });

  // NLTK 3.10's WordNetLemmatizer().lemmatize(word) for these words (from ../shared's reference).
  const pinned: Array<[string, string]> = [
    ['lenses', 'lens'], // wink-lemmatizer: lense
    ['teeth', 'teeth'], // wink: tooth (teeth is a noun lemma too and is as short)
    ['men', 'men'], // wink: man
    ['data', 'data'], // wink: datum
    ['tvs', 'tv'], // wink: tvs
    ['pcs', 'pc'], // wink: pcs
    ['abs', 'ab'],
    ['us', 'u'],
    ['cases', 'case'],
    ['batteries', 'battery'],
    ['watches', 'watch'],
    ['leaves', 'leaf'],
    ['glasses', 'glass'],
    ['sunglasses', 'sunglass'],
    ['accessories', 'accessory'],
    ['mice', 'mouse'],
    ['feet', 'foot'],
    ['children', 'child'],
    ['women', 'woman'],
    ['mens', 'men'],
    ['womens', 'womens'],
    ['assess', 'assess'],
    ['series', 'series'],
    ['species', 'specie'],
    ['jeans', 'jean'],
    ['clothes', 'clothes'],
    ['earbuds', 'earbuds'],
  ];
  for (const [word, nltk] of pinned) it(`${word} → ${nltk}`, () => expect(lemmatizeNoun(word)).toBe(nltk));

  it('follows the last noun.exc line of a repeated form (aurar: eyir, then eyrir) and is safe on Object member names', () => {
    expect(lemmatizeNoun('aurar')).toBe('eyrir');
    expect(lemmatizeNoun('constructors')).toBe('constructor');
    expect(lemmatizeNoun('hasownproperty')).toBe('hasownproperty');
    expect(lemmatizeNoun('__proto__')).toBe('__proto__');
  });
});

const REFERENCE = join(sharedDir(), 'data', 'wordnet', 'nltk-lemmas.tsv');
const haveReference = existsSync(REFERENCE);
if (!haveReference)
  console.warn(`SKIPPED: the comparison with NLTK's lemmas for 13,183 words (${REFERENCE} is absent)`);

describe.skipIf(!haveReference)("lemmatizeNoun equals NLTK 3.10's WordNetLemmatizer on the reference words", () => {
  it('0 differences', () => {
    const rows = readFileSync(REFERENCE, 'utf8').trimEnd().split('\n').slice(1);
    expect(rows.length).toBeGreaterThan(13_000);
    const differences = rows
      .map((row) => row.split('\t') as [string, string])
      .filter(([word, nltk]) => lemmatizeNoun(word) !== nltk)
      .map(([word, nltk]) => `${word}: NLTK ${nltk}, here ${lemmatizeNoun(word)}`);
    expect(differences).toEqual([]);
  });
});

describe('scripts/build-wordnet-nouns.mjs', () => {
  const script = join(projectRoot(), 'scripts', 'build-wordnet-nouns.mjs');
  const scratch = mkdtempSync(join(tmpdir(), 'intentsim-wordnet-'));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  function licenceHeader(version: string): string {
    return [`This software and database`, '', `WordNet ${version} Copyright by Princeton University.`]
      .map((line, i) => `  ${i + 1} ${line}  \n`)
      .join('');
  }

  it('takes the first field of every data line of index.noun, copies noun.exc, and the licence without line numbers', () => {
    const dict = join(scratch, 'dict');
    const out = join(scratch, 'out');
    mkdirSync(dict);
    writeFileSync(
      join(dict, 'index.noun'),
      licenceHeader('3.0') + "'hood n 1 2 @ ; 1 0 08641944  \nlens n 2 3 @ ~ + 2 0 1 2  \nlenses n 1 1 @ 1 0 3  \n",
    );
    writeFileSync(join(dict, 'noun.exc'), 'teeth tooth\n');
    const run = spawnSync('node', [script, dict, out], { encoding: 'utf8' });
    expect(run.status, run.stderr).toBe(0);
    expect(gunzipSync(readFileSync(join(out, 'noun-lemmas.txt.gz'))).toString()).toBe("'hood\nlens\nlenses\n");
    expect(readFileSync(join(out, 'noun.exc'), 'utf8')).toBe('teeth tooth\n');
    expect(readFileSync(join(out, 'LICENSE'), 'utf8')).toBe(
      'This software and database  \n  \nWordNet 3.0 Copyright by Princeton University.  \n',
    );
  });

  it('refuses another WordNet version', () => {
    const dict = join(scratch, 'dict31');
    mkdirSync(dict);
    writeFileSync(join(dict, 'index.noun'), licenceHeader('3.1') + 'lens n 1 1 @ 1 0 1  \n');
    writeFileSync(join(dict, 'noun.exc'), '');
    const run = spawnSync('node', [script, dict, join(scratch, 'out31')], { encoding: 'utf8' });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('not WordNet 3.0');
  });

  // The committed files from the real Debian files (wordnet-base's /usr/share/wordnet, or
  // WORDNET_DICT_DIR): compared after decompression, since gzip bytes may vary with the zlib version.
  const debianDict = process.env.WORDNET_DICT_DIR ?? '/usr/share/wordnet';
  const haveDebian = existsSync(join(debianDict, 'index.noun'));
  if (!haveDebian)
    console.warn(`SKIPPED: regenerating engine/products/wordnet-3.0 (no WordNet 3.0 dictionary in ${debianDict})`);
  it.skipIf(!haveDebian)(`regenerates the committed engine/products/wordnet-3.0 from ${debianDict}`, () => {
    const out = join(scratch, 'debian');
    const run = spawnSync('node', [script, debianDict, out], { encoding: 'utf8' });
    expect(run.status, run.stderr).toBe(0);
    const committed = join(projectRoot(), 'engine', 'products', 'wordnet-3.0');
    const lemmas = (dir: string) => gunzipSync(readFileSync(join(dir, 'noun-lemmas.txt.gz'))).toString();
    expect(lemmas(out) === lemmas(committed)).toBe(true);
    for (const file of ['noun.exc', 'LICENSE'])
      expect(readFileSync(join(out, file)).equals(readFileSync(join(committed, file))), file).toBe(true);
  });
});
