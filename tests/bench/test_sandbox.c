/* test_sandbox.c — hostile libraries are contained: nothing outside the child changes, no
 * connection, no process left, no secret in the evidence; each hostile record says why it failed
 * and the well-behaved instance beside them is fully timed. As root and as a normal user. */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <criterion/criterion.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <netinet/in.h>
#include <pwd.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "hbsandbox.h"
#include "support.h"

#define HOSTILE HBT_FIXTURES "/hostile"
#define VICTIMS "/tmp/hashbench-hostile-test"
#define SECRET "TOPSECRET-4711-do-not-leak"

/* The files the hostile fixtures aim at; the secret readable by root alone. */
static void S_victims(void)
{
	cr_assert_eq(system("rm -rf " VICTIMS), 0);
	cr_assert_eq(mkdir(VICTIMS, 0755), 0, "%s", strerror(errno));
	hbt_write(VICTIMS "/secret", SECRET "\n", strlen(SECRET) + 1);
	cr_assert_eq(chmod(VICTIMS "/secret", 0600), 0);
	hbt_write(VICTIMS "/victim", "still here\n", 11);
}

/* What is in VICTIMS now, sorted names joined by spaces. */
static char *S_listing(const char *dir)
{
	char cmd[512], *out = NULL;
	size_t cap = 0;
	FILE *p;
	snprintf(cmd, sizeof(cmd), "ls -A '%s' | tr '\\n' ' '", dir);
	p = popen(cmd, "r");
	cr_assert(p);
	if (getdelim(&out, &cap, 0, p) < 0) {
		free(out);
		out = strdup("");
	}
	pclose(p);
	return out;
}

static int S_listener(void)
{
	struct sockaddr_in a;
	int one = 1, s = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
	cr_assert(s >= 0);
	setsockopt(s, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	memset(&a, 0, sizeof(a));
	a.sin_family = AF_INET;
	a.sin_port = htons(47931);
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	cr_assert_eq(bind(s, (struct sockaddr *)&a, sizeof(a)), 0, "port 47931: %s", strerror(errno));
	cr_assert_eq(listen(s, 8), 0);
	return s;
}

/* Processes named hb-hostile-kid anywhere on the machine. */
static int S_kids(void)
{
	DIR *d = opendir("/proc");
	struct dirent *de;
	int n = 0;
	cr_assert(d);
	while ((de = readdir(d)) != NULL) {
		char path[300], comm[64] = "";
		FILE *f;
		if (de->d_name[0] < '0' || de->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/%s/comm", de->d_name);
		if (!(f = fopen(path, "r")))
			continue;
		if (fgets(comm, sizeof(comm), f) && strncmp(comm, "hb-hostile-kid", 14) == 0)
			n++;
		fclose(f);
	}
	closedir(d);
	return n;
}

/* Every file under dir that contains needle. */
static int S_grep_tree(const char *dir, const char *needle)
{
	char cmd[600];
	snprintf(cmd, sizeof(cmd), "grep -rlF '%s' '%s' >&2", needle, dir);
	return system(cmd) == 0;
}

static json_t *S_record(const char *sys, const char *alg, const char *inst, int bytes)
{
	char *p = hb_sprintf("%s/records/%s/%s__hash_%d.json", sys, alg, inst, bytes);
	json_t *j = json_load_file(p, 0, NULL);
	cr_assert(j, "no record %s", p);
	free(p);
	return j;
}

static const char *S_str(json_t *j, const char *key)
{
	const char *v = json_string_value(json_object_get(j, key));
	return v ? v : "";
}

static void S_expect_failed_in(const char *sys, const char *alg, const char *inst,
	const char *status, const char *detail)
{
	json_t *j = S_record(sys, alg, inst, 4096);
	cr_expect_str_eq(S_str(j, "status"), status, "%s: %s", inst, S_str(j, "detail"));
	cr_expect_str_eq(S_str(j, "detail"), detail, "%s: %s, expected %s", inst,
		S_str(j, "detail"), detail);
	cr_expect_eq(json_array_size(json_object_get(j, "trials")), 0);
	json_decref(j);
	j = S_record(sys, alg, inst, 32);
	cr_expect_str_eq(S_str(j, "status"), "ok", "%s: harmless on 32 bytes", inst);
	json_decref(j);
}

static void S_expect_failed(const char *sys, const char *inst, const char *status,
	const char *detail)
{
	S_expect_failed_in(sys, "hostile", inst, status, detail);
}

/* A copy of hashbench a normal user can run wherever the checkout lies (a clone under a private
 * 0700 folder is out of its reach): the build installed into a fresh folder under /tmp, with
 * the hostile packages beside it. Fills *exe and *hostile; returns the folder (caller removes). */
static char *S_stage(char **exe, char **hostile)
{
	char tmpl[] = "/tmp/hbt-sandbox-XXXXXX", cmd[1400], *dir;

	cr_assert_not_null(mkdtemp(tmpl), "%s", strerror(errno));
	cr_assert_eq(chmod(tmpl, 0755), 0);
	dir = strdup(tmpl);
	snprintf(cmd, sizeof(cmd), "cmake --install '%s' --prefix '%s/prefix' >/dev/null && "
		"cp -R '%s' '%s/hostile' && chmod -R a+rX '%s'", HBT_BUILD_DIR, dir, HOSTILE, dir, dir);
	cr_assert_eq(system(cmd), 0, "%s", cmd);
	*exe = hb_path_join(dir, "prefix/bin/hashbench");
	*hostile = hb_path_join(dir, "hostile");
	return dir;
}

/* The campaign over the hostile and constructor packages; as uid (0: this process's user). */
static void S_contained(const char *name, uid_t uid, gid_t gid, int user_ns)
{
	char *stage = NULL, *exe = strdup(HBT_HASHBENCH), *hostile = strdup(HOSTILE);
	char *base, *data, *work, *sys, *listing;
	char errpath[600];
	int listener, status;
	pid_t pid;
	json_t *j;

	if (uid) {
		free(exe);
		free(hostile);
		stage = S_stage(&exe, &hostile);
		base = hb_path_join(stage, name);
		cr_assert_eq(hb_mkdir_p(base), 0);
	} else {
		base = hbt_tmpdir(name);
	}
	data = hb_path_join(base, "data");
	work = hb_path_join(base, "work");
	sys = hb_path_join(data, "hx");
	S_victims();
	listener = S_listener();
	cr_assert_eq(hb_mkdir_p(work), 0);
	if (uid && chown(base, uid, (gid_t)-1) == 0)
		cr_assert_eq(chown(work, uid, (gid_t)-1), 0);
	snprintf(errpath, sizeof(errpath), "%s/stderr", base);
	fflush(NULL);
	pid = fork();
	cr_assert(pid >= 0);
	if (pid == 0) {
		int fd = open(errpath, O_WRONLY | O_CREAT | O_TRUNC, 0666);
		const char *argv[] = { exe, "run", "--system", "hx", "--profile", "quick",
			"--submissions", hostile, "--only", "hostile,ctor", "--data", data, "--work", work,
			"--sizes", "32,4096", "--sets", "loop", "--time-failed", "--time-limit", "20", NULL };
		if (uid && (setgid(gid) != 0 || setuid(uid) != 0))
			_exit(126);
		dup2(fd, 1);
		dup2(fd, 2);
		close(listener);
		execv(argv[0], (char *const *)argv);
		_exit(127);
	}
	waitpid(pid, &status, 0);
	{
		hb_buf err = { 0 };
		cr_assert_eq(hb_file_read(&err, errpath), 0);
		cr_expect(WIFEXITED(status) && WEXITSTATUS(status) == 1, "ends with failures: %s",
			(char *)err.data);
		cr_expect(strstr((char *)err.data, "campaign hx finished: ") != NULL,
			"the campaign ends with its summary: %s", (char *)err.data);
		hb_buf_free(&err);
	}

	/* nothing outside the children changed */
	listing = S_listing(VICTIMS);
	cr_expect_str_eq(listing, "secret victim ", "only the test's own files remain");
	free(listing);
	cr_expect_eq(accept(listener, NULL, NULL), -1, "the listener saw no connection");
	cr_expect_eq(errno, EAGAIN);
	close(listener);
	cr_expect_eq(S_kids(), 0, "no process of the libraries is left");
	listing = S_listing(work);
	cr_expect(strstr(listing, "hashbench-sandbox-") == NULL, "working folders removed: %s",
		listing);
	free(listing);
	cr_expect(!S_grep_tree(data, "TOPSECRET"), "the secret is in no evidence file");

	/* the first call each makes that the filter refuses */
	S_expect_failed(sys, "tmpfile_256", "violation", "violation: openat");
	S_expect_failed(sys, "delete_256", "violation", "violation: unlink");
	S_expect_failed(sys, "connect_256", "violation", "violation: socket");
	/* glibc's system() ignores SIGINT and SIGQUIT before it starts the shell */
	S_expect_failed(sys, "system_256", "violation", "violation: rt_sigaction");
	S_expect_failed(sys, "exec_256", "violation", "violation: execve");
	S_expect_failed(sys, "fork_256", "violation", "violation: clone");
	S_expect_failed(sys, "secret_256", "violation", "violation: openat");

	j = S_record(sys, "hostile", "good_256", 4096);
	cr_expect_str_eq(S_str(j, "status"), "ok");
	cr_expect_gt(json_array_size(json_object_get(j, "trials")), 0, "fully timed");
	cr_expect(json_is_true(json_object_get(json_object_get(j, "sandbox"), "seccomp")));
	cr_expect_str_eq(S_str(json_object_get(j, "sandbox"), "user"), "nobody");
	{
		json_t *ns = json_object_get(json_object_get(j, "sandbox"), "namespaces");
		size_t i;
		int has_user = 0;
		cr_expect_geq(json_array_size(ns), 5, "pid, net, ipc, uts, mount");
		for (i = 0; i < json_array_size(ns); i++)
			has_user |= strcmp(json_string_value(json_array_get(ns, i)), "user") == 0;
		cr_expect_eq(has_user, user_ns, "a user namespace exactly when not root");
	}
	json_decref(j);

	/* before the filter, the constructor met every other layer: its trace says it ran to its
	 * end, each attempt refused by the layer that holds it, the one file it may make made */
	j = S_record(sys, "ctor", "ctor_256", 4096);
	cr_expect_str_eq(S_str(j, "status"), "ok", "contained, then timed");
	{
		json_int_t abi = json_integer_value(json_object_get(json_object_get(j, "sandbox"),
			"landlock_abi"));
		char *want = hb_sprintf(
			/* the read-only view */
			"ctor: create " VICTIMS "/ctor-created: Read-only file system\n"
			"ctor: delete " VICTIMS "/victim: Read-only file system\n"
			/* Landlock's TCP rules (ABI 4), else the network namespace's missing route */
			"ctor: connect to 127.0.0.1:47931: %s\n"
			/* no second process for the sandbox user */
			"ctor: fork: Resource temporarily unavailable\n"
			"ctor: fork: Resource temporarily unavailable\n"
			/* the unprivileged user (and Landlock) */
			"ctor: read " VICTIMS "/secret: Permission denied\n"
			"ctor: create ctor-ran in its working folder: done\n"
			"ctor: through\n", abi >= 4 ? "Permission denied" : "Network is unreachable");
		cr_expect_str_eq(S_str(j, "output"), want, "the constructor's trace:\n%s",
			S_str(j, "output"));
		free(want);
	}
	json_decref(j);

	j = json_load_file(hb_path_join(sys, "system.json"), 0, NULL);
	cr_assert(j);
	cr_expect(json_is_true(json_object_get(json_object_get(j, "sandbox"), "enabled")));
	json_decref(j);
	cr_expect_gt(hbt_evidence_check_tree(data), 20);
	cr_assert_eq(system("rm -rf " VICTIMS), 0);
	if (stage) {
		char cmd[600];
		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", stage);
		cr_expect_eq(system(cmd), 0);
	}
	free(stage);
	free(exe);
	free(hostile);
	free(sys);
	free(work);
	free(data);
	free(base);
}

Test(sandbox, hostile_libraries_are_contained_as_root, .timeout = HBT_TIMEOUT(600))
{
	if (geteuid() != 0)
		cr_skip_test("runs as root (CI does)");
	HBT_SKIP_UNDER_EMULATION("seccomp, namespaces or Landlock (the sandbox)");
	S_contained("hostile-root", 0, 0, 0);
}

Test(sandbox, hostile_libraries_are_contained_as_a_normal_user, .timeout = HBT_TIMEOUT(600))
{
	struct passwd *pw = getpwnam("nobody");
	int status;
	pid_t pid;

	if (geteuid() != 0 || !pw)
		cr_skip_test("needs root to become the user nobody");
	HBT_SKIP_UNDER_EMULATION("seccomp, namespaces or Landlock (the sandbox)");
	/* does this machine give a normal user namespaces? */
	pid = fork();
	if (pid == 0) {
		if (setgid(pw->pw_gid) != 0 || setuid(pw->pw_uid) != 0)
			_exit(2);
		_exit(unshare(CLONE_NEWUSER | CLONE_NEWNS) == 0 ? 0 : 1);
	}
	waitpid(pid, &status, 0);
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
		cr_skip_test("this machine does not give a normal user namespaces");
	S_contained("hostile-user", pw->pw_uid, pw->pw_gid, 1);
}

Test(sandbox, a_library_that_kills_everything_is_contained, .timeout = HBT_TIMEOUT(300))
{
	char *data = hbt_tmpdir("killer"), *sys = hb_path_join(data, "kx"), *out, *err;
	const char *args[] = { "run", "--system", "kx", "--profile", "quick", "--submissions",
		HOSTILE, "--only", "killer", "--data", data, "--sizes", "32,4096", "--sets", "loop",
		"--time-failed", "--time-limit", "20", NULL };
	json_t *j;

	HBT_SKIP_UNDER_EMULATION("the seccomp filter that stops the killer");
	/* a PID namespace of this test's own: a broken sandbox cannot hurt the machine */
	if (unshare(CLONE_NEWPID) != 0)
		cr_skip_test("this machine refuses a PID namespace: %s", strerror(errno));
	cr_expect_eq(hbt_cli(&out, &err, NULL, args), 1, "%s", err);
	cr_expect(strstr(err, "campaign kx finished: ") != NULL, "hashbench survived: %s", err);
	j = S_record(sys, "killer", "kill_256", 4096);
	cr_expect_str_eq(S_str(j, "status"), "violation");
	cr_expect_str_eq(S_str(j, "detail"), "violation: kill", "the first kill is refused: %s",
		S_str(j, "detail"));
	json_decref(j);
	j = S_record(sys, "killer", "good_256", 4096);
	cr_expect_str_eq(S_str(j, "status"), "ok");
	json_decref(j);
	free(out);
	free(err);
	free(sys);
	free(data);
}

Test(sandbox, a_library_that_allocates_8_gib_stops_at_the_memory_limit, .timeout = HBT_TIMEOUT(300))
{
	char *data = hbt_tmpdir("memory"), *sys = hb_path_join(data, "mx"), *out, *err;
	const char *args[] = { "run", "--system", "mx", "--profile", "quick", "--submissions",
		HOSTILE, "--only", "memory", "--data", data, "--sizes", "32,4096", "--sets", "loop",
		"--time-failed", "--time-limit", "60", "--memory-limit", "1G", NULL };
	json_t *j;

#if defined(__SANITIZE_ADDRESS__)
	cr_skip_test("AddressSanitizer reserves terabytes of address space: this build sets no "
		"address-space limit (the normal build tests it)");
#endif
	HBT_SKIP_UNDER_EMULATION("an address-space limit of its own (the emulator maps the "
		"guest's memory inside its own)");
	cr_expect_eq(hbt_cli(&out, &err, NULL, args), 1, "%s", err);
	cr_expect(strstr(err, "campaign mx finished: ") != NULL, "%s", err);
	S_expect_failed_in(sys, "memory", "memory_256", "error",
		"CryptHash returned non-zero for a 4096-byte message (warm-up)");
	j = S_record(sys, "memory", "memory_256", 4096);
	cr_expect_eq(json_integer_value(json_object_get(json_object_get(json_object_get(j,
		"sandbox"), "limits"), "address_space_bytes")), 1LL << 30);
	json_decref(j);
	free(out);
	free(err);
	free(sys);
	free(data);
}

Test(sandbox, no_sandbox_is_recorded, .timeout = HBT_TIMEOUT(300))
{
	char *data = hbt_tmpdir("nosandbox"), *sys = hb_path_join(data, "nx"), *out, *err;
	const char *args[] = { "run", "--system", "nx", "--profile", "quick", "--submissions",
		HBT_FIXTURES "/submissions", "--only", "toy-1", "--data", data, "--sizes", "32",
		"--sets", "loop", "--no-sandbox", NULL };
	json_t *j;

	cr_expect_eq(hbt_cli(&out, &err, NULL, args), 0, "%s", err);
	j = json_load_file(hb_path_join(sys, "system.json"), 0, NULL);
	cr_assert(j);
	cr_expect(json_is_false(json_object_get(json_object_get(j, "sandbox"), "enabled")));
	json_decref(j);
	j = S_record(sys, "toy-1", "toy_256", 32);
	cr_expect_str_eq(S_str(j, "status"), "ok");
	cr_expect(json_is_false(json_object_get(json_object_get(j, "sandbox"), "enabled")));
	json_decref(j);
	free(out);
	free(err);
	free(sys);
	free(data);
}

Test(sandbox, bad_sandbox_options_are_refused_in_one_line)
{
	char *out, *err;
	const char *user[] = { "digest", "SM3", "--sandbox-user", "no-such-user-here", NULL };
	const char *mem[] = { "digest", "SM3", "--memory-limit", "12Q", NULL };
	cr_expect_eq(hbt_cli(&out, &err, NULL, user), 2);
	cr_expect(strstr(err, "--sandbox-user no-such-user-here: no such user\n") != NULL, "%s", err);
	free(out);
	free(err);
	cr_expect_eq(hbt_cli(&out, &err, NULL, mem), 2);
	cr_expect(strstr(err, "--memory-limit 12Q: expected a size") != NULL, "%s", err);
	free(out);
	free(err);
}

/* ---- the module itself, with functions of this test as the "library" ---- */

static int S_socket(const hb_impl *impl, void *arg, int fd)
{
	(void)impl;
	(void)arg;
	(void)fd;
	return socket(AF_INET, SOCK_STREAM, 0) >= 0 ? 0 : 1;
}

static int S_chatty(const hb_impl *impl, void *arg, int fd)
{
	static char line[1000];
	int k;
	(void)impl;
	(void)arg;
	memset(line, 'x', sizeof(line) - 2);
	line[sizeof(line) - 2] = '\n';
	for (k = 0; k < 100; k++)
		fputs(line, stdout);
	return write(fd, "result\n", 7) == 7 ? 0 : 1;
}

static int S_abort(const hb_impl *impl, void *arg, int fd)
{
	(void)impl;
	(void)arg;
	(void)fd;
	abort();
}

static int S_spin(const hb_impl *impl, void *arg, int fd)
{
	volatile unsigned long n = 0;
	(void)impl;
	(void)arg;
	(void)fd;
	for (;;)
		n++;
	return 0;
}

Test(sandbox, children_report_how_they_ended, .timeout = HBT_TIMEOUT(120))
{
	hb_child c;
	char *why;

	cr_assert_eq(hb_sandbox_configure(NULL, NULL), 0, "%s", hb_error_last());
	HBT_SKIP_UNDER_EMULATION("the seccomp filter");
	if (!hb_sandbox_seccomp())
		cr_skip_test("this kernel has no seccomp filter");
	cr_assert_eq(hb_sandbox_call(&c, NULL, 10, S_socket, NULL), 0, "%s", hb_error_last());
	why = hb_child_describe(&c);
	cr_expect_eq(c.status, HB_CHILD_VIOLATION);
	cr_expect_str_eq(why, "violation: socket");
	free(why);
	hb_child_clear(&c);

	cr_assert_eq(hb_sandbox_call(&c, NULL, 10, S_chatty, NULL), 0);
	cr_expect_eq(c.status, HB_CHILD_OK, "%s", hb_child_status_name(&c));
	cr_expect_eq(c.output_len, HB_CHILD_OUTPUT_MAX, "printed output is bounded");
	cr_expect(c.output_truncated);
	cr_expect_str_eq((char *)c.result.data, "result\n", "the result channel is apart");
	hb_child_clear(&c);

	cr_assert_eq(hb_sandbox_call(&c, NULL, 10, S_abort, NULL), 0);
	why = hb_child_describe(&c);
	cr_expect_eq(c.status, HB_CHILD_CRASH, "abort() is a crash, not a violation: %s", why);
	cr_expect_eq(c.code, SIGABRT);
	free(why);
	hb_child_clear(&c);

	cr_assert_eq(hb_sandbox_call(&c, NULL, 1, S_spin, NULL), 0);
	why = hb_child_describe(&c);
	cr_expect_eq(c.status, HB_CHILD_TIMEOUT, "%s", why);
	free(why);
	hb_child_clear(&c);
}
