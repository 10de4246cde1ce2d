/* lockdown.c — the last step of a sandboxed child before it calls submission code: a SIGSYS
 * reporter that names a forbidden system call, then the seccomp filter. libc only: the timing
 * driver links it too, so its memory figures stay the library's. */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "hbtiming.h"

static int S_report_fd = -1;

static void S_on_sigsys(int sig, siginfo_t *si, void *ctx)
{
	char line[64] = HB_VIOLATION_TAG, digits[16];
	size_t n = strlen(line), k = 0;
	int nr = si->si_syscall;
	ssize_t w;

	(void)sig;
	(void)ctx;
	if (nr < 0)
		nr = 0;
	do {
		digits[k++] = (char)('0' + nr % 10);
		nr /= 10;
	} while (nr && k < sizeof(digits));
	while (k)
		line[n++] = digits[--k];
	line[n++] = '\n';
	w = write(S_report_fd, line, n);
	(void)w;
	/* The handler was installed with SA_RESETHAND and SIGSYS is blocked while it runs: the
	 * same call again is trapped once more, and the kernel, finding SIGSYS blocked, ends the
	 * process with it. */
	syscall(si->si_syscall, 0, 0, 0, 0, 0, 0);
	_exit(125);
}

int hb_lockdown_read(void **out_insns, unsigned short *out_count, int fd)
{
	struct stat st;
	struct sock_filter *insns;
	size_t got = 0;

	*out_insns = NULL;
	*out_count = 0;
	if (fstat(fd, &st) != 0)
		return -1;
	if (st.st_size <= 0 || st.st_size % (off_t)sizeof(*insns) != 0 ||
		st.st_size / (off_t)sizeof(*insns) > BPF_MAXINSNS) {
		errno = EINVAL;
		return -1;
	}
	insns = malloc((size_t)st.st_size);
	if (!insns)
		return -1;
	while (got < (size_t)st.st_size) {
		ssize_t n = pread(fd, (char *)insns + got, (size_t)st.st_size - got, (off_t)got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			free(insns);
			errno = n == 0 ? EINVAL : errno;
			return -1;
		}
		got += (size_t)n;
	}
	*out_insns = insns;
	*out_count = (unsigned short)(got / sizeof(*insns));
	return 0;
}

int hb_lockdown(const void *insns, unsigned short count, int report_fd)
{
	struct sock_fprog prog = { count, (struct sock_filter *)insns };
	struct sigaction sa;
	sigset_t set;

	S_report_fd = report_fd;
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = S_on_sigsys;
	sa.sa_flags = SA_SIGINFO | SA_RESETHAND;
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGSYS, &sa, NULL) != 0)
		return -1;
	/* a constructor may have blocked SIGSYS to hide from the reporter */
	sigemptyset(&set);
	sigaddset(&set, SIGSYS);
	if (sigprocmask(SIG_UNBLOCK, &set, NULL) != 0)
		return -1;
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0)
		return -1;
	return prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog, 0, 0) == 0 ? 0 : -1;
}
