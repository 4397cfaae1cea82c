{
  "targets": [
    {
      "target_name": "peercred",
      "sources": ["native/peercred.c"],
      "defines": ["NAPI_VERSION=8"],
      "cflags": ["-Wextra"],
      "cflags_c": ["-std=gnu11"],
      "configurations": {
        "Release": {
          "cflags": ["-O2"]
        }
      }
    },
    {
      "target_name": "bm25_known_df",
      "sources": ["native/bm25-known-df.c"],
      "include_dirs": ["node_modules/better-sqlite3/deps/sqlite3"],
      "cflags": ["-Wextra"],
      "cflags_c": ["-std=gnu11"],
      "libraries": ["-lm"],
      "configurations": {
        "Release": {
          "cflags": ["-O2"]
        }
      }
    }
  ]
}
