/*
 * gate_bm25(fts_table, df_0, df_1, ...): FTS5's own bm25 with the document frequency of
 * each phrase given by the caller instead of counted.
 *
 * Why: FTS5's bm25() computes each phrase's IDF by walking that phrase's whole doclist once
 * per query (xQueryPhrase with a counting callback). For a word in most rows of a million-row
 * table that walk is the largest cost of the query, larger than ranking the rows themselves
 * (measured in bench/recall.js: the same windowed query costs ~7 ms more with bm25() than
 * without, whatever the window). The gate keeps an estimate of each term's document
 * frequency (src/recall/term-frequencies.ts) and passes it here; a phrase given NULL is
 * counted exactly as bm25() does, and one given a negative frequency weighs nothing (the
 * work-area phrase, which only selects rows). A row's length is that of its first column
 * (the body), so the work-area tokens of the second do not count as words. The IDF (with
 * its floor of 1e-6) and the sign are bm25()'s; k1 and b are not (below).
 *
 * k1 = 0.9 and b = 0.4, the BM25 defaults of Lucene's research toolkit Anserini, in place of
 * FTS5's 1.2 and 0.75: a claim is a short text and claims differ in length by ten times
 * (a two-word reply beside a paragraph), and at b = 0.75 a short claim that says a query's
 * name once outranked a longer one saying the name and the query's other word (issue 37:
 * on LoCoMo's dev half lexical recall@10 0.718 -> 0.732, on our fixtures through the gate
 * 0.771 -> 0.779; docs/recall.md). Chosen as published defaults, not tuned on either set.
 * test/recall/bm25-known-df.test.ts checks the scores against the formula.
 *
 * A loadable SQLite extension, built by node-gyp beside the peercred addon and loaded into
 * better-sqlite3's connection with db.loadExtension(path), its default entry point.
 */
#include <math.h>
#include <string.h>
#include "sqlite3ext.h"
SQLITE_EXTENSION_INIT1

typedef struct QueryData {
  int nPhrase;
  double avgdl;
  double *aIDF;
  double *aFreq;
} QueryData;

static int countHits(const Fts5ExtensionApi *api, Fts5Context *fts, void *user) {
  (void)api;
  (void)fts;
  (*(sqlite3_int64 *)user)++;
  return SQLITE_OK;
}

/* The per-query constants, computed on the first row and kept as the query's aux data. */
static int queryData(const Fts5ExtensionApi *api, Fts5Context *fts, int nVal, sqlite3_value **apVal, QueryData **out) {
  QueryData *p = (QueryData *)api->xGetAuxdata(fts, 0);
  int rc = SQLITE_OK;
  if (p == 0) {
    sqlite3_int64 nRow = 0, nToken = 0;
    int nPhrase = api->xPhraseCount(fts);
    p = (QueryData *)sqlite3_malloc64(sizeof(QueryData) + (sqlite3_int64)nPhrase * 2 * sizeof(double));
    if (p == 0) return SQLITE_NOMEM;
    memset(p, 0, sizeof(QueryData) + (size_t)nPhrase * 2 * sizeof(double));
    p->nPhrase = nPhrase;
    p->aIDF = (double *)&p[1];
    p->aFreq = &p->aIDF[nPhrase];
    rc = api->xRowCount(fts, &nRow);
    if (rc == SQLITE_OK) rc = api->xColumnTotalSize(fts, 0, &nToken);
    if (rc == SQLITE_OK) p->avgdl = nRow > 0 ? (double)nToken / (double)nRow : 1.0;
    for (int i = 0; rc == SQLITE_OK && i < nPhrase; i++) {
      sqlite3_int64 nHit = 0;
      if (i < nVal && sqlite3_value_type(apVal[i]) != SQLITE_NULL) {
        nHit = sqlite3_value_int64(apVal[i]);
        if (nHit < 0) {
          p->aIDF[i] = 0.0;
          continue;
        }
        if (nHit > nRow) nHit = nRow;
      } else {
        rc = api->xQueryPhrase(fts, i, (void *)&nHit, countHits);
      }
      double idf = log(((double)nRow - (double)nHit + 0.5) / ((double)nHit + 0.5));
      p->aIDF[i] = idf <= 0.0 ? 1e-6 : idf;
    }
    if (rc == SQLITE_OK) rc = api->xSetAuxdata(fts, p, sqlite3_free);
    else sqlite3_free(p);
    if (rc != SQLITE_OK) return rc;
  }
  *out = p;
  return SQLITE_OK;
}

static void gateBm25(const Fts5ExtensionApi *api, Fts5Context *fts, sqlite3_context *ctx, int nVal, sqlite3_value **apVal) {
  const double k1 = 0.9, b = 0.4;
  QueryData *p = 0;
  int nInst = 0, nTok = 0;
  int rc = queryData(api, fts, nVal, apVal, &p);
  if (rc == SQLITE_OK) {
    memset(p->aFreq, 0, sizeof(double) * (size_t)p->nPhrase);
    rc = api->xInstCount(fts, &nInst);
  }
  for (int i = 0; rc == SQLITE_OK && i < nInst; i++) {
    int ip, ic, io;
    rc = api->xInst(fts, i, &ip, &ic, &io);
    if (rc == SQLITE_OK) p->aFreq[ip] += 1.0;
  }
  if (rc == SQLITE_OK) rc = api->xColumnSize(fts, 0, &nTok);
  if (rc != SQLITE_OK) {
    sqlite3_result_error_code(ctx, rc);
    return;
  }
  double score = 0.0, D = (double)nTok;
  for (int i = 0; i < p->nPhrase; i++) {
    score += p->aIDF[i] * ((p->aFreq[i] * (k1 + 1.0)) / (p->aFreq[i] + k1 * (1 - b + b * D / p->avgdl)));
  }
  sqlite3_result_double(ctx, -1.0 * score);
}

/* The connection's fts5_api, fetched the documented way: SELECT fts5(?1) with a bound pointer. */
static fts5_api *fts5Api(sqlite3 *db) {
  fts5_api *api = 0;
  sqlite3_stmt *stmt = 0;
  if (sqlite3_prepare_v2(db, "SELECT fts5(?1)", -1, &stmt, 0) == SQLITE_OK) {
    sqlite3_bind_pointer(stmt, 1, (void *)&api, "fts5_api_ptr", 0);
    sqlite3_step(stmt);
  }
  sqlite3_finalize(stmt);
  return api;
}

#ifdef _WIN32
__declspec(dllexport)
#endif
int sqlite3_extension_init(sqlite3 *db, char **pzErrMsg, const sqlite3_api_routines *pApi) {
  SQLITE_EXTENSION_INIT2(pApi);
  fts5_api *api = fts5Api(db);
  if (api == 0 || api->iVersion < 2) {
    *pzErrMsg = sqlite3_mprintf("gate_bm25: this SQLite has no FTS5 API of version 2 or later");
    return SQLITE_ERROR;
  }
  return api->xCreateFunction(api, "gate_bm25", 0, gateBm25, 0);
}
