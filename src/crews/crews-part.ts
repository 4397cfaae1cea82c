import type { CrewSheets } from './crew-sheets.js';
import type { Crews } from './crews.js';

/** The crews part: runners, their crews' assignments, keys and hellos, and the crew sheets as rows. */
export interface CrewsPart {
  readonly runners: Crews;
  /** Which spaces are crews, and who answers their questions. */
  readonly sheets: CrewSheets;
}
