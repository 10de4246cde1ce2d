/* cpulock.c — one campaign per timing CPU: a campaign holds an flock on
 * /run/lock/hashbench-cpu<N>.lock (HASHBENCH_LOCK_DIR elsewhere) for every CPU it times on, from
 * the start of its schedule to its end; a second one waits, saying who holds it, or stops. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "hbutil.h"

static const char *S_dir(void)
{
	const char *d = getenv("HASHBENCH_LOCK_DIR");
	if (d && *d)
		return d;
	return access("/run/lock", W_OK) == 0 ? "/run/lock" : "/tmp";
}

char *hb_cpulock_path(int cpu)
{
	return hb_sprintf("%s/hashbench-cpu%d.lock", S_dir(), cpu);
}

int hb_cpulock_take(int *out_fd, int cpu, int wait, const char *who, FILE *msg)
{
	char *path = hb_cpulock_path(cpu), holder[256] = "";
	int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0666), writable = fd >= 0;
	ssize_t n;

	*out_fd = -1;
	if (fd >= 0)
		(void)fchmod(fd, 0666); /* every user's campaigns share it (works for its owner only) */
	else if (errno == EACCES) /* another user's: a lock needs no write access, the note does */
		fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		int rc = hb_error_set("%s: cannot open the lock of CPU %d: %s", path, cpu, strerror(errno));
		free(path);
		return rc;
	}
	if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
		if (errno != EWOULDBLOCK) {
			int rc = hb_error_set("%s: cannot lock CPU %d: %s", path, cpu, strerror(errno));
			close(fd);
			free(path);
			return rc;
		}
		n = pread(fd, holder, sizeof(holder) - 1, 0);
		holder[n > 0 ? n : 0] = 0;
		holder[strcspn(holder, "\n")] = 0;
		if (!wait) {
			int rc = hb_error_set("CPU %d is timing another campaign (%s; %s): not waiting "
				"(--no-wait)", cpu, holder[0] ? holder : "holder unknown", path);
			close(fd);
			free(path);
			return rc;
		}
		fprintf(msg, "hashbench: CPU %d is timing another campaign (%s); waiting for it to "
			"finish (--no-wait to stop instead)\n", cpu, holder[0] ? holder : "holder unknown");
		fflush(msg);
		while (flock(fd, LOCK_EX) != 0)
			if (errno != EINTR) {
				int rc = hb_error_set("%s: cannot lock CPU %d: %s", path, cpu, strerror(errno));
				close(fd);
				free(path);
				return rc;
			}
	}
	/* who holds it, for the next one to say */
	if (writable && ftruncate(fd, 0) == 0) {
		char line[320];
		int len = snprintf(line, sizeof(line), "pid %ld, %s\n", (long)getpid(), who);
		if (pwrite(fd, line, (size_t)len, 0) < 0)
			(void)0; /* the lock holds without its note */
	}
	free(path);
	*out_fd = fd;
	return 0;
}

void hb_cpulock_release(int fd)
{
	if (fd >= 0)
		close(fd); /* closing the last descriptor releases the flock */
}
