/* test_syscalls.c — the sandbox's system-call filter as it is built for arm64 and for x86-64, on
 * whatever machine runs the test: exactly the allowed calls, each under that architecture's own
 * number (the kernel's tables, written out here), tgkill for SIGABRT only, everything else
 * trapped and another architecture's calls killed. */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "hbsandbox.h"
#include "support.h"

typedef struct {
	const char *name;
	int aarch64, x86_64;
} S_call;

/* From the kernel: include/uapi/asm-generic/unistd.h (arm64) and
 * arch/x86/entry/syscalls/syscall_64.tbl. */
static const S_call S_calls[] = {
	{ "read", 63, 0 }, { "pread64", 67, 17 }, { "write", 64, 1 }, { "mmap", 222, 9 },
	{ "munmap", 215, 11 }, { "mremap", 216, 25 }, { "brk", 214, 12 }, { "madvise", 233, 28 },
	{ "mprotect", 226, 10 }, { "clock_gettime", 113, 228 }, { "clock_getres", 114, 229 },
	{ "gettimeofday", 169, 96 }, { "fstat", 80, 5 }, { "newfstatat", 79, 262 },
	{ "futex", 98, 202 }, { "rt_sigreturn", 139, 15 }, { "rt_sigprocmask", 135, 14 },
	{ "getpid", 172, 39 }, { "gettid", 178, 186 }, { "tgkill", 131, 234 }, { "exit", 93, 60 },
	{ "exit_group", 94, 231 },
	/* the sanitizer build's runtime */
	{ "sigaltstack", 132, 131 }, { "sched_yield", 124, 24 }, { "getrlimit", 163, 97 },
	{ "prlimit64", 261, 302 },
};
#define NCALLS (sizeof(S_calls) / sizeof(S_calls[0]))

/* The filter for arch as libseccomp's pseudo filter code. */
static char *S_text(const char *arch)
{
	int fd;
	char *text;
	off_t len;
	/* libseccomp asks the kernel which actions it has; qemu-user has no seccomp(2) to answer */
	HBT_SKIP_UNDER_EMULATION("seccomp(2), which libseccomp asks before it builds a filter");
	fd = memfd_create("filter", 0);
	cr_assert(fd >= 0);
	cr_assert_eq(hb_syscall_filter_text(arch, fd), 0, "%s: %s", arch, hb_error_last());
	len = lseek(fd, 0, SEEK_END);
	cr_assert(len > 0);
	text = calloc(1, (size_t)len + 1);
	cr_assert_eq(pread(fd, text, (size_t)len, 0), len);
	close(fd);
	return text;
}

static int S_allowed(const char *name)
{
	size_t i;
	for (i = 0; hb_syscall_allowed(i); i++)
		if (strcmp(hb_syscall_allowed(i), name) == 0)
			return 1;
	return 0;
}

/* Every call the filter lets through is an allowed one under arch's number, and every allowed
 * call is there. */
static void S_check(const char *arch, const char *audit_arch, const char *other_arch)
{
	char *text = S_text(arch), *line, *save = NULL, *copy = strdup(text);
	int aarch64 = strcmp(arch, "aarch64") == 0;
	size_t i, seen = 0, allowed = 0;

	cr_expect(strstr(text, audit_arch), "%s: the filter does not test for its architecture (%s):"
		"\n%s", arch, audit_arch, text);
	cr_expect(!strstr(text, other_arch), "%s: the filter also admits the other architecture "
		"(%s)", arch, other_arch);
	cr_expect(strstr(text, "action KILL_PROCESS;"), "%s: another architecture's calls are not "
		"killed:\n%s", arch, text);
	cr_expect(strstr(text, "action TRAP;"), "%s: a refused call is not trapped:\n%s", arch, text);
	for (line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char name[64];
		int nr;
		const S_call *c = NULL;
		if (sscanf(line, " # filter for syscall \"%63[^\"]\" (%d)", name, &nr) != 2)
			continue;
		for (i = 0; i < NCALLS; i++)
			if (strcmp(S_calls[i].name, name) == 0)
				c = &S_calls[i];
		cr_expect(c && S_allowed(name), "%s: the filter lets %s (%d) through, which the sandbox "
			"does not allow", arch, name, nr);
		if (c)
			cr_expect_eq(nr, aarch64 ? c->aarch64 : c->x86_64, "%s: %s is call %d there, the "
				"filter has %d", arch, name, aarch64 ? c->aarch64 : c->x86_64, nr);
		seen++;
	}
	for (i = 0; hb_syscall_allowed(i); i++) {
		char want[96];
		allowed++;
		snprintf(want, sizeof(want), "syscall \"%s\"", hb_syscall_allowed(i));
		cr_expect(strstr(text, want), "%s: the allowed call %s is not in the filter", arch,
			hb_syscall_allowed(i));
	}
	cr_expect_eq(seen, allowed, "%s: %zu calls in the filter, %zu allowed", arch, seen, allowed);
	/* tgkill only to raise SIGABRT (6): abort(), never another signal to another thread */
	line = strstr(text, "syscall \"tgkill\"");
	cr_assert(line, "%s: no tgkill in the filter", arch);
	if ((save = strstr(line + 1, "# filter for syscall")) != NULL)
		*save = 0; /* tgkill's block only */
	save = strstr(line, "== 6");
	cr_expect(strstr(line, "$a2") && save && (save[4] < '0' || save[4] > '9'),
		"%s: tgkill is not limited to SIGABRT:\n%s", arch, line);
	free(copy);
	free(text);
}

Test(syscalls, the_arm64_filter_allows_the_same_calls_under_arm64_numbers)
{
	/* AUDIT_ARCH_AARCH64 0xc00000b7, AUDIT_ARCH_X86_64 0xc000003e */
	S_check("aarch64", "$arch == 3221225655", "3221225534");
}

Test(syscalls, the_x86_64_filter_allows_the_same_calls_under_x86_64_numbers)
{
	S_check("x86_64", "$arch == 3221225534", "3221225655");
}

Test(syscalls, an_unknown_architecture_is_named)
{
	int fd = memfd_create("filter", 0);
	cr_assert(fd >= 0);
	cr_expect_eq(hb_syscall_filter_text("pdp11", fd), -1);
	cr_expect(strstr(hb_error_last(), "pdp11"), "the error does not name it: %s",
		hb_error_last());
	close(fd);
}
