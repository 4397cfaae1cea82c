/**
 * Personal data about someone: a payment card number, a US social security number, a bank
 * account (IBAN), contact details beside a diagnosis. Each format's own check decides
 * whether digits are one at all (Luhn for cards, ISO 7064 mod 97 for IBANs via ibantools,
 * the SSA's allocation rules for SSNs), so random digits, order numbers and dates do not
 * fire; the words around a number decide whether it is about a person.
 *
 * A finding that is about a person gets the severity the operator configured
 * (`scan.personal_data_severity`, default high: held for a person's disposition). Weak
 * signals (an SSN-shaped number with nothing about a person near it, a Luhn-valid number
 * with nothing about a card near it) and published test or example values are low: the row
 * is not held, but the reviewer sees them and the masked body hides the digits.
 *
 * Cheap pre-checks run first: the scan runs on every claim, and most claims hold no run of
 * nine digits, no IBAN-shaped word and no medical word.
 */
import { electronicFormatIBAN, isValidIBAN } from 'ibantools';
import { parsePhoneNumberFromString } from 'libphonenumber-js';
import type { Finding, Severity } from './finding.js';
import { cueGate } from './literal-cues.js';
import { maskExcerpt } from './mask.js';
import { DEFAULT_PERSONAL_DATA_SEVERITY, type PersonalDataSeverity } from './personal-data-severity.js';

export { DEFAULT_PERSONAL_DATA_SEVERITY, PERSONAL_DATA_SEVERITIES, type PersonalDataSeverity } from './personal-data-severity.js';

/** How far (UTF-16 units, either side) the words that make a number personal may be. */
const CONTEXT_WINDOW = 120;
const HEALTH_WINDOW = 250;

function finding(kind: string, severity: Severity, detail: string, start: number, end: number, text: string): Finding {
  return { kind, severity, detail, start, end, excerpt: maskExcerpt(text.slice(start, end)) };
}

function around(text: string, start: number, end: number, window: number): string {
  return text.slice(Math.max(0, start - window), Math.min(text.length, end + window));
}

// ---------------------------------------------------------------------------------------
// Payment cards

// Groups of digits joined by single spaces or dashes, not inside a word and not the fraction
// of a decimal (a random float's digits pass Luhn one time in ten).
const DIGIT_RUN = /(?<![A-Za-z0-9_]|\d\.)\d+(?:[ -]\d+)*/g;
const DIGIT_GROUP = /\d+/g;
const RUN_CONTINUES = /^(?:[A-Za-z_]|\.\d)/;
const THIRTEEN_DIGITS = /\d(?:[ -]?\d){12}/;
const CARD_CUE =
  /\b(?:card|visa|master ?card|amex|american express|discover|diners|jcb|unionpay|maestro|credit|debit|cvv2?|cvc2?|csc|cid|security code|exp(?:iry|ires|iration)?|valid thru|billing|payment|pay with|charged?)\b/i;
const EXPIRY = /\b(?:0[1-9]|1[0-2]) ?\/ ?(?:20)?\d{2}\b/;
const SECURITY_CODE = /\b(?:cvv2?|cvc2?|csc|cid|security code|card code)\b[\s:#=is-]{0,6}(\d{3,4})(?!\d)/gi;

/** Published test numbers of the card networks and payment processors (Stripe, Braintree, Adyen, PayPal docs). */
const TEST_CARD_NUMBERS = new Set([
  '4111111111111111',
  '4242424242424242',
  '4012888888881881',
  '4222222222222',
  '4000056655665556',
  '4000000000000002',
  '4000000000000077',
  '4000000000009995',
  '4012000033330026',
  '4917610000000000',
  '4462030000000000',
  '5555555555554444',
  '5105105105105100',
  '5200828282828210',
  '5424000000000015',
  '2223003122003222',
  '2222400070000005',
  '378282246310005',
  '371449635398431',
  '378734493671000',
  '6011111111111117',
  '6011000990139424',
  '6011981111111113',
  '3056930009020004',
  '30569309025904',
  '38520000023237',
  '36227206271667',
  '3566002020360505',
  '3530111333300000',
  '6200000000000005',
  '5019717010103742',
  '6331101999990016',
]);

/** Luhn (ISO/IEC 7812-1) over a string of digits. */
export function luhnValid(digits: string): boolean {
  let sum = 0;
  let double = false;
  for (let i = digits.length - 1; i >= 0; i--) {
    let d = digits.charCodeAt(i) - 48;
    if (double) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
    double = !double;
  }
  return sum % 10 === 0;
}

/** Whether a number has the prefix and length of a card brand in use (IIN ranges as published by the networks). */
export function cardBrandFits(digits: string): boolean {
  const n = digits.length;
  const p2 = Number(digits.slice(0, 2));
  const p3 = Number(digits.slice(0, 3));
  const p4 = Number(digits.slice(0, 4));
  const p6 = Number(digits.slice(0, 6));
  if (digits[0] === '4') return n === 13 || n === 16 || n === 19; // Visa
  if ((p2 >= 51 && p2 <= 55) || (p6 >= 222100 && p6 <= 272099)) return n === 16; // Mastercard
  if (p2 === 34 || p2 === 37) return n === 15; // American Express
  if (p4 === 6011 || p2 === 65 || (p3 >= 644 && p3 <= 649) || (p6 >= 622126 && p6 <= 622925)) return n >= 16 && n <= 19; // Discover
  if (p2 === 62) return n >= 16 && n <= 19; // UnionPay
  if ((p4 >= 3528 && p4 <= 3589)) return n >= 16 && n <= 19; // JCB
  if (p2 === 36 || (p3 >= 300 && p3 <= 305) || p4 === 3095 || p2 === 38 || p2 === 39) return n >= 14 && n <= 19; // Diners Club
  if ([5018, 5020, 5038, 5893, 6304, 6759, 6761, 6762, 6763].includes(p4)) return n >= 13 && n <= 19; // Maestro
  return false;
}

/**
 * Where in a run of digit groups a card number may stand: one group of 13 to 19 digits, or
 * the groupings cards are printed in (4-4-4-4, 4-4-4-1..4, 4-4-4-4-1..3, Amex and Diners
 * 4-6-4/5). Longest first, so `4539 1488 0343 6467 417` is tried whole and then without the
 * trailing group. Ids glued from numbers of other lengths (`12345-1732812345678-3`) are none.
 */
function cardCandidates(groups: ReadonlyArray<{ at: number; len: number }>, i: number): number[] {
  const len = (k: number) => groups[i + k]?.len ?? 0;
  if (len(0) >= 13 && len(0) <= 19) return [1];
  if (len(0) !== 4) return [];
  if (len(1) === 6 && (len(2) === 4 || len(2) === 5)) return [3];
  if (len(1) !== 4 || len(2) !== 4 || len(3) < 1 || len(3) > 4) return [];
  return len(3) === 4 && len(4) >= 1 && len(4) <= 3 ? [5, 4] : [4];
}

function findCards(text: string, severity: PersonalDataSeverity): Finding[] {
  if (!THIRTEEN_DIGITS.test(text)) return [];
  const findings: Finding[] = [];
  for (const run of text.matchAll(DIGIT_RUN)) {
    if (run[0].length < 13 || RUN_CONTINUES.test(text.slice(run.index + run[0].length, run.index + run[0].length + 2))) continue;
    const groups = [...run[0].matchAll(DIGIT_GROUP)].map((g) => ({ at: run.index + g.index, len: g[0].length }));
    for (let i = 0; i < groups.length; ) {
      let taken = 0;
      for (const take of cardCandidates(groups, i)) {
        const start = groups[i]!.at;
        const end = groups[i + take - 1]!.at + groups[i + take - 1]!.len;
        const digits = text.slice(start, end).replace(/[ -]/g, '');
        if (!cardBrandFits(digits) || !luhnValid(digits)) continue;
        findings.push(...cardFindings(text, start, end, digits, take > 1, severity));
        taken = take;
        break;
      }
      i += Math.max(1, taken);
    }
  }
  return findings;
}

function cardFindings(text: string, start: number, end: number, digits: string, grouped: boolean, severity: PersonalDataSeverity): Finding[] {
  if (TEST_CARD_NUMBERS.has(digits)) return [finding('personal.card-number', 'low', 'A published test card number.', start, end, text)];
  const near = around(text, start, end, CONTEXT_WINDOW);
  if (!grouped && !CARD_CUE.test(near) && !EXPIRY.test(near)) {
    return [finding('personal.card-number', 'low', 'A Luhn-valid number of a card brand and length, with nothing about a card near it.', start, end, text)];
  }
  const findings = [finding('personal.card-number', severity, 'A payment card number (Luhn-valid, of a card brand) with card details around it.', start, end, text)];
  const from = Math.max(0, start - CONTEXT_WINDOW);
  for (const code of near.matchAll(SECURITY_CODE)) {
    const codeStart = from + code.index + code[0].length - code[1]!.length;
    findings.push(finding('personal.card-security-code', severity, 'A card security code (CVV/CVC) beside a card number.', codeStart, codeStart + code[1]!.length, text));
  }
  return findings;
}

// ---------------------------------------------------------------------------------------
// US social security numbers

const SSN_SHAPED = /(?<![A-Za-z0-9_-])(\d{3})([- ])(\d{2})\2(\d{4})(?![A-Za-z0-9_-])/g;
const SSN_SHAPE = /\d{3}[- ]\d{2}[- ]\d{4}/;
const NINE_DIGIT_RUN = /\d{9}/;
const SSN_BARE = /(?<![A-Za-z0-9_-])(\d{3})(\d{2})(\d{4})(?![A-Za-z0-9_-])/g;
const SSN_CUE = /\b(?:SSNs?|social security(?: (?:number|no\.?|#))?|soc\.? ?sec\.?|SS ?#)/i;
// A street address (number, name, suffix) or a US state with a ZIP code.
const STREET =
  /\b\d{1,6} (?:[A-Z][A-Za-z'.-]* ){1,4}(?:Street|St|Avenue|Ave|Road|Rd|Boulevard|Blvd|Lane|Ln|Drive|Dr|Court|Ct|Way|Place|Pl|Terrace|Ter|Circle|Cir|Parkway|Pkwy|Highway|Hwy|Square|Sq)\b/;
const STATE_ZIP =
  /\b(?:A[KLRZ]|C[AOT]|D[CE]|FL|GA|HI|I[ADLN]|K[SY]|LA|M[ADEINOST]|N[CDEHJMVY]|O[HKR]|PA|RI|S[CD]|T[NX]|UT|V[AT]|W[AIVY]),? \d{5}(?:-\d{4})?\b/;
const BIRTH_CUE = /\b(?:DOB|date of birth|born on)\b/i;
/** Numbers printed as SSN examples (the Woolworth wallet card, the SSA's ad, the keyboard run). */
const EXAMPLE_SSNS = new Set(['078051120', '219099999', '123456789']);

/** The SSA never issues area 000, 666 or 900-999, group 00 or serial 0000. */
export function ssnValid(area: string, group: string, serial: string): boolean {
  const a = Number(area);
  return a !== 0 && a !== 666 && a < 900 && group !== '00' && serial !== '0000';
}

function findSsns(text: string, severity: PersonalDataSeverity): Finding[] {
  const shaped = SSN_SHAPE.test(text);
  const bare = NINE_DIGIT_RUN.test(text);
  if (!shaped && !bare) return [];
  const findings: Finding[] = [];
  const cue = SSN_CUE.test(text);
  const consider = (start: number, end: number, area: string, group: string, serial: string, bare: boolean) => {
    if (!ssnValid(area, group, serial)) return;
    const near = around(text, start, end, CONTEXT_WINDOW);
    // A bare nine-digit number is an SSN only when it is called one, right before it.
    if (bare && !SSN_CUE.test(text.slice(Math.max(0, start - 40), start))) return;
    if (EXAMPLE_SSNS.has(area + group + serial)) {
      findings.push(finding('personal.ssn', 'low', 'A number printed as an example social security number.', start, end, text));
      return;
    }
    const named = cue && SSN_CUE.test(near);
    const located = STREET.test(near) || STATE_ZIP.test(near) || BIRTH_CUE.test(near);
    findings.push(
      named || located
        ? finding('personal.ssn', severity, 'A US social security number (valid area, group and serial) beside words about a person.', start, end, text)
        : finding('personal.ssn', 'low', 'An SSN-shaped number with nothing about a person near it.', start, end, text),
    );
  };
  if (shaped) {
    for (const m of text.matchAll(SSN_SHAPED)) consider(m.index, m.index + m[0].length, m[1]!, m[3]!, m[4]!, false);
  }
  if (bare && cue) {
    for (const m of text.matchAll(SSN_BARE)) consider(m.index, m.index + m[0].length, m[1]!, m[2]!, m[3]!, true);
  }
  return findings;
}

// ---------------------------------------------------------------------------------------
// IBANs

// Two letters, two check digits, then 11 to 30 letters or digits, in groups of four (a space
// between groups) or in one run.
const IBAN_CANDIDATE = /(?<![A-Za-z0-9])[A-Z]{2}\d{2}(?: ?[A-Z0-9]{4}){2,7}(?: ?[A-Z0-9]{1,4})?(?![A-Za-z0-9])/g;
const IBAN_PREFIX = /[A-Z]{2}\d{2}/;
/** Published example IBANs (the ECBS/SWIFT registry examples and Wikipedia's). */
const EXAMPLE_IBANS = new Set([
  'DE89370400440532013000',
  'GB82WEST12345698765432',
  'GB29NWBK60161331926819',
  'GB33BUKB20201555555555',
  'FR1420041010050500013M02606',
  'FR7630006000011234567890189',
  'NL91ABNA0417164300',
  'CH9300762011623852957',
  'BE68539007547034',
  'ES9121000418450200051332',
  'IT60X0542811101000000123456',
  'AT611904300234573201',
]);

function findIbans(text: string, severity: PersonalDataSeverity): Finding[] {
  if (!IBAN_PREFIX.test(text)) return [];
  const findings: Finding[] = [];
  for (const m of text.matchAll(IBAN_CANDIDATE)) {
    let raw = m[0];
    // A trailing word joined by a space is not part of the IBAN: try the longest valid prefix of groups.
    let iban = electronicFormatIBAN(raw) ?? '';
    while (!isValidIBAN(iban) && raw.includes(' ')) {
      raw = raw.slice(0, raw.lastIndexOf(' '));
      iban = electronicFormatIBAN(raw) ?? '';
    }
    if (!isValidIBAN(iban)) continue;
    const start = m.index;
    const end = start + raw.length;
    findings.push(
      EXAMPLE_IBANS.has(iban)
        ? finding('personal.iban', 'low', 'A published example IBAN.', start, end, text)
        : finding('personal.iban', severity, 'A bank account number (an IBAN with a valid check digit).', start, end, text),
    );
  }
  return findings;
}

// ---------------------------------------------------------------------------------------
// Contact details beside a diagnosis

// Words of a diagnosis, or conditions whose mention next to someone's contact says they have it.
const MEDICAL_WORDS = [
  'diagnos(?:is|ed|es)',
  'prognosis',
  'medical (?:record|history|condition)',
  'patient(?= (?:name|id|record|notes?|chart|file)\\b|:)',
  '(?:the|our|a|my|this) patient',
  'MRN',
  'ICD-?1[01]',
  'prescribed',
  'HIV',
  'AIDS',
  'diabet(?:es|ic)',
  'cancer',
  'carcinoma',
  'leuka?emia',
  'lymphoma',
  'chemotherapy',
  'major depressive',
  'bipolar',
  'schizophreni[ac]',
  'epilep(?:sy|tic)',
  'hepatitis',
  'tuberculosis',
  'dementia',
  "alzheimer(?:'s)?",
  "parkinson(?:'s)?",
  'PTSD',
  'anorexia',
  'bulimia',
  'multiple sclerosis',
  'cystic fibrosis',
  'syphilis',
  'chlamydia',
  'gonorrh(?:o)?ea',
  'herpes',
  'substance use disorder',
  'opioid use disorder',
  'psychiatric',
];
// Case matters for acronyms (HIV, not "hiv"; AIDS, not "aids"); a word may start a sentence.
const capitalisable = (w: string): string => (/^[a-z]/.test(w) ? `[${w[0]}${w[0]!.toUpperCase()}]${w.slice(1)}` : w);
// One word boundary around the alternation: a boundary on each word costs three times as much.
export const MEDICAL_CUE = new RegExp(`\\b(?:${MEDICAL_WORDS.map(capitalisable).join('|')})\\b`);
export const MEDICAL_CUE_ALL = new RegExp(MEDICAL_CUE.source, 'g');
// A part of each medical word that every spelling of it holds, read in lower case in the
// scan's one pass over the text (literal-cues.ts): the pattern runs only where one is found.
const MEDICAL_GATE = cueGate([
  'diagnos', 'prognosis', 'medical ', 'patient', 'mrn', 'icd', 'prescribed', 'hiv', 'aids', 'diabet', 'cancer', 'carcinoma',
  'leuk', 'lymphoma', 'chemotherapy', 'major depressive', 'bipolar', 'schizophreni', 'epilep', 'hepatitis', 'tuberculosis',
  'dementia', 'alzheimer', 'parkinson', 'ptsd', 'anorexia', 'bulimia', 'multiple sclerosis', 'cystic fibrosis', 'syphilis',
  'chlamydia', 'gonorrh', 'herpes', 'substance use disorder', 'opioid use disorder', 'psychiatric',
], [MEDICAL_CUE]);
const EMAIL = /(?<![A-Za-z0-9._%+-])[A-Za-z0-9][A-Za-z0-9._%+-]{0,63}@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,24}(?![A-Za-z0-9-])/g;
const SEVEN_DIGITS = /\d(?:[\s().-]{0,2}\d){6}/;
// An organisation's mailbox or a toll-free line is how a clinic or a charity is reached, not a patient.
const ROLE_MAILBOX = /^(?:info|support|help|helpline|contact|enquiries|inquiries|admin|office|hello|team|sales|press|media|noreply|no-reply|appointments|reception|billing|privacy)@/i;
const TOLL_FREE = /^\+1(?:800|833|844|855|866|877|888)/;

// Shaped like a phone number: 7 to 15 digits in at most six groups, an optional +country
// code and (area code). Only these, and only near a medical word, go to libphonenumber-js,
// whose search over a whole text costs milliseconds per KB.
const PHONE_SHAPE = /(?<![\w.+-])(?:\+\d{1,3}[ .-]?)?(?:\(\d{1,4}\)[ .-]?)?\d{1,5}(?:[ .-]?\d{1,5}){1,5}(?![\w-]|\.\d)/g;
const PHONE_DIGITS_MIN = 7;
const PHONE_DIGITS_MAX = 15;

// Dates and bare runs short of a full national number are not worth asking about.
const DATE_SHAPE = /^(?:\d{4}[-./]\d{1,2}[-./]\d{1,2}|\d{1,2}[-./]\d{1,2}[-./]\d{2,4})$/;
const BARE_DIGITS = /^\d+$/;

function isPhone(candidate: string): boolean {
  const digits = candidate.replace(/\D/g, '').length;
  if (digits < PHONE_DIGITS_MIN || digits > PHONE_DIGITS_MAX || DATE_SHAPE.test(candidate)) return false;
  if (BARE_DIGITS.test(candidate) && (digits < 10 || digits > 11)) return false;
  const phone = parsePhoneNumberFromString(candidate, 'US');
  return phone !== undefined && phone.isValid() && !TOLL_FREE.test(phone.number);
}

function findHealthContacts(text: string, severity: PersonalDataSeverity): Finding[] {
  const mail = text.includes('@');
  const digits = SEVEN_DIGITS.test(text);
  if ((!mail && !digits) || !MEDICAL_GATE.mayOccurIn(text) || !MEDICAL_CUE.test(text)) return [];
  const cues = [...text.matchAll(MEDICAL_CUE_ALL)].map((m) => ({ start: m.index, end: m.index + m[0].length }));
  // Cues and candidates both come in text order, so one pointer finds the cues in reach.
  let first = 0;
  const nearCue = (start: number, end: number): boolean => {
    while (first < cues.length && cues[first]!.end <= start - HEALTH_WINDOW) first++;
    return first < cues.length && cues[first]!.start < end + HEALTH_WINDOW;
  };
  const contacts: Array<{ start: number; end: number; what: string }> = [];
  if (mail) {
    for (const m of text.matchAll(EMAIL)) {
      if (nearCue(m.index, m.index + m[0].length) && !ROLE_MAILBOX.test(m[0])) contacts.push({ start: m.index, end: m.index + m[0].length, what: 'An email address' });
    }
  }
  if (digits) {
    first = 0;
    for (const m of text.matchAll(PHONE_SHAPE)) {
      if (nearCue(m.index, m.index + m[0].length) && isPhone(m[0])) contacts.push({ start: m.index, end: m.index + m[0].length, what: 'A phone number' });
    }
  }
  contacts.sort((a, b) => a.start - b.start);
  return contacts.map((c) =>
    finding('personal.health-contact', severity, `${c.what} beside a diagnosis or medical condition: health data about a reachable person.`, c.start, c.end, text),
  );
}

// ---------------------------------------------------------------------------------------

// Every detector needs a digit, except an email address beside a diagnosis.
const DIGIT_OR_AT = /[\d@]/;

export function findPersonalData(text: string, severity: PersonalDataSeverity = DEFAULT_PERSONAL_DATA_SEVERITY): Finding[] {
  if (!DIGIT_OR_AT.test(text)) return [];
  return [...findCards(text, severity), ...findSsns(text, severity), ...findIbans(text, severity), ...findHealthContacts(text, severity)];
}
