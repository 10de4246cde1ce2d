/* sandbox.c — one sandbox for every child that runs submission code, its parent side: what the
 * kernel allows (probed once), the private working folder, starting the child in its namespaces
 * (confine.c sets it up), watching it with a time limit, bounding its output and telling how it
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

/* Under user-mode emulation the emulator runs the driver with threads of its own (qemu-user:
 * one for RCU and one per guest thread), counted against the sandbox user: what two drivers at
 * once need, still too few to fork a swarm. */
#define S_EMULATOR_THREADS 16

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
	unsigned processes; /* RLIMIT_NPROC: 0, or S_EMULATOR_THREADS under emulation */
	char scratch[512];
	FILE *warn;
} S = { .filter_fd = -1, .memory_limit = HB_SANDBOX_MEMORY_DEFAULT, .scratch = "/tmp" };


/* ---- watching a child ---- */

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
static void S_outcome(hb_child *out, const hb_confine_job *job, const char *report, int status,
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

static int S_spawn(hb_child *out, hb_confine_job *job, const char *library, char **report_text)
{
	int res[2] = { -1, -1 }, rep[2] = { -1, -1 }, outp[2] = { -1, -1 }, status = 0;
	int timed_out = 0, rc = 0, exited = 0;
	S_sink sinks[3] = { { .fd = -1 }, { .fd = -1 }, { .fd = -1 } }; /* never closes stdin */
	char workdir[600] = "";
	struct timespec t0;
	long quiet_since = -1;
	pid_t pid;
	size_t i;

	memset(out, 0, sizeof(*out));
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
		hb_confine_child(job);
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

static void hb_confine_job_defaults(hb_confine_job *job)
{
	memset(job, 0, sizeof(*job));
	job->exe_fd = -1;
	job->lib_fd = -1;
	job->baton_fd = -1;
	if (S.disabled)
		return;
	job->sandboxed = 1;
	job->ns_flags = S.ns_flags;
	job->readonly = S.readonly;
	job->landlock = S.landlock;
	job->seccomp = S.seccomp;
	job->switch_user = S.as_root;
	job->filter_fd = S.filter_fd;
	job->uid = S.uid;
	job->gid = S.gid;
	job->memory_limit = S.memory_limit;
	job->processes = S.processes;
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
	hb_confine_job job;
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
		hb_confine_job_defaults(&job);
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
	S.processes = hb_emulated() ? S_EMULATOR_THREADS : 0;
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
		HB_CONFINE_ASAN ? json_null() : json_integer((json_int_t)S.memory_limit));
	json_object_set_new(limits, "file_size_bytes", json_integer(0));
	json_object_set_new(limits, "open_files", json_integer(HB_CONFINE_NOFILE));
	json_object_set_new(limits, "processes", json_integer(S.processes));
	json_object_set_new(limits, "core_bytes", json_integer(0));
	json_object_set_new(limits, "output_bytes", json_integer(HB_CHILD_OUTPUT_MAX));
	json_object_set_new(j, "limits", limits);
	return j;
}

/* ---- running children ---- */

int hb_sandbox_call(hb_child *out, const char *library, unsigned timeout_s, hb_child_fn fn,
	void *arg)
{
	hb_confine_job job;
	S_ensure();
	hb_confine_job_defaults(&job);
	job.fn = fn;
	job.arg = arg;
	job.timeout_s = timeout_s;
	return S_spawn(out, &job, library, NULL);
}

int hb_sandbox_exec(hb_child *out, const char *library, unsigned timeout_s, char *const argv[])
{
	return hb_sandbox_exec_baton(out, library, timeout_s, argv, -1);
}

int hb_sandbox_exec_baton(hb_child *out, const char *library, unsigned timeout_s,
	char *const argv[], int baton_fd)
{
	hb_confine_job job;
	int rc;
	S_ensure();
	hb_confine_job_defaults(&job);
	job.baton_fd = baton_fd;
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
