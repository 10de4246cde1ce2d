/* impl.c — loading one implementation library and calling its CryptHash defensively:
 * guard bytes around the output, and a child process for anything that may crash or hang. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "hashbench.h"

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

int hb_sandbox_run(int (*fn)(void *arg), void *arg, unsigned timeout_s)
{
	int pipefd[2], status = 0;
	char msg[2048];
	size_t len = 0;
	struct timespec start, now;
	pid_t pid;

	fflush(NULL);
	if (pipe2(pipefd, O_CLOEXEC) != 0)
		return hb_error_set("pipe: %s", strerror(errno));
	pid = fork();
	if (pid < 0) {
		close(pipefd[0]);
		close(pipefd[1]);
		return hb_error_set("fork: %s", strerror(errno));
	}
	if (pid == 0) {
		static const int fatal[] = { SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT };
		size_t k;
		int rc;
		close(pipefd[0]);
		/* a crash of the library must end this child with its signal, whatever handlers the
		 * parent had (a sanitizer's, for one) */
		for (k = 0; k < sizeof(fatal) / sizeof(fatal[0]); k++)
			signal(fatal[k], SIG_DFL);
		rc = fn(arg);
		if (rc != 0) {
			const char *m = hb_error_last();
			ssize_t w = write(pipefd[1], m, strlen(m));
			(void)w;
		}
		_exit(rc == 0 ? 0 : 1);
	}
	close(pipefd[1]);
	clock_gettime(CLOCK_MONOTONIC, &start);
	for (;;) {
		struct pollfd pfd = { pipefd[0], POLLIN, 0 };
		long elapsed_ms;
		int pr;

		clock_gettime(CLOCK_MONOTONIC, &now);
		elapsed_ms = (now.tv_sec - start.tv_sec) * 1000 + (now.tv_nsec - start.tv_nsec) / 1000000;
		if (timeout_s && elapsed_ms >= (long)timeout_s * 1000) {
			kill(pid, SIGKILL);
			waitpid(pid, &status, 0);
			close(pipefd[0]);
			return hb_error_set("no result after %u s (time limit), stopped", timeout_s);
		}
		pr = poll(&pfd, 1, 200);
		if (pr < 0 && errno != EINTR)
			break;
		if (pr > 0) {
			ssize_t n = read(pipefd[0], msg + len, sizeof(msg) - 1 - len);
			if (n < 0 && errno == EINTR)
				continue;
			if (n <= 0)
				break; /* child closed its end: it has finished or died */
			len += (size_t)n;
			if (len == sizeof(msg) - 1)
				break;
		}
	}
	close(pipefd[0]);
	msg[len] = 0;
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (WIFSIGNALED(status))
		return hb_error_set("the library crashed (signal %d, %s)", WTERMSIG(status),
			strsignal(WTERMSIG(status)));
	if (WEXITSTATUS(status) != 0)
		return hb_error_set("%s", msg); /* may be empty: the child reported itself */
	return 0;
}
