/* impl.c — loading one implementation library and calling its CryptHash defensively:
 * guard bytes around the output (the child process around it is sandbox.c's). */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

#include "hbsandbox.h"

#define GUARD_LEN 64
#define GUARD_BYTE 0xA5

struct hb_impl {
	void *handle;
	hb_crypthash_fn fn;
	char *library;
};

int hb_impl_open(hb_impl **out, const char *library)
{
	hb_impl *impl;
	void *handle, *sym;

	*out = NULL;
	handle = dlopen(library, RTLD_NOW | RTLD_LOCAL);
	if (!handle)
		return hb_error_set("%s: cannot load: %s", library, dlerror());
	sym = dlsym(handle, "CryptHash");
	if (!sym) {
		dlclose(handle);
		return hb_error_set("%s: no CryptHash function", library);
	}
	impl = calloc(1, sizeof(*impl));
	if (!impl) {
		dlclose(handle);
		return hb_error_set("out of memory");
	}
	impl->handle = handle;
	/* POSIX guarantees data and function pointers convert through dlsym. */
	*(void **)&impl->fn = sym;
	impl->library = hb_strdup(library);
	*out = impl;
	return 0;
}

void hb_impl_close(hb_impl *impl)
{
	if (!impl)
		return;
	dlclose(impl->handle);
	free(impl->library);
	free(impl);
}

int hb_impl_hash(const hb_impl *impl, int digest_bits, const unsigned char *msg,
	unsigned long long msg_bits, unsigned char *out)
{
	/* Small outputs live on the stack; the guard catches writes past the digest. */
	unsigned char stackbuf[2 * GUARD_LEN + 1024], *buf = stackbuf;
	size_t outlen = ((size_t)digest_bits + 7) / 8, i;
	int rc, ret = 0;

	if (digest_bits <= 0)
		return hb_error_set("digest length %d bits is not positive", digest_bits);
	if (outlen + 2 * GUARD_LEN > sizeof(stackbuf)) {
		buf = malloc(outlen + 2 * GUARD_LEN);
		if (!buf)
			return hb_error_set("out of memory for a %d-bit digest", digest_bits);
	}
	memset(buf, GUARD_BYTE, outlen + 2 * GUARD_LEN);
	rc = impl->fn(digest_bits, msg, msg_bits, buf + GUARD_LEN);
	for (i = 0; i < GUARD_LEN; i++) {
		if (buf[i] != GUARD_BYTE || buf[GUARD_LEN + outlen + i] != GUARD_BYTE) {
			ret = hb_error_set("CryptHash wrote outside its %zu-byte output buffer "
				"(message of %llu bits)", outlen, msg_bits);
			goto out;
		}
	}
	if (rc != 0) {
		ret = hb_error_set("CryptHash returned %d for a message of %llu bits", rc, msg_bits);
		goto out;
	}
	memcpy(out, buf + GUARD_LEN, outlen);
out:
	if (buf != stackbuf)
		free(buf);
	return ret;
}
