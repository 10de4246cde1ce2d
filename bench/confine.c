/* confine.c — the child's side of the sandbox: in the new namespaces, the read-only view, the
 * working folder, Landlock, the unprivileged user and the limits; then the driver runs, or the
 * library is loaded, the seccomp filter applied and the call made. A small PID 1 reports how it
 * ended. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <grp.h>
#include <linux/capability.h>
#include <linux/landlock.h>
#include <poll.h>
#include <pwd.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "hbsandbox.h"
#include "sandbox_child.h"

static void S_report(int fd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void S_report(int fd, const char *fmt, ...)
{
	char line[512];
	va_list ap;
	int n;
	ssize_t w;
	va_start(ap, fmt);
	n = vsnprintf(line, sizeof(line) - 1, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n > sizeof(line) - 2)
		n = (int)sizeof(line) - 2;
	line[n++] = '\n';
	w = write(fd, line, (size_t)n);
	(void)w;
}

/* A step of the setup failed: in a probe, say so and go on without it; else stop. */
static int S_step(const hb_confine_job *job, int ok, const char *feature, const char *what)
{
	if (ok)
		return 1;
	if (job->probe) {
		S_report(job->report_w, "off %s %s: %s", feature, what, strerror(errno));
		return 0;
	}
	S_report(job->report_w, "setup %s: %s", what, strerror(errno));
	_exit(125);
}

static int S_write_file(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	ssize_t n;
	if (fd < 0)
		return -1;
	n = write(fd, text, strlen(text));
	close(fd);
	return n == (ssize_t)strlen(text) ? 0 : -1;
}

static int S_userns_map(uid_t uid, gid_t gid)
{
	char line[64];
	if (S_write_file("/proc/self/setgroups", "deny") != 0)
		return -1;
	snprintf(line, sizeof(line), "%lu %lu 1", (unsigned long)uid, (unsigned long)uid);
	if (S_write_file("/proc/self/uid_map", line) != 0)
		return -1;
	snprintf(line, sizeof(line), "%lu %lu 1", (unsigned long)gid, (unsigned long)gid);
	return S_write_file("/proc/self/gid_map", line);
}

/* Everything read-only, the working folder writable, a /proc of this PID namespace. */
static int S_mounts(const hb_confine_job *job)
{
	struct mount_attr ro = { .attr_set = MOUNT_ATTR_RDONLY | MOUNT_ATTR_NOSUID };
	struct mount_attr rw = { .attr_clr = MOUNT_ATTR_RDONLY };

	if (!S_step(job, mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) == 0, "readonly",
			"making the mounts private"))
		return 0;
	if (!S_step(job, mount(job->workdir, job->workdir, NULL, MS_BIND, NULL) == 0, "readonly",
			"binding the working folder"))
		return 0;
	if (!S_step(job, mount_setattr(AT_FDCWD, "/", AT_RECURSIVE, &ro, sizeof(ro)) == 0,
			"readonly", "making the file system read-only"))
		return 0;
	if (!S_step(job, mount_setattr(AT_FDCWD, job->workdir, 0, &rw, sizeof(rw)) == 0,
			"readonly", "making the working folder writable"))
		return 0;
	if (!S_step(job, mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC | MS_RDONLY,
			NULL) == 0, "readonly", "mounting /proc"))
		return 0;
	return 1;
}

static void S_landlock_rule(int ruleset, const char *path, int fd, unsigned long long access,
	unsigned long long handled)
{
	struct landlock_path_beneath_attr pb;
	int own = fd < 0;
	if (own && (fd = open(path, O_PATH | O_CLOEXEC)) < 0)
		return; /* not on this system (/lib32, say) */
	pb.allowed_access = access & handled;
	pb.parent_fd = fd;
	syscall(SYS_landlock_add_rule, ruleset, LANDLOCK_RULE_PATH_BENEATH, &pb, 0);
	if (own)
		close(fd);
}

/* Read and run the system's programs and libraries; read /etc, /proc, /sys and /dev; all of
 * the working folder; nothing else. From ABI 4, no TCP; from ABI 6, no signals or abstract
 * sockets outside the sandbox. */
static int S_landlock(const hb_confine_job *job)
{
	struct {
		unsigned long long fs, net, scoped;
	} attr = { 0, 0, 0 };
	const unsigned long long rx = LANDLOCK_ACCESS_FS_EXECUTE | LANDLOCK_ACCESS_FS_READ_FILE |
		LANDLOCK_ACCESS_FS_READ_DIR;
	const unsigned long long r = LANDLOCK_ACCESS_FS_READ_FILE | LANDLOCK_ACCESS_FS_READ_DIR;
	static const char *exec_paths[] = { "/usr", "/lib", "/lib64", "/lib32", "/bin", "/sbin" };
	static const char *read_paths[] = { "/etc", "/proc", "/sys", "/dev" };
	size_t attr_size = 8, i;
	int rs, rc;

	attr.fs = (LANDLOCK_ACCESS_FS_MAKE_SYM << 1) - 1; /* every ABI 1 right */
	if (job->landlock >= 2)
		attr.fs |= 1ULL << 13; /* REFER */
	if (job->landlock >= 3)
		attr.fs |= 1ULL << 14; /* TRUNCATE */
	if (job->landlock >= 4) {
		attr.net = 3; /* BIND_TCP, CONNECT_TCP */
		attr_size = 16;
	}
	if (job->landlock >= 6) {
		attr.scoped = 3; /* ABSTRACT_UNIX_SOCKET, SIGNAL */
		attr_size = 24;
	}
	rs = (int)syscall(SYS_landlock_create_ruleset, &attr, attr_size, 0);
	if (!S_step(job, rs >= 0, "landlock", "creating the Landlock rules"))
		return 0;
	for (i = 0; i < sizeof(exec_paths) / sizeof(exec_paths[0]); i++)
		S_landlock_rule(rs, exec_paths[i], -1, rx, attr.fs);
	for (i = 0; i < sizeof(read_paths) / sizeof(read_paths[0]); i++)
		S_landlock_rule(rs, read_paths[i], -1, r, attr.fs);
	S_landlock_rule(rs, "/dev/null", -1, LANDLOCK_ACCESS_FS_WRITE_FILE, attr.fs);
	S_landlock_rule(rs, ".", -1, attr.fs, attr.fs);
	if (job->exe_fd >= 0)
		S_landlock_rule(rs, NULL, HB_CONFINE_EXE_FD, LANDLOCK_ACCESS_FS_EXECUTE |
			LANDLOCK_ACCESS_FS_READ_FILE, attr.fs);
	rc = (int)syscall(SYS_landlock_restrict_self, rs, 0);
	close(rs);
	return S_step(job, rc == 0, "landlock", "applying the Landlock rules");
}

static int S_drop_caps(void)
{
	struct __user_cap_header_struct h = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct d[2];
	memset(d, 0, sizeof(d));
	return (int)syscall(SYS_capset, &h, d);
}

static void S_limit(int resource, rlim_t soft, rlim_t hard)
{
	struct rlimit rl = { soft, hard };
	setrlimit(resource, &rl);
}

static void S_limits(const hb_confine_job *job)
{
	if (job->timeout_s)
		S_limit(RLIMIT_CPU, job->timeout_s + 1, job->timeout_s + 2); /* the wall clock first */
	if (!HB_CONFINE_ASAN)
		S_limit(RLIMIT_AS, job->memory_limit, job->memory_limit);
	S_limit(RLIMIT_FSIZE, 0, 0);
	S_limit(RLIMIT_NOFILE, HB_CONFINE_NOFILE, HB_CONFINE_NOFILE);
	S_limit(RLIMIT_CORE, 0, 0);
	S_limit(RLIMIT_MEMLOCK, 0, 0);
	/* after the user switch: counted against that user, any fork now fails (under emulation
	 * the emulator's own threads, no more) */
	S_limit(RLIMIT_NPROC, job->processes, job->processes);
}

/* fds to 3.., stdin from /dev/null, stdout and stderr to the capture */
static void S_fds(const hb_confine_job *job)
{
	int src[6] = { job->result_w, job->report_w, job->lib_fd,
		job->sandboxed && job->seccomp ? job->filter_fd : -1, job->exe_fd, job->baton_fd },
		hi[6], i;
	int null = open("/dev/null", O_RDONLY | O_CLOEXEC);

	for (i = 0; i < 6; i++)
		hi[i] = src[i] >= 0 ? fcntl(src[i], F_DUPFD_CLOEXEC, 64) : -1;
	if (null >= 0)
		dup2(null, 0);
	dup2(job->output_w, 1);
	dup2(job->output_w, 2);
	for (i = 0; i < 6; i++)
		if (hi[i] >= 0)
			dup2(hi[i], HB_CHILD_RESULT_FD + i);
	fcntl(HB_CONFINE_EXE_FD, F_SETFD, FD_CLOEXEC); /* gone once the driver runs */
	close_range(HB_CHILD_BATON_FD + 1, ~0U, 0);
	if (job->baton_fd < 0)
		close(HB_CHILD_BATON_FD);
}

static char **S_env(void)
{
	static char *env[8]; /* at most 5 and HB_DRIVER_START (the exec path), then NULL */
	static char asan[256];
	static const char *keep[] = { "UBSAN_OPTIONS", "LSAN_OPTIONS" };
	const char *a = getenv("ASAN_OPTIONS");
	size_t n = 0, i;

	env[n++] = "PATH=/usr/bin:/bin";
	env[n++] = "LANG=C";
	/* LeakSanitizer's exit check stops the world with ptrace: not inside the filter */
	snprintf(asan, sizeof(asan), "ASAN_OPTIONS=%s%sdetect_leaks=0", a ? a : "", a && *a ? ":" : "");
	env[n++] = asan;
	for (i = 0; i < sizeof(keep) / sizeof(keep[0]); i++) {
		const char *v = getenv(keep[i]);
		if (v)
			env[n++] = hb_sprintf("%s=%s", keep[i], v);
	}
	env[n] = NULL;
	return env;
}

static void S_worker(const hb_confine_job *job) __attribute__((noreturn));
static void S_worker(const hb_confine_job *job)
{
	static const int fatal[] = { SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGPIPE, SIGXCPU,
		SIGXFSZ, SIGSYS };
	char **env = S_env();
	size_t k;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	for (k = 0; k < sizeof(fatal) / sizeof(fatal[0]); k++)
		signal(fatal[k], SIG_DFL);
	S_fds(job);
	if (job->workdir && chdir(job->workdir) != 0)
		S_step(job, 0, "readonly", "entering the working folder");
	if (job->sandboxed) {
		S_step(job, prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == 0, "seccomp", "no new privileges");
		if (job->landlock)
			S_landlock(job);
		if (job->switch_user) {
			S_step(job, setgroups(0, NULL) == 0 && setresgid(job->gid, job->gid, job->gid) == 0 &&
				setresuid(job->uid, job->uid, job->uid) == 0, "user", "switching to the sandbox user");
		} else {
			S_step(job, S_drop_caps() == 0, "user", "dropping capabilities");
		}
		prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
		S_limits(job);
	}
	if (job->argv) {
		/* how the driver was started, which it writes into its output (S_env leaves room) */
		size_t n = 0;
		while (env[n])
			n++;
		env[n] = (char *)"HB_DRIVER_START=execveat";
		env[n + 1] = NULL;
		clearenv();
		syscall(SYS_execveat, HB_CONFINE_EXE_FD, "", job->argv, env, AT_EMPTY_PATH);
		if (errno == ENOSYS || errno == ENOENT) {
			/* no execveat (qemu-user), or a program run through an interpreter (binfmt_misc),
			 * which cannot open a close-on-exec descriptor: the same open file by its /proc
			 * name, left open for the interpreter */
			char self[64];
			snprintf(self, sizeof(self), "/proc/self/fd/%d", HB_CONFINE_EXE_FD);
			fcntl(HB_CONFINE_EXE_FD, F_SETFD, 0);
			env[n] = (char *)"HB_DRIVER_START=/proc/self/fd";
			execve(self, job->argv, env);
		}
		S_report(HB_CHILD_REPORT_FD, "setup running %s: %s", job->argv[0], strerror(errno));
		_exit(125);
	} else {
		hb_impl *impl = NULL;
		void *insns = NULL;
		unsigned short count = 0;
		int rc;

		clearenv();
		for (k = 0; env[k]; k++)
			putenv(env[k]);
		if (job->library && hb_impl_open(&impl, job->library) != 0) {
			S_report(HB_CHILD_REPORT_FD, "error %s", hb_error_last());
			_exit(1);
		}
		if (job->sandboxed && job->seccomp) {
			if (hb_lockdown_read(&insns, &count, HB_CHILD_FILTER_FD) != 0 ||
				hb_lockdown(insns, count, HB_CHILD_REPORT_FD) != 0) {
				S_report(HB_CHILD_REPORT_FD, "%s the seccomp filter: %s",
					job->probe ? "off seccomp" : "setup", strerror(errno));
				_exit(job->probe ? 0 : 125);
			}
		}
		rc = job->fn(impl, job->arg, HB_CHILD_RESULT_FD);
		if (rc != 0)
			S_report(HB_CHILD_REPORT_FD, "error %s", hb_error_last());
		fflush(stdout);
		fflush(stderr);
		_exit(rc == 0 ? 0 : 1);
	}
}

/* PID 1 of the sandbox's PID namespace: waits for the worker and reports how it ended.
 * When it ends, the kernel ends everything left in the namespace. */
static void S_init(pid_t worker, int report_fd) __attribute__((noreturn));
static void S_init(pid_t worker, int report_fd)
{
	int status = 0, fd = fcntl(report_fd, F_DUPFD_CLOEXEC, 64);
	pid_t p;

	close_range(0, 63, 0);
	prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
	while ((p = waitpid(-1, &status, 0)) != worker)
		if (p < 0 && errno != EINTR)
			_exit(125);
	if (WIFSIGNALED(status))
		S_report(fd, "signal %d", WTERMSIG(status));
	else
		S_report(fd, "exit %d", WEXITSTATUS(status));
	_exit(0);
}

void hb_confine_child(const hb_confine_job *job)
{
	pid_t worker;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	setsid(); /* kill(0, …) reaches nothing but the sandbox */
	if (job->ns_flags) {
		if (job->ns_flags & CLONE_NEWUSER)
			S_step(job, S_userns_map(getuid(), getgid()) == 0, "user", "mapping the user");
		if (job->readonly)
			S_mounts(job);
		sethostname("sandbox", 7);
		fflush(NULL);
		worker = fork();
		if (worker < 0)
			S_step(job, 0, "namespaces", "starting the worker");
		if (worker > 0)
			S_init(worker, job->report_w);
	}
	S_worker(job);
}
