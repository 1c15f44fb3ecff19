import { describe, expect, it } from 'vitest';
import { analyze, durationEquivalents, numbersAsDigits, queryWords, words } from './analyze.js';
import { queryTerms } from './query.js';

describe('the one normaliser', () => {
  it('reads joined words whole and by their parts, so stand-up finds standup and e-mail finds email', () => {
    expect(analyze('stand-up')).toEqual(expect.arrayContaining(['standup', 'stand']));
    expect(analyze('e-mail')).toEqual(expect.arrayContaining(['email']));
    expect(analyze('standup')).toEqual(['standup']);
  });

  it('stems, folds case and accents, and drops stop words', () => {
    expect(analyze('The Configured Cafés')).toEqual(analyze('configure cafe'));
  });

  it('reads numbers written as words as digits, with tens, scales and thousands separators', () => {
    expect(numbersAsDigits(words('twenty five'))).toEqual(['25']);
    expect(numbersAsDigits(words('two hundred dollars'))).toEqual(['200', 'dollars']);
    expect(numbersAsDigits(words('half an hour'))).toEqual(['0.5', 'hour']);
    expect(numbersAsDigits(words('a week'))).toEqual(['1', 'week']);
    expect(numbersAsDigits(words('a review'))).toEqual(['a', 'review']);
    expect(analyze('4k')).toEqual(analyze('4,000'));
  });

  it('says a duration also in the units the docs may use', () => {
    const equivalents = durationEquivalents(numbersAsDigits(words('two months'))).map(({ equivalent }) =>
      equivalent.join(' '),
    );
    expect(equivalents).toContain('60 days');
    const hours = durationEquivalents(words('72 hours')).map(({ equivalent }) => equivalent.join(' '));
    expect(hours).toContain('3 days');
  });

  it('decodes URL escapes of a pasted link, printable ones only', () => {
    expect(words('npm/@acme%2fcore')).toContain('acme/core');
    expect(words('50%25 off')).toEqual(['50', 'off']);
  });
});

describe('queryTerms', () => {
  const known = new Set(['rollback', 'roll', 'back', '60', 'dai', 'polici']);
  const knows = (term: string) => known.has(term);

  it('adds a joined form the docs use, standing for both words', () => {
    const rollback = queryTerms('roll back', knows).find((term) => term.term === 'rollback');
    expect(rollback).toMatchObject({ expansion: true, covers: ['roll', 'back'] });
  });

  it("reads a contraction's tail as nothing, never as a word of the question, and keeps n't as written", () => {
    const terms = (question: string) =>
      queryTerms(question, () => true)
        .filter((term) => !term.expansion)
        .map((term) => term.term);
    expect(terms("they're deleted")).toEqual(['delet']);
    expect(terms("we've deployed, I'll roll back, you’d see, I'm out")).toEqual(['deploi', 'roll', 'back', 'see']);
    expect(queryTerms("couldn't load", () => true).map((term) => term.term)).toContain('couldnt');
  });

  it('adds a duration in other units only when the docs use it', () => {
    const terms = queryTerms('two months', knows);
    expect(terms.find((term) => term.term === '60')).toMatchObject({ expansion: true, covers: ['2', 'month'] });
  });

  it('marks chat words as everyday and unknown names as foreign', () => {
    const terms = queryTerms('hey nobody knows kubernetes policy', knows);
    expect(terms.find((term) => term.term === 'hei')?.generic).toBe(true);
    expect(terms.find((term) => term.term === 'nobodi')?.generic).toBe(true);
    expect(terms.find((term) => term.term === 'kubernet')?.foreign).toBe(true);
    expect(terms.find((term) => term.term === 'polici')).toMatchObject({ generic: false, foreign: false });
  });

  it('reads a stop word with two letters swapped (waht, taht) as that word, not as a foreign name', () => {
    const terms = queryTerms('waht is the policy for kubernetes taht you have?', knows);
    expect(terms.map((term) => term.term)).toEqual(['polici', 'kubernet']);
    expect(terms.filter((term) => term.foreign).map((term) => term.term)).toEqual(['kubernet']);
    // A real word that is a swapped stop word (`form` for from) stays; so does one in capitals (a name).
    expect(queryTerms('form policy', knows).map((term) => term.term)).toContain('form');
    expect(queryTerms('the WAHT policy', knows).map((term) => term.term)).toContain('waht');
  });

  it('keeps three letters that swap into a stop word (aws for was): an abbreviation as often as a slip', () => {
    const terms = queryTerms('how do we deploy to aws?', knows);
    expect(terms.find((term) => term.term === 'aw' || term.term === 'aws')?.foreign).toBe(true);
  });

  it("takes the reader's own names and numbers as optional: they count only where a section holds them", () => {
    const terms = queryTerms('why does syncOrders_v2 skip "Gift Cards" on shop-9.myshopify.com after 60 days', knows);
    const optional = terms.filter((term) => term.optional && !term.expansion).map((term) => term.term);
    expect(optional).toEqual(['syncord', 'v2', 'gift', 'card', 'shop', '9', 'myshopifi', 'com', '60']);
    // Words of the question itself still count, known to the docs or not.
    expect(terms.filter((term) => !term.optional).map((term) => term.term)).toEqual(
      expect.arrayContaining(['skip', 'dai']),
    );
    expect(terms.some((term) => term.foreign)).toBe(false);
  });

  it("takes the words of a URL as the reader's own and everyday: optional, and ranked for less", () => {
    const question = 'https://docs.example.com/policy-guide: why is my policy off, as www.kubernetes.io/rollback says?';
    const terms = queryTerms(question, knows);
    const kindOf = (term: string) => terms.find((each) => each.term === term && !each.expansion);
    for (const term of ['http', 'doc', 'exampl', 'com', 'rollback', 'guid', 'www', 'kubernet', 'io']) {
      expect(kindOf(term), term).toMatchObject({ optional: true, generic: true, foreign: false });
    }
    // A word the question also says outside its URLs is asked, wherever it came first.
    expect(kindOf('polici')).toMatchObject({ optional: false, generic: false });
    expect(kindOf('off')).toMatchObject({ generic: true });
    expect(queryTerms('why is my rollback off', knows).find((term) => term.term === 'rollback')).toMatchObject({
      optional: false,
      generic: false,
    });
  });

  it("takes a runtime error's class as the reader's own, never a foreign name: it counts only where a section holds it", () => {
    const terms = queryTerms('ReferenceError: __dirname is not defined, then a ShopUninstalledError', knows);
    for (const term of ['referenceerror', 'shopuninstallederror']) {
      expect(
        terms.find((each) => each.term === term && !each.expansion),
        term,
      ).toMatchObject({
        optional: true,
        foreign: false,
      });
    }
    expect(terms.find((term) => term.term === 'dirnam')?.optional).toBe(false);
  });

  it('takes a dictionary word written with a capital inside a sentence as a product the docs do not name', () => {
    const terms = queryTerms('can we roll back on our Nomad cluster like a nomad would', knows);
    expect(terms.find((term) => term.term === 'nomad')).toMatchObject({ foreign: true, generic: false });
    expect(queryTerms('a nomad roll back', knows).find((term) => term.term === 'nomad')?.foreign).toBe(false);
  });

  it('corrects a word the docs do not use to the one they do', () => {
    const terms = queryTerms('polcy', knows, (word) => (word === 'polcy' ? 'polici' : undefined));
    expect(terms.map((term) => term.term)).toEqual(['polici']);
  });
});

describe('queryWords', () => {
  const progress = (count: number) =>
    Array.from(
      { length: count },
      (_, line) => `INF Registered tunnel connection connIndex=${line} location=sin0${line} protocol=quic`,
    );

  it('reads the lines of a long pasted log that report a failure first, so a failure at its end is read', () => {
    const log = [
      ...progress(14),
      'ERR Unable to reach the origin service error="dial tcp [::1]:3000: connect: connection refused"',
    ].join('\n');
    const read = queryWords(log);
    expect(read).toHaveLength(80);
    expect(read.slice(0, 6)).toEqual(['err', 'unable', 'to', 'reach', 'the', 'origin']);
    expect(read).toContain('refused');
  });

  it('reads a short question, or a paste within the words read, as written', () => {
    const short = [...progress(2), 'ERR connection refused'].join('\n');
    expect(queryWords(short)[0]).toBe('inf');
    expect(queryWords('why is my tunnel down?')).toEqual(['why', 'is', 'my', 'tunnel', 'down']);
  });
});
