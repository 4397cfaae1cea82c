import { describe, expect, it } from 'vitest';
import { CONFIG_KEYS } from '../../src/config/keys.js';
import { cardBrandFits, findPersonalData, luhnValid, ssnValid } from '../../workers/scan/personal-data.js';
import { scanText } from '../../workers/scan/scan-text.js';
import { cpuGrowth, GROWTH, GROWTH_LIMIT } from '../harness/cpu-growth.js';

const kinds = (text: string, severity?: 'low' | 'medium' | 'high') =>
  findPersonalData(text, severity).map((f) => [f.kind, f.severity, text.slice(f.start, f.end)]);

// The four cases of issue 32 item 4.
const CARD = 'Book it on Dana\'s Visa 4539 1488 0343 6467, exp 09/28, CVV 417.';
const SSN = 'Payroll: Maria Lopez, 1420 Maple Street, Springfield, IL 62704. Her number is 287-65-4321.';
const IBAN = 'Wire the deposit to Hans Becker, IBAN DE68 3704 0044 0532 0999 99, reference 2231.';
const HEALTH = 'John Carter (john.carter@fastmail.com, 415-867-5309) was diagnosed with type 2 diabetes in March.';

describe('checksums and formats', () => {
  it('Luhn accepts valid card numbers and refuses one changed digit', () => {
    expect(luhnValid('4539148803436467')).toBe(true);
    expect(luhnValid('4539148803436468')).toBe(false);
    expect(luhnValid('1234567890123456')).toBe(false);
  });

  it('a card number must have the prefix and length of a brand', () => {
    expect(cardBrandFits('4539148803436467')).toBe(true);
    expect(cardBrandFits('371449635398431')).toBe(true);
    expect(cardBrandFits('5200828282828210')).toBe(true);
    expect(cardBrandFits('45391488034364')).toBe(false); // Visa of 14 digits
    expect(cardBrandFits('9539148803436467')).toBe(false); // no brand starts with 9
  });

  it('SSN allocation rules: no area 000, 666 or 9xx, no group 00, no serial 0000', () => {
    expect(ssnValid('287', '65', '4321')).toBe(true);
    expect(ssnValid('000', '65', '4321')).toBe(false);
    expect(ssnValid('666', '65', '4321')).toBe(false);
    expect(ssnValid('912', '65', '4321')).toBe(false);
    expect(ssnValid('287', '00', '4321')).toBe(false);
    expect(ssnValid('287', '65', '0000')).toBe(false);
  });
});

describe('the personal-data cases of issue 32, at the default severity (high: held)', () => {
  it('a Luhn-valid card number with its expiry and CVV: both the number and the code', () => {
    expect(kinds(CARD)).toEqual([
      ['personal.card-number', 'high', '4539 1488 0343 6467'],
      ['personal.card-security-code', 'high', '417'],
    ]);
  });

  it('an SSN beside a name and an address', () => {
    expect(kinds(SSN)).toEqual([['personal.ssn', 'high', '287-65-4321']]);
  });

  it('an IBAN with a valid check digit', () => {
    expect(kinds(IBAN)).toEqual([['personal.iban', 'high', 'DE68 3704 0044 0532 0999 99']]);
    expect(kinds('IBAN: DE68370400440532099999.')).toEqual([['personal.iban', 'high', 'DE68370400440532099999']]);
  });

  it("a person's email and phone beside a diagnosis: each contact detail", () => {
    expect(kinds(HEALTH)).toEqual([
      ['personal.health-contact', 'high', 'john.carter@fastmail.com'],
      ['personal.health-contact', 'high', '415-867-5309'],
    ]);
  });

  it('the configured severity is what the strong findings get', () => {
    for (const severity of ['low', 'medium', 'high'] as const) {
      for (const text of [CARD, SSN, IBAN, HEALTH]) {
        expect(findPersonalData(text, severity).every((f) => f.severity === severity)).toBe(true);
      }
    }
  });

  it('masks the digits in the masked body and cuts the excerpt', async () => {
    for (const text of [CARD, SSN, IBAN, HEALTH]) {
      const result = await scanText(text);
      expect(result.flagged).toBe(true);
      for (const f of result.findings) {
        const span = text.slice(f.start, f.end);
        expect(result.masked!.slice(f.start, f.end)).toBe('█'.repeat(span.length));
        expect(result.masked).not.toContain(span);
        expect(f.excerpt).not.toContain(span);
        expect(f.detail).not.toContain(span);
      }
    }
    expect((await scanText(SSN, { personalDataSeverity: 'low' })).flagged).toBe(false);
  });
});

describe('checksum negatives and look-alikes', () => {
  it('random digits, a Luhn-invalid 16-digit number and an order number are no card', () => {
    expect(kinds('Card 4539 1488 0343 6468 exp 09/28 (one digit off)')).toEqual([]);
    expect(kinds('Order 1234 5678 9012 3456 shipped.')).toEqual([]);
    expect(kinds('build 1732812345678, ISBN 978-0-13-468599-1, hash a3f4539148803436467b')).toEqual([]);
  });

  it('an IBAN with a bad check digit is nothing', () => {
    expect(kinds('IBAN DE69 3704 0044 0532 0999 99')).toEqual([]);
    expect(kinds('IBAN DE88 3704 0044 0532 0130 00')).toEqual([]);
  });

  it('an SSN with area 000, 666 or 9xx, group 00 or serial 0000 is nothing, even named', () => {
    for (const ssn of ['000-65-4321', '666-65-4321', '912-65-4321', '287-00-4321', '287-65-0000']) {
      expect(kinds(`SSN: ${ssn}, Maria Lopez, 1420 Maple Street`)).toEqual([]);
    }
  });

  it('an SSN-shaped number alone is low; named as an SSN it is held; bare nine digits only when named', () => {
    expect(kinds('Ticket 287-65-4321 was closed.')).toEqual([['personal.ssn', 'low', '287-65-4321']]);
    expect(kinds('her SSN is 287-65-4321')).toEqual([['personal.ssn', 'high', '287-65-4321']]);
    expect(kinds('SSN 287654321')).toEqual([['personal.ssn', 'high', '287654321']]);
    expect(kinds('invoice 287654321')).toEqual([]);
  });

  it("a float's digits, a hex id and ids glued from numbers of other lengths are no card", () => {
    expect(kinds('score 0.4539148803436467, n = 4539148803436467.5')).toEqual([]);
    expect(kinds('object 4539148803436467abc')).toEqual([]);
    expect(kinds('claim 41234-1732812345678-3: the build')).toEqual([]);
  });

  it('a card printed in its groups is found beside a trailing number, and is card data by its grouping', () => {
    expect(kinds('4539 1488 0343 6467 12')).toEqual([['personal.card-number', 'high', '4539 1488 0343 6467']]);
    expect(kinds('Card 4539-1488-0343-6467 09/28 417')).toEqual([['personal.card-number', 'high', '4539-1488-0343-6467']]);
  });

  it('a Luhn-valid number with nothing about a card near it is low', () => {
    expect(kinds('Reference number 4024007171854630 in the log.')).toEqual([['personal.card-number', 'low', '4024007171854630']]);
  });

  it('published test card numbers are low even with card words around them', () => {
    expect(kinds('4111 1111 1111 1111')).toEqual([['personal.card-number', 'low', '4111 1111 1111 1111']]);
    expect(kinds('Test card 4242424242424242, exp 12/34, CVC 123')).toEqual([['personal.card-number', 'low', '4242424242424242']]);
    expect(kinds('Amex test 378282246310005 and Mastercard 5555 5555 5555 4444')).toEqual([
      ['personal.card-number', 'low', '378282246310005'],
      ['personal.card-number', 'low', '5555 5555 5555 4444'],
    ]);
  });

  it('published example IBANs and SSNs are low', () => {
    expect(kinds('e.g. GB82 WEST 1234 5698 7654 32')).toEqual([['personal.iban', 'low', 'GB82 WEST 1234 5698 7654 32']]);
    expect(kinds('The famous wallet card SSN 078-05-1120')).toEqual([['personal.ssn', 'low', '078-05-1120']]);
  });

  it('contact details alone, a diagnosis alone, and a helpline are no finding', () => {
    expect(kinds('Reach Jo at jo.park@fastmail.com or 415-867-5309 about the offsite.')).toEqual([]);
    expect(kinds('My aunt was diagnosed with diabetes last year and is doing well.')).toEqual([]);
    expect(kinds('Diabetes questions: 1-800-342-2383 or info@diabetes.org.')).toEqual([]);
    expect(kinds('Be patient and call me at 415-867-5309; hearing aids are on sale.')).toEqual([]);
  });

  it('phone numbers in their usual forms count beside a diagnosis; dates, measurements and short runs do not', () => {
    const t = 'Our patient (diagnosed in May): (415) 867-5309, 415.867.5309, +44 20 7946 0958; seen 2023-04-01, HbA1c 7.2, ref 12345678.';
    expect(kinds(t).map(([, , span]) => span)).toEqual(['(415) 867-5309', '415.867.5309', '+44 20 7946 0958']);
  });

  it('a long medical text full of numbers but no contact stays cheap: its cost grows with the text, not faster', async () => {
    const para = 'The cohort with diabetes had HbA1c 7.2 and follow-up at 6 and 12 months (n = 5678901); 2023-04-01 to 2024-03-31. ';
    expect(findPersonalData(para.repeat(600))).toEqual([]);
    // A ratio of CPU time, never a clock (test/README.md, "Waiting"); bench/scan-time.js records the seconds.
    const growth = await cpuGrowth((n) => para.repeat(n), 38, (text) => findPersonalData(text), 5);
    expect(growth.ratio, growth.said).toBeLessThan(GROWTH_LIMIT);
  });

  it('a text with no digit and no @ costs one test', () => {
    expect(kinds('Plain words about cards, social security and diagnoses.')).toEqual([]);
  });
});

describe('cost', () => {
  /**
   * Adversarial repetition costs in proportion to the text: each piece repeated, the whole
   * scanner's CPU time for 16 times the text at most GROWTH_LIMIT times (test/harness/cpu-growth.ts),
   * never against a clock (test/README.md, "Waiting"). The large text is a quarter of the sizes
   * this test once timed: past 64 KiB V8 changes how it runs a pattern (linear-rules.test.ts),
   * and a ratio across that measures V8, not the scanner. bench/scan-time.js records the seconds
   * of the scanner at 1 MiB; linear-rules.test.ts judges every pattern alone.
   */
  const inputs: [before: string, piece: string, count: number, after: string][] = [
    ['', '4111 ', 10_000, ''],
    ['', '287-65-4321 SSN 1420 Maple Street ', 750, ''],
    ['', 'DE68 3704 ', 5_000, ''],
    ['', 'jo@x.com 415-867-5309 diagnosed ', 750, ''],
    ['a@b', '.b', 12_500, '!'],
  ];
  for (const [before, piece, count, after] of inputs) {
    it(`stays linear on adversarial repetition: ${JSON.stringify(before + piece + after)}`, async () => {
      const growth = await cpuGrowth((n) => before + piece.repeat(n) + after, Math.ceil(count / GROWTH), (text) => scanText(text), 5);
      expect(growth.ratio, growth.said).toBeLessThan(GROWTH_LIMIT);
    });
  }
});

describe('scan.personal_data_severity', () => {
  it('takes low, medium or high, defaults to high, and refuses veto', () => {
    const spec = CONFIG_KEYS.scan.personal_data_severity;
    expect(spec.default).toBe('high');
    for (const v of ['low', 'medium', 'high']) expect(spec.schema.safeParse(v).success).toBe(true);
    for (const v of ['veto', 'none', '']) expect(spec.schema.safeParse(v).success).toBe(false);
  });
});
