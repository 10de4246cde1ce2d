/* support.c — shared test helpers (see support.h). */
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <jansson.h>

#include "hbbuild.h"
#include "support.h"

const char *hbt_shared(void)
{
	static int probed;
	static const char *dir;
	if (!probed) {
		char *kat = hb_path_join(HBT_SHARED_DIR, "kat");
		dir = hb_is_dir(kat) ? HBT_SHARED_DIR : NULL;
		free(kat);
		probed = 1;
	}
	return dir;
}

char *hbt_shared_path(const char *rel)
{
	return hb_path_join(HBT_SHARED_DIR, rel);
}

static hb_catalog *S_cat;

const hb_catalog *hbt_catalog(void)
{
	if (!S_cat)
		cr_assert_eq(hb_catalog_load(&S_cat, HBT_SOURCE_DIR "/bench/algorithms"), 0, "%s",
			hb_error_last());
	return S_cat;
}

const hb_instance *hbt_instance(const char *spec)
{
	const hb_instance *inst = NULL;
	cr_assert_eq(hb_catalog_find(&inst, hbt_catalog(), spec), 0, "%s", hb_error_last());
	return inst;
}

typedef struct {
	char *spec;
	hb_build_result *build;
	hb_impl *impl;
} S_loaded;

static S_loaded S_libs[32];

static S_loaded *S_load(const char *spec)
{
	int i;
	for (i = 0; i < 32 && S_libs[i].spec; i++)
		if (strcmp(S_libs[i].spec, spec) == 0)
			return &S_libs[i];
	cr_assert_lt(i, 32);
	cr_assert_eq(hb_build(&S_libs[i].build, hbt_instance(spec), NULL, HBT_WORK), 0, "%s",
		hb_error_last());
	cr_assert_eq(hb_impl_open(&S_libs[i].impl, S_libs[i].build->library), 0, "%s",
		hb_error_last());
	S_libs[i].spec = strdup(spec);
	return &S_libs[i];
}

const hb_impl *hbt_impl(const char *spec)
{
	return S_load(spec)->impl;
}

const char *hbt_library(const char *spec)
{
	return S_load(spec)->build->library;
}

static char *S_slurp_fd(int fd)
{
	hb_buf buf;
	FILE *f = fdopen(fd, "rb");
	cr_assert(f);
	cr_assert_eq(hb_stream_read(&buf, f, "pipe"), 0);
	fclose(f);
	return (char *)buf.data;
}

char *hbt_time_limit(unsigned native_s)
{
	return hb_sprintf("%u", native_s * (hb_emulated() ? 10 : 1));
}

/* Under user-mode emulation every run says the sandbox lacks what qemu-user cannot give its
 * guest (seccomp, namespaces, Landlock): those lines, and only there, are not the test's. */
static void S_drop_sandbox_warnings(char *text)
{
	static const char prefix[] = "hashbench: warning: sandbox without ";
	char *r = text, *w = text;
	while (*r) {
		char *nl = strchr(r, '\n');
		size_t len = nl ? (size_t)(nl - r) + 1 : strlen(r);
		if (strncmp(r, prefix, sizeof(prefix) - 1) != 0) {
			memmove(w, r, len);
			w += len;
		}
		r += len;
	}
	*w = 0;
}

int hbt_cli(char **out, char **err, const char *stdin_data, const char *const args[])
{
	char outname[] = "/tmp/hbt-out-XXXXXX", errname[] = "/tmp/hbt-err-XXXXXX",
		inname[] = "/tmp/hbt-in-XXXXXX";
	int outfd = mkstemp(outname), errfd = mkstemp(errname), infd = mkstemp(inname), status;
	const char *argv[64];
	pid_t pid;
	int n = 0;

	cr_assert(outfd >= 0 && errfd >= 0 && infd >= 0);
	if (stdin_data) {
		cr_assert_eq(write(infd, stdin_data, strlen(stdin_data)), (ssize_t)strlen(stdin_data));
		lseek(infd, 0, SEEK_SET);
	}
	argv[n++] = HBT_HASHBENCH;
	while (args[n - 1] && n < 63) {
		argv[n] = args[n - 1];
		n++;
	}
	argv[n] = NULL;
	fflush(NULL);
	pid = fork();
	cr_assert(pid >= 0);
	if (pid == 0) {
		dup2(infd, 0);
		dup2(outfd, 1);
		dup2(errfd, 2);
		setenv("HASHBENCH_WORK", HBT_WORK, 1);
		execv(argv[0], (char *const *)argv);
		_exit(127);
	}
	waitpid(pid, &status, 0);
	lseek(outfd, 0, SEEK_SET);
	lseek(errfd, 0, SEEK_SET);
	*out = S_slurp_fd(outfd);
	*err = S_slurp_fd(errfd);
	if (hb_emulated())
		S_drop_sandbox_warnings(*err);
	close(infd);
	unlink(outname);
	unlink(errname);
	unlink(inname);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

char *hbt_tmpdir(const char *name)
{
	char *dir = hb_sprintf("%s/tmp/%s-%ld", HBT_WORK, name, (long)getpid());
	char *cmd = hb_sprintf("rm -rf '%s'", dir);
	cr_assert_eq(system(cmd), 0);
	free(cmd);
	cr_assert_eq(hb_mkdir_p(dir), 0, "%s", hb_error_last());
	return dir;
}

void hbt_write(const char *path, const void *data, size_t len)
{
	cr_assert_eq(hb_file_write_atomic(path, data, len), 0, "%s", hb_error_last());
}

void hbt_replace(const char *dir, const char *rel, const char *from, const char *to)
{
	char *path = hb_path_join(dir, rel), *text, *at, *edited;
	hb_buf b;

	cr_assert_eq(hb_file_read_raw(&b, path), 0, "%s", hb_error_last());
	text = hb_sprintf("%.*s", (int)b.len, (const char *)b.data);
	at = strstr(text, from);
	cr_assert_not_null(at, "%s has no %s", path, from);
	edited = hb_sprintf("%.*s%s%s", (int)(at - text), text, to, at + strlen(from));
	hbt_write(path, edited, strlen(edited));
	free(edited);
	free(text);
	hb_buf_free(&b);
	free(path);
}

json_t *hbt_json_load(const char *dir, const char *rel)
{
	char *path = hb_path_join(dir, rel);
	json_error_t err;
	json_t *j = json_load_file(path, 0, &err);
	cr_assert_not_null(j, "%s: %s", path, err.text);
	free(path);
	return j;
}

size_t hbt_count_records(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	size_t n = 0;
	if (!d)
		return 0;
	while ((de = readdir(d)) != NULL)
		if (strstr(de->d_name, "__hash_") && !strstr(de->d_name, ".tmp."))
			n++;
	closedir(d);
	return n;
}
