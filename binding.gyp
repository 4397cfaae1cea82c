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
    }
  ]
}
