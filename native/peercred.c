/*
 * peerCredentials(fd) -> { pid, uid, gid }
 *
 * The gate decides who is calling from the kernel's record of the process on the
 * other end of a Unix-domain socket (SO_PEERCRED). Node exposes no API for it,
 * so this is the smallest addon that can: one getsockopt call.
 *
 * The credentials are those the peer had when it called connect(2), not now;
 * that is what we want, because that is the process the kernel vouches for.
 */
#ifndef NAPI_VERSION
#define NAPI_VERSION 8
#endif
#define _GNU_SOURCE /* struct ucred lives behind _GNU_SOURCE in glibc */

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <node_api.h>

/*
 * If a call into Node-API failed, make sure JS sees an exception rather than a
 * silent undefined; if one is already pending (e.g. we threw it), leave it be.
 */
static napi_value fail(napi_env env, const char *what) {
  bool pending = false;
  if (napi_is_exception_pending(env, &pending) == napi_ok && !pending) {
    napi_throw_error(env, NULL, what);
  }
  return NULL;
}

#define CHECK(env, call)                                   \
  do {                                                     \
    if ((call) != napi_ok) return fail((env), #call);      \
  } while (0)

static napi_value set_number(napi_env env, napi_value obj, const char *key,
                             double value) {
  napi_value v;
  CHECK(env, napi_create_double(env, value, &v));
  CHECK(env, napi_set_named_property(env, obj, key, v));
  return obj;
}

static napi_value peer_credentials(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1];
  CHECK(env, napi_get_cb_info(env, info, &argc, argv, NULL, NULL));

  napi_valuetype type = napi_undefined;
  if (argc >= 1) CHECK(env, napi_typeof(env, argv[0], &type));
  if (type != napi_number) {
    napi_throw_type_error(env, NULL, "peerCredentials: fd must be a non-negative integer");
    return NULL;
  }

  /*
   * Checked as a double so that 3.5, NaN or 2^40 are rejected instead of being
   * truncated by napi_get_value_int32 into some other, valid-looking fd.
   */
  double d;
  CHECK(env, napi_get_value_double(env, argv[0], &d));
  if (!(d >= 0 && d <= 2147483647.0) || d != (double)(int)d) {
    napi_throw_type_error(env, NULL,
                          "peerCredentials: fd must be a non-negative integer");
    return NULL;
  }
  int fd = (int)d;

  struct ucred cred;
  socklen_t len = sizeof cred;
  memset(&cred, 0, sizeof cred);
  if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) != 0) {
    char msg[256];
    snprintf(msg, sizeof msg, "SO_PEERCRED failed: %s", strerror(errno));
    napi_throw_error(env, NULL, msg);
    return NULL;
  }
  /* A short answer would leave fields zeroed, and uid 0 is root: refuse it. */
  if (len != sizeof cred) {
    napi_throw_error(env, NULL, "SO_PEERCRED failed: short ucred");
    return NULL;
  }

  /*
   * A socket with no Unix peer (TCP, or not connected) does not fail: the kernel
   * answers pid 0 and uid/gid (uid_t)-1. No account has that uid, so it can only
   * mean "nobody vouched for this caller"; returning it would invite a caller to
   * treat it as an ordinary non-admin uid.
   */
  if (cred.uid == (uid_t)-1) {
    napi_throw_error(env, NULL, "SO_PEERCRED failed: socket has no Unix peer");
    return NULL;
  }

  napi_value result;
  CHECK(env, napi_create_object(env, &result));
  /* uid_t and gid_t are unsigned 32-bit; a double holds them exactly. */
  if (set_number(env, result, "pid", (double)cred.pid) == NULL) return NULL;
  if (set_number(env, result, "uid", (double)cred.uid) == NULL) return NULL;
  if (set_number(env, result, "gid", (double)cred.gid) == NULL) return NULL;
  return result;
}

static napi_value init(napi_env env, napi_value exports) {
  napi_value fn;
  CHECK(env, napi_create_function(env, "peerCredentials", NAPI_AUTO_LENGTH,
                                  peer_credentials, NULL, &fn));
  CHECK(env, napi_set_named_property(env, exports, "peerCredentials", fn));
  return exports;
}

NAPI_MODULE(NODE_GYP_MODULE_NAME, init)
