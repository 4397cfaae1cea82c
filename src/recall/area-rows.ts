import type Database from 'better-sqlite3';
import { areaToken } from '../projections/area-tokens.js';
import { areaExpression } from './fts-query.js';

/**
 * The rows of a work area and the areas below it, read from the recall indexes' area
 * tokens (one doclist, no stored column read), when there are at most `max` of them: a
 * vector search of a small area then compares the query with each of its rows exactly,
 * rather than searching the whole space's codes and keeping the few that fall inside.
 */
export class AreaRows {
  private readonly served: Database.Statement;
  private readonly held: Database.Statement;

  constructor(db: Database.Database) {
    this.served = db.prepare('SELECT rowid FROM recall_fts WHERE recall_fts MATCH ? LIMIT ?').pluck();
    this.held = db.prepare('SELECT rowid FROM held_fts WHERE held_fts MATCH ? AND writer = ? LIMIT ?').pluck();
  }

  /** Served rows (ACTIVE or SUPERSEDED) of the area in these spaces; null when more than `max`. */
  promoted(spaces: readonly string[], area: string, max: number): number[] | null {
    return atMost(this.served.all(this.expression(spaces, area), max + 1) as number[], max);
  }

  /** The writer's scanned held rows of the area; null when more than `max`. */
  ownHeld(spaces: readonly string[], area: string, writer: string, max: number): number[] | null {
    return atMost(this.held.all(this.expression(spaces, area), writer, max + 1) as number[], max);
  }

  private expression(spaces: readonly string[], area: string): string {
    return areaExpression(spaces.map((space) => areaToken(space, area)));
  }
}

const atMost = (rows: number[], max: number) => (rows.length > max ? null : rows);
