/* sandbox.c — one sandbox for every child that runs submission code: namespaces, a read-only
 * view of the file system with an empty private working folder, Landlock, an unprivileged
 * user, resource limits, the seccomp filter, and a parent that watches, bounds and reports. */
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

#include "sandbox.h"

#ifndef AT_RECURSIVE
#define AT_RECURSIVE 0x8000
#endif
#if defined(__SANITIZE_ADDRESS__)
#define S_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define S_ASAN 1
#endif
#endif
#ifndef S_ASAN
#define S_ASAN 0
#endif

#define S_NOFILE 16
#define S_EXE_FD (HB_CHILD_FILTER_FD + 1) /* exec path: the driver, until it runs */
#define S_NS_ALL (CLONE_NEWPID | CLONE_NEWNET | CLONE_NEWIPC | CLONE_NEWUTS | CLONE_NEWNS)

/* What this process's children get; set by hb_sandbox_configure, probed once. */
static struct {
	int configured, disabled, probed;
	int as_root;
	int ns_flags;   /* namespaces in use (CLONE_NEW*) */
	int readonly;   /* the read-only view with a private working folder */
	int landlock;   /* Landlock ABI in use, 0: none */
	int seccomp;
	int filter_fd;
	uid_t uid;
	gid_t gid;
	char user[64];
	unsigned long long memory_limit;
	char scratch[512];
	FILE *warn;
} S = { .filter_fd = -1, .memory_limit = HB_SANDBOX_MEMORY_DEFAULT, .scratch = "/tmp" };

/* One child's setup, as the parent prepared it. */
typedef struct {
	const char *library;   /* fork path: the path to dlopen */
	hb_child_fn fn;
	void *arg;
	char *const *argv;     /* exec path */
	int exe_fd;            /* exec path: the driver, opened by the parent */
	int lib_fd;            /* sandboxed: a memfd copy of the library */
	int result_w, report_w, output_w;
	const char *workdir;   /* sandboxed: the private working folder */
	unsigned timeout_s;
	int probe;             /* report what fails instead of stopping */
	int sandboxed, ns_flags, readonly, landlock, seccomp, switch_user;
} S_job;

/* ---- the child ---- */

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
static int S_step(const S_job *job, int ok, const char *feature, const char *what)
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
static int S_mounts(const S_job *job)
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
static int S_landlock(const S_job *job)
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
		S_landlock_rule(rs, NULL, S_EXE_FD, LANDLOCK_ACCESS_FS_EXECUTE |
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

static void S_limits(const S_job *job)
{
	if (job->timeout_s)
		S_limit(RLIMIT_CPU, job->timeout_s + 1, job->timeout_s + 2); /* the wall clock first */
	if (!S_ASAN)
		S_limit(RLIMIT_AS, S.memory_limit, S.memory_limit);
	S_limit(RLIMIT_FSIZE, 0, 0);
	S_limit(RLIMIT_NOFILE, S_NOFILE, S_NOFILE);
	S_limit(RLIMIT_CORE, 0, 0);
	S_limit(RLIMIT_MEMLOCK, 0, 0);
	/* after the user switch: counted against that user, any fork now fails */
	S_limit(RLIMIT_NPROC, 0, 0);
}

/* fds to 3.., stdin from /dev/null, stdout and stderr to the capture */
static void S_fds(const S_job *job)
{
	int src[5] = { job->result_w, job->report_w, job->lib_fd,
		job->sandboxed && job->seccomp ? S.filter_fd : -1, job->exe_fd }, hi[5], i;
	int null = open("/dev/null", O_RDONLY | O_CLOEXEC);

	for (i = 0; i < 5; i++)
		hi[i] = src[i] >= 0 ? fcntl(src[i], F_DUPFD_CLOEXEC, 64) : -1;
	if (null >= 0)
		dup2(null, 0);
	dup2(job->output_w, 1);
	dup2(job->output_w, 2);
	for (i = 0; i < 5; i++)
		if (hi[i] >= 0)
			dup2(hi[i], HB_CHILD_RESULT_FD + i);
	fcntl(S_EXE_FD, F_SETFD, FD_CLOEXEC); /* gone once the driver runs */
	close_range(S_EXE_FD + 1, ~0U, 0);
}

static char **S_env(void)
{
	static char *env[8];
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

static void S_worker(const S_job *job) __attribute__((noreturn));
static void S_worker(const S_job *job)
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
			S_step(job, setgroups(0, NULL) == 0 && setresgid(S.gid, S.gid, S.gid) == 0 &&
				setresuid(S.uid, S.uid, S.uid) == 0, "user", "switching to the sandbox user");
		} else {
			S_step(job, S_drop_caps() == 0, "user", "dropping capabilities");
		}
		prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
		S_limits(job);
	}
	if (job->argv) {
		clearenv();
		syscall(SYS_execveat, S_EXE_FD, "", job->argv, env, AT_EMPTY_PATH);
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

static void S_child(const S_job *job) __attribute__((noreturn));
static void S_child(const S_job *job)
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

/* ---- the parent ---- */

static int S_rm(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	return flag == FTW_DP ? rmdir(path) : unlink(path);
}

static int S_memfd_copy(const char *path)
{
	int in = open(path, O_RDONLY | O_CLOEXEC), fd;
	char buf[65536];
	ssize_t n;

	if (in < 0)
		return hb_error_set("%s: %s", path, strerror(errno));
	fd = memfd_create("library", MFD_CLOEXEC);
	if (fd < 0) {
		close(in);
		return hb_error_set("memfd_create: %s", strerror(errno));
	}
	while ((n = read(in, buf, sizeof(buf))) > 0)
		if (write(fd, buf, (size_t)n) != n) {
			n = -1;
			break;
		}
	close(in);
	if (n < 0) {
		close(fd);
		return hb_error_set("%s: copying for the sandbox: %s", path, strerror(errno));
	}
	return fd;
}

typedef struct {
	int fd;
	unsigned char *data;
	size_t len, cap, max, dropped;
} S_sink;

/* Read what is there; 0 at end of file. */
static int S_drain(S_sink *s)
{
	char buf[65536];
	ssize_t n = read(s->fd, buf, sizeof(buf));
	size_t keep;
	if (n < 0)
		return errno == EINTR || errno == EAGAIN ? 1 : 0;
	if (n == 0)
		return 0;
	keep = s->len + (size_t)n > s->max ? s->max - s->len : (size_t)n;
	s->dropped += (size_t)n - keep;
	if (keep && s->len + keep + 1 > s->cap) {
		size_t cap = s->cap ? s->cap : 4096;
		unsigned char *grown;
		while (cap < s->len + keep + 1)
			cap *= 2;
		if (!(grown = realloc(s->data, cap))) {
			s->dropped += keep;
			return 1;
		}
		s->data = grown;
		s->cap = cap;
	}
	if (keep)
		memcpy(s->data + s->len, buf, keep);
	s->len += keep;
	return 1;
}

static long S_ms_since(const struct timespec *t0)
{
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	return (now.tv_sec - t0->tv_sec) * 1000 + (now.tv_nsec - t0->tv_nsec) / 1000000;
}

/* Make sense of the report lines and the wait status. */
static void S_outcome(hb_child *out, const S_job *job, const char *report, int status,
	int timed_out)
{
	const char *line;
	int ended = 0, sig = 0, code = 0, nr = -1;
	char *setup = NULL;

	if (WIFSIGNALED(status)) {
		sig = WTERMSIG(status);
		ended = 1;
	} else {
		code = WEXITSTATUS(status);
	}
	for (line = report; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
		size_t len = strcspn(line, "\n");
		if (strncmp(line, HB_VIOLATION_TAG, strlen(HB_VIOLATION_TAG)) == 0 && nr < 0)
			nr = atoi(line + strlen(HB_VIOLATION_TAG));
		else if (strncmp(line, "error ", 6) == 0 && !out->message)
			out->message = strndup(line + 6, len - 6);
		else if (strncmp(line, "setup ", 6) == 0 && !setup)
			setup = strndup(line + 6, len - 6);
		else if (job->ns_flags && strncmp(line, "signal ", 7) == 0) {
			sig = atoi(line + 7);
			ended = 1;
		} else if (job->ns_flags && strncmp(line, "exit ", 5) == 0) {
			code = atoi(line + 5);
			sig = 0;
			ended = 1;
		}
	}
	if (job->ns_flags && !ended && !timed_out) {
		/* PID 1 died without a word: only a signal from outside does that */
		sig = WIFSIGNALED(status) ? WTERMSIG(status) : SIGKILL;
	}
	if (timed_out || sig == SIGXCPU) {
		out->status = HB_CHILD_TIMEOUT;
		out->code = sig;
	} else if (sig == SIGSYS) {
		out->status = HB_CHILD_VIOLATION;
		out->code = sig;
		if (nr >= 0)
			hb_syscall_name(out->call, sizeof(out->call), nr);
	} else if (sig) {
		out->status = HB_CHILD_CRASH;
		out->code = sig;
	} else if (code == 125 && setup) {
		out->status = HB_CHILD_SETUP;
		out->code = code;
		free(out->message);
		out->message = setup;
		setup = NULL;
	} else {
		out->status = code == 0 ? HB_CHILD_OK : HB_CHILD_FAILED;
		out->code = code;
	}
	free(setup);
}

static int S_spawn(hb_child *out, S_job *job, const char *library, char **report_text)
{
	int res[2] = { -1, -1 }, rep[2] = { -1, -1 }, outp[2] = { -1, -1 }, status = 0;
	int timed_out = 0, rc = 0, exited = 0;
	S_sink sinks[3];
	char workdir[600] = "";
	struct timespec t0;
	long quiet_since = -1;
	pid_t pid;
	size_t i;

	memset(out, 0, sizeof(*out));
	memset(sinks, 0, sizeof(sinks));
	out->timeout_s = job->timeout_s;
	job->lib_fd = -1;
	if (job->sandboxed && library) {
		if ((job->lib_fd = S_memfd_copy(library)) < 0)
			return HB_ERROR;
		job->library = HB_CHILD_LIBRARY_PATH;
	} else {
		job->library = library;
	}
	if (job->sandboxed) {
		snprintf(workdir, sizeof(workdir), "%s/hashbench-sandbox-XXXXXX", S.scratch);
		if (!mkdtemp(workdir)) {
			rc = hb_error_set("%s: cannot make a working folder: %s", S.scratch, strerror(errno));
			goto out;
		}
		if (job->switch_user && chown(workdir, S.uid, S.gid) != 0) {
			rc = hb_error_set("%s: %s", workdir, strerror(errno));
			goto out;
		}
		job->workdir = workdir;
	}
	if (pipe2(res, O_CLOEXEC) != 0 || pipe2(rep, O_CLOEXEC) != 0 || pipe2(outp, O_CLOEXEC) != 0) {
		rc = hb_error_set("pipe: %s", strerror(errno));
		goto out;
	}
	job->result_w = res[1];
	job->report_w = rep[1];
	job->output_w = outp[1];
	fflush(NULL);
	if (job->ns_flags)
		pid = (pid_t)syscall(SYS_clone, (unsigned long)job->ns_flags | SIGCHLD, 0, 0, 0, 0);
	else
		pid = fork();
	if (pid < 0) {
		rc = hb_error_set("starting a sandboxed child: %s", strerror(errno));
		goto out;
	}
	if (pid == 0)
		S_child(job);
	close(res[1]);
	close(rep[1]);
	close(outp[1]);
	res[1] = rep[1] = outp[1] = -1;
	sinks[0].fd = res[0];
	sinks[0].max = (size_t)1 << 34;
	sinks[1].fd = rep[0];
	sinks[1].max = 4096;
	sinks[2].fd = outp[0];
	sinks[2].max = HB_CHILD_OUTPUT_MAX;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (;;) {
		struct pollfd pfd[3];
		nfds_t n = 0;
		int open_sinks = 0;
		for (i = 0; i < 3; i++)
			if (sinks[i].fd >= 0) {
				pfd[n].fd = sinks[i].fd;
				pfd[n].events = POLLIN;
				pfd[n].revents = 0;
				n++;
				open_sinks++;
			}
		if (!exited && waitpid(pid, &status, WNOHANG) == pid)
			exited = 1;
		if (exited && (!open_sinks || (quiet_since >= 0 && S_ms_since(&t0) - quiet_since > 200)))
			break; /* without namespaces, a grandchild may hold the pipes: not for ever */
		if (!exited && job->timeout_s && S_ms_since(&t0) >= (long)job->timeout_s * 1000) {
			if (!job->ns_flags)
				kill(-pid, SIGKILL);
			kill(pid, SIGKILL);
			timed_out = 1;
		}
		if (n == 0) {
			usleep(20000);
			continue;
		}
		if (poll(pfd, n, 50) > 0) {
			nfds_t k = 0;
			for (i = 0; i < 3; i++) {
				if (sinks[i].fd < 0)
					continue;
				if (pfd[k].revents && !S_drain(&sinks[i])) {
					close(sinks[i].fd);
					sinks[i].fd = -1;
				}
				k++;
			}
			quiet_since = -1;
		} else if (exited && quiet_since < 0) {
			quiet_since = S_ms_since(&t0);
		}
	}
	if (!job->ns_flags)
		kill(-pid, SIGKILL); /* whatever it started (with namespaces: gone with PID 1) */
	if (!exited)
		while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
			;
	{
		char *report = sinks[1].data ? (char *)sinks[1].data : NULL;
		if (report)
			report[sinks[1].len] = 0;
		S_outcome(out, job, report, status, timed_out);
		if (report_text) {
			*report_text = report;
			sinks[1].data = NULL;
		}
	}
	out->result.data = sinks[0].data;
	out->result.len = sinks[0].len;
	sinks[0].data = NULL;
	if (out->result.data)
		out->result.data[out->result.len] = 0;
	out->output = sinks[2].data ? (char *)sinks[2].data : calloc(1, 1);
	if (sinks[2].data)
		out->output[sinks[2].len] = 0;
	out->output_len = sinks[2].len;
	out->output_truncated = sinks[2].dropped > 0;
	sinks[2].data = NULL;
out:
	for (i = 0; i < 3; i++) {
		if (sinks[i].fd >= 0)
			close(sinks[i].fd);
		free(sinks[i].data);
	}
	for (i = 0; i < 2; i++) {
		if (res[i] >= 0)
			close(res[i]);
		if (rep[i] >= 0)
			close(rep[i]);
		if (outp[i] >= 0)
			close(outp[i]);
	}
	if (job->lib_fd >= 0)
		close(job->lib_fd);
	if (workdir[0] && job->workdir)
		nftw(workdir, S_rm, 16, FTW_DEPTH | FTW_PHYS | FTW_MOUNT);
	return rc;
}

/* ---- configuration ---- */

static void S_job_defaults(S_job *job)
{
	memset(job, 0, sizeof(*job));
	job->exe_fd = -1;
	job->lib_fd = -1;
	if (S.disabled)
		return;
	job->sandboxed = 1;
	job->ns_flags = S.ns_flags;
	job->readonly = S.readonly;
	job->landlock = S.landlock;
	job->seccomp = S.seccomp;
	job->switch_user = S.as_root;
}

static int S_probe_fn(const hb_impl *impl, void *arg, int fd)
{
	(void)impl;
	(void)arg;
	(void)fd;
	return 0;
}

static void S_warn_off(const char *feature, const char *why)
{
	if (S.warn)
		fprintf(S.warn, "hashbench: warning: sandbox without %s: %s\n", feature, why);
}

/* Try every protection once in a child of its own, keep what works. */
static void S_probe(void)
{
	S_job job;
	hb_child c;
	char *report = NULL, *line;
	int abi;

	S.probed = 1;
	abi = (int)syscall(SYS_landlock_create_ruleset, NULL, 0, LANDLOCK_CREATE_RULESET_VERSION);
	S.landlock = abi > 0 ? abi : 0;
	if (abi <= 0)
		S_warn_off("Landlock", "the kernel does not offer it");
	S.ns_flags = S_NS_ALL | (S.as_root ? 0 : CLONE_NEWUSER);
	S.readonly = 1;
	for (;;) {
		S_job_defaults(&job);
		job.probe = 1;
		job.fn = S_probe_fn;
		if (S_spawn(&c, &job, NULL, &report) == 0)
			break;
		/* the namespaces themselves are refused */
		if (!S.ns_flags) {
			hb_child_clear(&c);
			return;
		}
		S_warn_off("namespaces", hb_error_last());
		S.ns_flags = 0;
		S.readonly = 0;
	}
	for (line = report; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
		char feature[32], *nl = strchr(line, '\n');
		if (strncmp(line, "off ", 4) != 0 || sscanf(line + 4, "%31s", feature) != 1)
			continue;
		if (nl)
			*nl = 0;
		if (strcmp(feature, "readonly") == 0 && S.readonly) {
			S.readonly = 0;
			S_warn_off("a read-only file system", line + 5 + strlen(feature));
		} else if (strcmp(feature, "landlock") == 0 && S.landlock) {
			S.landlock = 0;
			S_warn_off("Landlock", line + 5 + strlen(feature));
		} else if (strcmp(feature, "seccomp") == 0 && S.seccomp) {
			S.seccomp = 0;
			S_warn_off("the seccomp filter", line + 5 + strlen(feature));
		} else if (strcmp(feature, "user") == 0) {
			S_warn_off("a user of its own", line + 5 + strlen(feature));
		}
		if (nl)
			*nl = '\n';
	}
	if (c.status != HB_CHILD_OK && S.warn)
		fprintf(S.warn, "hashbench: warning: the sandbox probe ended %s\n",
			hb_child_status_name(&c));
	free(report);
	hb_child_clear(&c);
}

int hb_sandbox_configure(const hb_sandbox_config *cfg, FILE *warn)
{
	hb_sandbox_config none = { 0, NULL, 0, NULL };
	const char *name;

	if (!cfg)
		cfg = &none;
	S.configured = 1;
	S.warn = warn;
	S.disabled = cfg->disabled;
	S.memory_limit = cfg->memory_limit ? cfg->memory_limit : HB_SANDBOX_MEMORY_DEFAULT;
	snprintf(S.scratch, sizeof(S.scratch), "%s", cfg->scratch ? cfg->scratch : "/tmp");
	if (S.disabled)
		return 0;
	S.as_root = geteuid() == 0;
	name = cfg->user ? cfg->user : S.as_root ? "nobody" : NULL;
	if (S.as_root || cfg->user) {
		struct passwd *pw = getpwnam(name);
		if (!pw)
			return hb_error_set("--sandbox-user %s: no such user", name);
		if (!S.as_root && pw->pw_uid != geteuid())
			return hb_error_set("--sandbox-user %s: only root can run children as another "
				"user", name);
		if (S.as_root && pw->pw_uid == 0)
			return hb_error_set("--sandbox-user %s: the sandbox user must not be root", name);
		S.uid = pw->pw_uid;
		S.gid = pw->pw_gid;
		snprintf(S.user, sizeof(S.user), "%s", pw->pw_name);
	} else {
		struct passwd *pw = getpwuid(geteuid());
		S.uid = geteuid();
		S.gid = getegid();
		snprintf(S.user, sizeof(S.user), "%s", pw ? pw->pw_name : "?");
	}
	if (S.probed)
		return 0;
	if (S.filter_fd < 0 && hb_syscall_filter(&S.filter_fd) != 0)
		S_warn_off("the seccomp filter", hb_error_last());
	S.seccomp = S.filter_fd >= 0;
	S_probe();
	return 0;
}

static void S_ensure(void)
{
	if (!S.configured && hb_sandbox_configure(NULL, stderr) != 0)
		S.disabled = 1; /* nobody: reported when the options are given explicitly */
}

int hb_sandbox_enabled(void)
{
	S_ensure();
	return !S.disabled;
}

int hb_sandbox_seccomp(void)
{
	S_ensure();
	return !S.disabled && S.seccomp;
}

const char *hb_sandbox_library_path(const char *library)
{
	S_ensure();
	return !S.disabled ? HB_CHILD_LIBRARY_PATH : library;
}

json_t *hb_sandbox_json(unsigned cpu_seconds)
{
	json_t *j = json_object(), *ns, *limits, *calls;
	static const struct {
		int flag;
		const char *name;
	} names[] = { { CLONE_NEWPID, "pid" }, { CLONE_NEWNET, "net" }, { CLONE_NEWIPC, "ipc" },
		{ CLONE_NEWUTS, "uts" }, { CLONE_NEWNS, "mount" }, { CLONE_NEWUSER, "user" } };
	size_t i;

	S_ensure();
	json_object_set_new(j, "enabled", json_boolean(!S.disabled));
	if (S.disabled)
		return j;
	ns = json_array();
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (S.ns_flags & names[i].flag)
			json_array_append_new(ns, json_string(names[i].name));
	json_object_set_new(j, "namespaces", ns);
	json_object_set_new(j, "filesystem", json_string(S.readonly ?
		"read-only, private working folder" : "as the user sees it"));
	json_object_set_new(j, "landlock", json_boolean(S.landlock > 0));
	if (S.landlock)
		json_object_set_new(j, "landlock_abi", json_integer(S.landlock));
	json_object_set_new(j, "seccomp", json_boolean(S.seccomp));
	if (S.seccomp) {
		calls = json_array();
		for (i = 0; hb_syscall_allowed(i); i++)
			json_array_append_new(calls, json_string(hb_syscall_allowed(i)));
		json_object_set_new(j, "allowed_calls", calls);
	}
	json_object_set_new(j, "user", json_string(S.user));
	limits = json_object();
	json_object_set_new(limits, "cpu_seconds", cpu_seconds ? json_integer(cpu_seconds) : json_null());
	json_object_set_new(limits, "address_space_bytes",
		S_ASAN ? json_null() : json_integer((json_int_t)S.memory_limit));
	json_object_set_new(limits, "file_size_bytes", json_integer(0));
	json_object_set_new(limits, "open_files", json_integer(S_NOFILE));
	json_object_set_new(limits, "processes", json_integer(0));
	json_object_set_new(limits, "core_bytes", json_integer(0));
	json_object_set_new(limits, "output_bytes", json_integer(HB_CHILD_OUTPUT_MAX));
	json_object_set_new(j, "limits", limits);
	return j;
}

/* ---- running children ---- */

int hb_sandbox_call(hb_child *out, const char *library, unsigned timeout_s, hb_child_fn fn,
	void *arg)
{
	S_job job;
	S_ensure();
	S_job_defaults(&job);
	job.fn = fn;
	job.arg = arg;
	job.timeout_s = timeout_s;
	return S_spawn(out, &job, library, NULL);
}

int hb_sandbox_exec(hb_child *out, const char *library, unsigned timeout_s, char *const argv[])
{
	S_job job;
	int rc;
	S_ensure();
	S_job_defaults(&job);
	job.argv = argv;
	job.timeout_s = timeout_s;
	job.exe_fd = open(argv[0], O_PATH | O_CLOEXEC);
	if (job.exe_fd < 0)
		return hb_error_set("%s: %s", argv[0], strerror(errno));
	rc = S_spawn(out, &job, library, NULL);
	close(job.exe_fd);
	return rc;
}

const char *hb_child_status_name(const hb_child *c)
{
	static const char *names[] = { "ok", "error", "crash", "timeout", "violation", "error" };
	return names[c->status];
}

char *hb_child_describe(const hb_child *c)
{
	switch (c->status) {
	case HB_CHILD_OK:
		return NULL;
	case HB_CHILD_FAILED:
		return c->message ? hb_strdup(c->message) :
			hb_sprintf("the child exited with status %d", c->code);
	case HB_CHILD_CRASH:
		return hb_sprintf("the library crashed (signal %d, %s)", c->code, strsignal(c->code));
	case HB_CHILD_TIMEOUT:
		return c->code == SIGXCPU ?
			hb_sprintf("no result within %u s of CPU time (time limit), stopped", c->timeout_s) :
			hb_sprintf("no result after %u s (time limit), stopped", c->timeout_s);
	case HB_CHILD_VIOLATION:
		return hb_sprintf("violation: %s", c->call[0] ? c->call : "a forbidden system call");
	case HB_CHILD_SETUP:
		return hb_sprintf("sandbox: %s", c->message ? c->message : "could not be set up");
	}
	return NULL;
}

void hb_child_clear(hb_child *c)
{
	hb_buf_free(&c->result);
	free(c->output);
	free(c->message);
	memset(c, 0, sizeof(*c));
}
