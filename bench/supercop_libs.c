/* supercop_libs.c — the libraries SUPERCOP builds from its own tree and links into every
 * implementation: XKCP's libkeccak.a (do-part keccak) and Crypto++'s libcryptopp.a (do-part
 * cryptopp), built as do-part builds them, once per tree and compiler line, cached with their
 * logs under work/supercop/. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "hbbuild.h"

/* Crypto++ takes 15-20 minutes on two loaded cores, and more with more load */
#define S_BUILD_LIMIT 3600

static struct timespec S_run_start;

void hb_sc_lib_run_start(void)
{
	clock_gettime(CLOCK_REALTIME, &S_run_start);
}

/* Whether a is at or after b. */
static int S_not_before(const struct timespec *a, const struct timespec *b)
{
	return a->tv_sec > b->tv_sec || (a->tv_sec == b->tv_sec && a->tv_nsec >= b->tv_nsec);
}

void hb_sc_lib_clear(hb_sc_lib *l)
{
	free(l->include_dir);
	free(l->archive);
	free(l->log);
	free(l->error);
	memset(l, 0, sizeof(*l));
}

/* Run argv, its output appended to *log; 0, or the exit status with its last words in *last: the
 * first line that names an error, else the last line it printed. */
static int S_step_out(char **log, char **last, char *const *argv, const char *what, char **out)
{
	char *output = NULL, *more;
	int status = hb_run_capture(&output, argv, S_BUILD_LIMIT);
	more = hb_sprintf("%s$ %s\n%s", *log ? *log : "", what, output ? output : "");
	free(*log);
	*log = more;
	if (status != 0) {
		const char *end = output ? output + strlen(output) : NULL, *start;
		const char *e = output ? strstr(output, "error") : NULL;
		while (end && end > output && end[-1] == '\n')
			end--;
		if (e) {
			end = e + strcspn(e, "\n");
			for (start = e; start > output && start[-1] != '\n'; start--)
				;
		} else {
			for (start = end; start && start > output && start[-1] != '\n'; start--)
				;
		}
		free(*last);
		*last = status == HB_ETIMEOUT ? hb_sprintf("%s: no result after %d s", what,
			S_BUILD_LIMIT) : start && end > start ? hb_sprintf("%s: %.*s", what,
			(int)(end - start), start) : hb_sprintf("%s failed (exit status %d)", what, status);
	}
	if (out && status == 0)
		*out = output;
	else
		free(output);
	return status;
}

static int S_step(char **log, char **last, char *const *argv, const char *what)
{
	return S_step_out(log, last, argv, what, NULL);
}

/* The compiler line split at its first blank: the compiler, then its options. */
static void S_split(const char *line, char **cc, char **opts)
{
	size_t n = strcspn(line, " \t");
	*cc = strndup(line, n);
	*opts = hb_strdup(line[n] ? line + n + 1 : "");
}

/* `./k-targets <abi> <compiler line>`: XKCP's targets to try, best first. */
static char **S_keccak_targets(const char *tree, const char *line, char **log, char **last)
{
	char *script = hb_path_join(tree, "k-targets"), *output = NULL, *tok, *save = NULL;
	char *argv[] = { (char *)"sh", script, (char *)hb_supercop_abi(), (char *)line, NULL };
	hb_strlist t = { 0 };
	if (S_step_out(log, last, argv, "k-targets", &output) == 0)
		for (tok = strtok_r(output, "\n", &save); tok; tok = strtok_r(NULL, "\n", &save))
			hb_strlist_add(&t, hb_strdup(tok));
	free(output);
	free(script);
	return hb_strlist_take(&t);
}

/* A fresh copy of the tree's folder src in work (cp -pR src/. work). */
static int S_fresh_copy(char **log, char **last, const char *src, const char *work)
{
	char *from = hb_sprintf("%s/.", src);
	char *rm[] = { (char *)"rm", (char *)"-rf", (char *)work, NULL };
	char *cp[] = { (char *)"cp", (char *)"-pR", from, (char *)work, NULL };
	int rc = S_step(log, last, rm, "rm -rf") || hb_mkdir_p(work) || S_step(log, last, cp, "cp -pR");
	free(from);
	return rc;
}

/* do-part keccak: for each target, make <target>/libXKCP.a in a copy of k/ with CC and CFLAGS
 * from the line, the first that builds; its headers into include/libkeccak.a.headers. */
static int S_keccak(hb_sc_lib *l, const char *tree, const char *line, const char *dir)
{
	char **targets = S_keccak_targets(tree, line, &l->log, &l->error), *cc, *opts;
	char *k = hb_path_join(tree, "k"), *work = hb_path_join(dir, "work");
	size_t i;
	int rc = HB_ERROR;

	S_split(line, &cc, &opts);
	for (i = 0; rc != 0 && targets[i]; i++) {
		char *goal = hb_sprintf("%s/libXKCP.a", targets[i]), *ccv = hb_sprintf("CC=%s", cc);
		char *cflags = hb_sprintf("CFLAGS=%s", opts);
		char *make[] = { (char *)"env", ccv, cflags, (char *)"make", (char *)"--no-print-directory",
			(char *)"-C", work, goal, NULL };
		char *cmd = hb_sprintf("make %s (CC=%s CFLAGS=%s)", goal, cc, opts);
		if (S_fresh_copy(&l->log, &l->error, k, work) == 0 && S_step(&l->log, &l->error, make,
				cmd) == 0) {
			char *h = hb_sprintf("%s/bin/%s/libXKCP.a.headers/.", work, targets[i]);
			char *a = hb_sprintf("%s/bin/%s/libXKCP.a", work, targets[i]);
			char *inc = hb_path_join(l->include_dir, "libkeccak.a.headers");
			char *cph[] = { (char *)"cp", (char *)"-pR", h, inc, NULL };
			char *cpa[] = { (char *)"cp", a, l->archive, NULL };
			rc = hb_mkdir_p(inc) || S_step(&l->log, &l->error, cph, "cp headers") ||
				S_step(&l->log, &l->error, cpa, "cp libXKCP.a");
			free(h);
			free(a);
			free(inc);
		}
		free(goal);
		free(ccv);
		free(cflags);
		free(cmd);
	}
	free(cc);
	free(opts);
	free(k);
	free(work);
	hb_strv_free(targets);
	return rc;
}

/* do-part cryptopp: make with CXX, CXXFLAGS="-DNDEBUG <options>" and LDFLAGS from the line in a
 * copy of cryptopp/; libcryptopp.a, and its headers into include/cryptopp. */
static int S_cryptopp(hb_sc_lib *l, const char *tree, const char *line, const char *dir)
{
	char *src = hb_path_join(tree, "cryptopp"), *work = hb_path_join(dir, "work"), *cc, *opts;
	char *cxx, *cxxflags, *ldflags, *cmd, *jobs = hb_sprintf("-j%u", hb_pool_default_jobs());
	int rc;

	S_split(line, &cc, &opts);
	cxx = hb_sprintf("CXX=%s", cc);
	cxxflags = hb_sprintf("CXXFLAGS=-DNDEBUG %s", opts);
	ldflags = hb_sprintf("LDFLAGS=%s", opts);
	cmd = hb_sprintf("make %s %s %s", cxx, cxxflags, ldflags);
	{
		char *make[] = { (char *)"make", jobs, (char *)"--no-print-directory", (char *)"-C", work,
			cxx, cxxflags, ldflags, (char *)"libcryptopp.a", NULL };
		char *a = hb_path_join(work, "libcryptopp.a"), *inc = hb_path_join(l->include_dir,
			"cryptopp");
		char *cph = hb_sprintf("cp %s/*.h %s/", work, inc);
		char *cpa[] = { (char *)"cp", a, l->archive, NULL };
		char *sh[] = { (char *)"sh", (char *)"-c", cph, NULL };
		rc = S_fresh_copy(&l->log, &l->error, src, work) || S_step(&l->log, &l->error, make,
			cmd) || hb_mkdir_p(inc) || S_step(&l->log, &l->error, sh, "cp *.h") ||
			S_step(&l->log, &l->error, cpa, "cp libcryptopp.a");
		free(a);
		free(inc);
		free(cph);
	}
	free(src);
	free(work);
	free(cc);
	free(opts);
	free(cxx);
	free(cxxflags);
	free(ldflags);
	free(cmd);
	free(jobs);
	return rc;
}

int hb_sc_lib_build(hb_sc_lib *out, const char *tree, const char *name, const char *work)
{
	int keccak = strcmp(name, "keccak") == 0;
	char **lines = hb_sc_compilers(NULL, tree, keccak ? "c" : "cpp");
	char *line, *key, *dir, *done, *failed, *lock, hex[17];
	unsigned char md[32];
	struct stat st;
	struct timespec asked; /* failures since then are this run's (to the nanosecond: a run
	                        * that follows a failed one within a second tries again) */
	int fd, rc;

	memset(out, 0, sizeof(*out));
	if (!lines) {
		out->error = hb_strdup(hb_error_last());
		return HB_ERROR;
	}
	/* do-part builds it with the first line of okcompilers; -fPIC after it, so that one build
	 * serves both the try programs and the timed shared library (Crypto++ takes minutes) */
	line = hb_sprintf("%s -fPIC", lines[0]);
	hb_strv_free(lines);
	key = hb_sprintf("hashbench-lib-2\n%s\n%s\n%s", name, tree, line);
	hb_sha256(md, key, strlen(key));
	hb_hex(hex, md, 8, 0);
	dir = hb_sprintf("%s/supercop/lib%s-%s", work, name, hex);
	out->include_dir = hb_path_join(dir, "include");
	out->archive = hb_sprintf("%s/lib%s.a", dir, name);
	done = hb_path_join(dir, "hashbench-built");
	failed = hb_path_join(dir, "hashbench-failed");
	lock = hb_path_join(dir, "lock");
	rc = hb_mkdir_p(out->include_dir);
	/* one build at a time: kat-check's processes wait for the one building it */
	asked = S_run_start;
	if (!asked.tv_sec)
		clock_gettime(CLOCK_REALTIME, &asked);
	fd = rc == 0 ? open(lock, O_RDWR | O_CREAT | O_CLOEXEC, 0600) : -1;
	if (fd < 0 || flock(fd, LOCK_EX) != 0) {
		out->error = hb_sprintf("%s: %s", lock, strerror(errno));
		rc = HB_ERROR;
	} else if (!hb_is_file(done) && stat(failed, &st) == 0 && S_not_before(&st.st_mtim, &asked)) {
		/* it failed in this run: the run does not try it again (a later run does: the machine's
		 * load may have been the cause) */
		hb_buf b;
		rc = HB_ERROR;
		if (hb_file_read_raw(&b, failed) == 0) {
			out->error = strndup((const char *)b.data, b.len);
			hb_buf_free(&b);
		}
	} else if (!hb_is_file(done)) {
		rc = keccak ? S_keccak(out, tree, line, dir) : S_cryptopp(out, tree, line, dir);
		if (rc == 0) {
			char *rm[] = { (char *)"rm", (char *)"-rf", NULL, NULL };
			char *w = hb_path_join(dir, "work"), *said = NULL;
			rm[2] = w;
			hb_run_capture(&said, rm, 60);
			free(said);
			free(w);
			free(out->error);
			out->error = NULL;
			rc = hb_file_write_atomic(done, out->log, strlen(out->log));
		} else {
			if (!out->error)
				out->error = hb_strdup("it did not build");
			hb_file_write_atomic(failed, out->error, strlen(out->error));
		}
	}
	if (fd >= 0)
		close(fd);
	if (rc == 0 && !out->log) {
		hb_buf b;
		if (hb_file_read_raw(&b, done) == 0) {
			out->log = strndup((const char *)b.data, b.len);
			hb_buf_free(&b);
		}
	}
	if (rc != 0 && out->error) {
		char *why = hb_sprintf("%s (%s, built as do-part %s builds it with %s) did not build: %s",
			keccak ? "libkeccak.a" : "libcryptopp.a", keccak ? "XKCP" : "Crypto++", name, line,
			out->error);
		free(out->error);
		out->error = why;
	}
	free(line);
	free(key);
	free(dir);
	free(done);
	free(failed);
	free(lock);
	return rc ? HB_ERROR : 0;
}
