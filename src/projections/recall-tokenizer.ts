/**
 * The tokenizer of both recall indexes (recall_fts, held_fts): words as unicode61 splits
 * them, diacritics removed, each reduced to its Porter stem (SQLite's own porter tokenizer),
 * so "researching" finds "research" and "camped" finds "camping". A query's words are
 * stemmed by the same tokenizer when FTS5 parses them. Changing it changes the views'
 * shape (VIEW_SCHEMA_VERSION): a home made by another build replays its journal.
 */
export const RECALL_TOKENIZE = 'porter unicode61 remove_diacritics 2';
