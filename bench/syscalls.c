/* syscalls.c — the system calls a sandboxed child may still make once submission code runs,
 * as a seccomp filter built with libseccomp, and the names of the calls it refuses. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <seccomp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "hbsandbox.h"

/* Decided from what the driver and the KAT generator do after the library is loaded: hash,
 * read the counter and the clock, write the result, free memory, exit. Each entry says why. */
static const struct {
	const char *name, *why;
} S_allowed[] = {
	{ "read", "the cycle counter (perf_event) and files opened before the lockdown" },
	{ "pread64", "the driver's /proc/self/status, opened before the lockdown" },
	{ "write", "the result channel and the captured output" },
	{ "mmap", "memory" },
	{ "munmap", "memory" },
	{ "mremap", "memory" },
	{ "brk", "memory" },
	{ "madvise", "memory" },
	{ "mprotect", "memory" },
	{ "clock_gettime", "the clock (when the vDSO falls back to the kernel)" },
	{ "clock_getres", "the clock" },
	{ "gettimeofday", "the clock" },
	{ "fstat", "stdio's first write (descriptor only)" },
	{ "newfstatat", "stdio's first write (descriptor only: AT_EMPTY_PATH)" },
	{ "futex", "glibc's locks and once-only initialisation (pthread_once)" },
	{ "rt_sigreturn", "returning from a signal handler" },
	{ "rt_sigprocmask", "abort()" },
	{ "getpid", "abort()" },
	{ "gettid", "abort()" },
	{ "tgkill", "abort() (SIGABRT only)" },
	{ "exit", "exiting" },
	{ "exit_group", "exiting" },
};

#if defined(__SANITIZE_ADDRESS__)
#define S_SANITIZER 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define S_SANITIZER 1
#endif
#endif

/* The sanitizer build's runtime (AddressSanitizer, UBSan) makes these on its own account. */
static const struct {
	const char *name, *why;
} S_sanitizer[] = {
#ifdef S_SANITIZER
	{ "sigaltstack", "the sanitizer runtime's signal stack" },
	{ "sched_yield", "the sanitizer runtime's spin locks" },
	{ "getrlimit", "the sanitizer runtime" },
	{ "prlimit64", "the sanitizer runtime" },
#endif
	{ NULL, NULL }
};

#define S_NALLOWED (sizeof(S_allowed) / sizeof(S_allowed[0]))

const char *hb_syscall_allowed(size_t i)
{
	size_t k;
	if (i < S_NALLOWED)
		return S_allowed[i].name;
	for (k = 0; S_sanitizer[k].name; k++)
		if (k == i - S_NALLOWED)
			return S_sanitizer[k].name;
	return NULL;
}

/* The filter for arch (SCMP_ARCH_NATIVE: this machine's): every allowed call that exists there,
 * another architecture's calls killed; NULL with the error set. */
static scmp_filter_ctx S_filter(uint32_t arch)
{
	scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_TRAP);
	size_t i;
	int rc = 0;

	if (!ctx) {
		hb_error_set("seccomp: cannot start a filter");
		return NULL;
	}
	if (arch != SCMP_ARCH_NATIVE && seccomp_arch_native() != arch &&
		((rc = seccomp_arch_add(ctx, arch)) != 0 ||
		(rc = seccomp_arch_remove(ctx, SCMP_ARCH_NATIVE)) != 0))
		goto fail;
	/* another architecture's calls (int 0x80 on x86-64) are refused without a report */
	if ((rc = seccomp_attr_set(ctx, SCMP_FLTATR_ACT_BADARCH, SCMP_ACT_KILL_PROCESS)) != 0)
		goto fail;
	for (i = 0; hb_syscall_allowed(i); i++) {
		const char *name = hb_syscall_allowed(i);
		int nr;
		if (seccomp_syscall_resolve_name_arch(arch, name) == __NR_SCMP_ERROR)
			continue; /* not a call of that architecture (fstat on aarch64) */
		/* named by this machine's number; libseccomp translates it by name for arch */
		nr = seccomp_syscall_resolve_name(name);
		if (strcmp(name, "tgkill") == 0)
			rc = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, nr, 1, SCMP_A2(SCMP_CMP_EQ, SIGABRT));
		else if (strcmp(name, "newfstatat") == 0)
			rc = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, nr, 1,
				SCMP_A3(SCMP_CMP_MASKED_EQ, AT_EMPTY_PATH, AT_EMPTY_PATH));
		else
			rc = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, nr, 0);
		if (rc != 0)
			goto fail;
	}
	return ctx;
fail:
	seccomp_release(ctx);
	hb_error_set("seccomp: cannot build the filter: %s", strerror(rc < 0 ? -rc : EINVAL));
	return NULL;
}

int hb_syscall_filter(int *out_fd)
{
	scmp_filter_ctx ctx = S_filter(SCMP_ARCH_NATIVE);
	int fd, rc;

	*out_fd = -1;
	if (!ctx)
		return -1;
	fd = memfd_create("hashbench-seccomp", MFD_CLOEXEC);
	if (fd < 0) {
		seccomp_release(ctx);
		return hb_error_set("seccomp: memfd_create: %s", strerror(errno));
	}
	if ((rc = seccomp_export_bpf(ctx, fd)) != 0) {
		close(fd);
		seccomp_release(ctx);
		return hb_error_set("seccomp: cannot build the filter: %s", strerror(-rc));
	}
	seccomp_release(ctx);
	*out_fd = fd;
	return 0;
}

int hb_syscall_filter_text(const char *arch, int fd)
{
	uint32_t a = seccomp_arch_resolve_name(arch);
	scmp_filter_ctx ctx;
	int rc;

	if (a == 0)
		return hb_error_set("%s: not an architecture libseccomp knows", arch);
	if (!(ctx = S_filter(a)))
		return -1;
	rc = seccomp_export_pfc(ctx, fd);
	seccomp_release(ctx);
	return rc == 0 ? 0 : hb_error_set("seccomp: cannot write the filter: %s", strerror(-rc));
}

void hb_syscall_name(char *buf, size_t n, int nr)
{
	char *name = seccomp_syscall_resolve_num_arch(SCMP_ARCH_NATIVE, nr);
	if (name)
		snprintf(buf, n, "%s", name);
	else
		snprintf(buf, n, "system call %d", nr);
	free(name);
}
