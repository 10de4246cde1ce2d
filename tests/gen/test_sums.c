/* test_sums.c — a system's SHA256SUMS as hashgen keeps it (evidence_sums.c): the same lookups
 * whether the file is sorted or not, an algorithm's lines read back in path order, a file changed
 * after it was read refused by name, and a bad line refused with the message it always had. */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "evidence.h"
#include "support.h"

/* A small system's files in path order: its own, an imported system's originals, two
 * algorithms' folders, one id a prefix of another, and a file in records/ itself. */
static const char *S_paths[] = {
	"imported/harness.json",
	"imported/records/hash-15/run1.json",
	"imported/records/hash-15/run2.json",
	"kat/hash-15/kat.sha256",
	"kat/hash-15/litchi_256.json",
	"kat/hash-15/litchi_256.log",
	"kat/sm3/sm3.json",
	"method.md",
	"records/hash-15/litchi_256__hash_32.json",
	"records/hash-15/litchi_256__hash_4096.json",
	"records/hash-15/litchi_512__hash_32.json",
	"records/hash-15/sub/deeper.json",
	"records/hash-15x/other.json",
	"records/sm3/sm3__hash_32.json",
	"records/top.json",
	"sentinel.json",
	"system.json",
};
#define S_NPATHS (sizeof(S_paths) / sizeof(S_paths[0]))
/* Enough generated algorithms that the file spans several of the reader's 64 KiB pieces. */
#define S_NGEN 400

typedef struct {
	char **paths;          /* sorted */
	size_t n;
} S_set;

static int S_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static S_set S_set_make(void)
{
	S_set set;
	size_t i, k;
	set.paths = calloc(S_NPATHS + 6 * S_NGEN, sizeof(char *));
	set.n = 0;
	for (i = 0; i < S_NPATHS; i++)
		set.paths[set.n++] = strdup(S_paths[i]);
	for (k = 0; k < S_NGEN; k++)
		for (i = 0; i < 3; i++) {
			cr_assert(asprintf(&set.paths[set.n++], "records/gen-%03zu/inst_%zu__hash_%zu.json", k,
				i, (size_t)32 << (2 * i)) > 0);
			cr_assert(asprintf(&set.paths[set.n++], "kat/gen-%03zu/inst_%zu.json", k, i) > 0);
		}
	qsort(set.paths, set.n, sizeof(char *), S_cmp);
	return set;
}

static void S_set_free(S_set *set)
{
	size_t i;
	for (i = 0; i < set->n; i++)
		free(set->paths[i]);
	free(set->paths);
}

/* The SHA-256 a path is listed with: that of its name. */
static void S_sum_of(char out[65], const char *path)
{
	hg_sha256_hex(out, path, strlen(path));
}

/* SHA256SUMS of the set: in path order, or shuffled with blank lines between some. */
static char *S_text(const S_set *set, int shuffled)
{
	size_t *order = calloc(set->n, sizeof(size_t)), i, len = 0;
	unsigned long long x = 0x9e3779b97f4a7c15ULL;
	char *text = malloc(set->n * 200 + 1);
	for (i = 0; i < set->n; i++)
		order[i] = i;
	for (i = set->n; shuffled && i > 1; i--) {
		size_t j, t;
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		j = (size_t)(x % i);
		t = order[i - 1];
		order[i - 1] = order[j];
		order[j] = t;
	}
	for (i = 0; i < set->n; i++) {
		char sum[65];
		S_sum_of(sum, set->paths[order[i]]);
		len += (size_t)sprintf(text + len, "%s%s%s\n", sum, i % 7 == 3 ? " *" : "  ",
			set->paths[order[i]]);
		if (shuffled && i % 5 == 0)
			text[len++] = '\n';
	}
	text[len] = 0;
	free(order);
	return text;
}

/* A system whose SHA256SUMS is text, written to dir; imported so that its originals count. */
static void S_load(hg_system *s, const char *dir, const char *text, char **path)
{
	static hg_import imported;
	int fd;
	*path = hb_path_join(dir, "SHA256SUMS");
	hbt_write(*path, text, strlen(text));
	memset(s, 0, sizeof(*s));
	s->name = "x86_1";
	s->imported = &imported;
	fd = open(*path, O_RDONLY | O_CLOEXEC);
	cr_assert_geq(fd, 0);
	cr_assert_eq(hg_sums_load(s, fd, *path), 0, "%s", hg_error_last());
}

static void S_expect_lines(const hg_sum *v, size_t n, const S_set *set, const char *prefix)
{
	size_t i, k = 0, plen = strlen(prefix);
	for (i = 0; i < set->n; i++) {
		char sum[65];
		if (strncmp(set->paths[i], prefix, plen) != 0)
			continue;
		cr_assert_lt(k, n, "\"%s\": %s missing", prefix, set->paths[i]);
		cr_expect_str_eq(v[k].path, set->paths[i], "\"%s\": line %zu", prefix, k);
		S_sum_of(sum, set->paths[i]);
		cr_expect_str_eq(v[k].sha256, sum, "\"%s\": %s", prefix, set->paths[i]);
		k++;
	}
	cr_expect_eq(k, n, "\"%s\": %zu lines, %zu expected", prefix, n, k);
}

Test(sums, an_unsorted_file_gives_the_lookups_of_a_sorted_one)
{
	static const char *prefixes[] = { "", "kat/hash-15/", "records/hash-15/", "records/hash-15",
		"imported/records/hash-15/", "records/hash-15/sub/", "records/hash-15/litchi_256",
		"imported/", "kat/", "records/", "records/gen-123/", "system.json", "nothing/" };
	static const char *unlisted[] = { "missing.json", "records/hash-15/none.json",
		"kat/none/x.json", "records/hash-15", "records", "imported/records/sm3/x.json" };
	char *dir = hbt_tmpdir("sums-order"), *sorted_dir = hb_path_join(dir, "sorted");
	char *shuffled_dir = hb_path_join(dir, "shuffled"), *p1, *p2, *t1, *t2;
	S_set set = S_set_make();
	hg_system a, b;
	size_t i, na, nb, k;

	cr_assert_eq(mkdir(sorted_dir, 0755), 0);
	cr_assert_eq(mkdir(shuffled_dir, 0755), 0);
	t1 = S_text(&set, 0);
	t2 = S_text(&set, 1);
	cr_assert_gt(strlen(t2), 3 * 65536, "the file spans several pieces");
	S_load(&a, sorted_dir, t1, &p1);
	S_load(&b, shuffled_dir, t2, &p2);
	for (i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++) {
		hg_sum *va, *vb;
		cr_assert_eq(hg_sums_under(&va, &na, &a, prefixes[i]), 0, "%s", hg_error_last());
		cr_assert_eq(hg_sums_under(&vb, &nb, &b, prefixes[i]), 0, "%s", hg_error_last());
		S_expect_lines(va, na, &set, prefixes[i]);
		S_expect_lines(vb, nb, &set, prefixes[i]);
		hg_sums_free(va, na);
		hg_sums_free(vb, nb);
	}
	for (i = 0; i < set.n; i++) {
		char want[65], got_a[65], got_b[65];
		S_sum_of(want, set.paths[i]);
		cr_assert_eq(hg_system_sum(got_a, &a, set.paths[i]), 0, "%s", hg_error_last());
		cr_assert_eq(hg_system_sum(got_b, &b, set.paths[i]), 0, "%s", hg_error_last());
		cr_expect_str_eq(got_a, want, "%s", set.paths[i]);
		cr_expect_str_eq(got_b, want, "%s", set.paths[i]);
	}
	for (i = 0; i < sizeof(unlisted) / sizeof(unlisted[0]); i++) {
		char got[65] = "x";
		cr_assert_eq(hg_system_sum(got, &b, unlisted[i]), 0, "%s", hg_error_last());
		cr_expect_str_eq(got, "", "%s is not listed", unlisted[i]);
	}
	{
		/* the system's own lines: the files outside the algorithms' folders */
		static const char *own[] = { "imported/harness.json", "method.md", "records/top.json",
			"sentinel.json", "system.json" };
		const hg_sum *va = hg_sums_system(&a, &na), *vb = hg_sums_system(&b, &nb);
		cr_assert_eq(na, 5);
		cr_assert_eq(nb, 5);
		for (k = 0; k < 5; k++) {
			cr_expect_str_eq(va[k].path, own[k]);
			cr_expect_str_eq(vb[k].path, own[k]);
			cr_expect_str_eq(va[k].sha256, vb[k].sha256);
		}
	}
	{
		/* an algorithm's lines in all three folders, the longer id's apart */
		static const char *want[] = { "imported/records/hash-15/run1.json",
			"imported/records/hash-15/run2.json", "kat/hash-15/kat.sha256",
			"kat/hash-15/litchi_256.json", "kat/hash-15/litchi_256.log",
			"records/hash-15/litchi_256__hash_32.json",
			"records/hash-15/litchi_256__hash_4096.json",
			"records/hash-15/litchi_512__hash_32.json", "records/hash-15/sub/deeper.json" };
		hg_sum *v;
		size_t n;
		cr_assert_eq(hg_sums_of(&v, &n, &b, "hash-15"), 0, "%s", hg_error_last());
		cr_assert_eq(n, sizeof(want) / sizeof(want[0]));
		for (k = 0; k < n; k++)
			cr_expect_str_eq(v[k].path, want[k]);
		hg_sums_free(v, n);
	}
	hg_sumindex_free(a.sums);
	hg_sumindex_free(b.sums);
	S_set_free(&set);
	free(t1);
	free(t2);
	free(p1);
	free(p2);
	free(sorted_dir);
	free(shuffled_dir);
	free(dir);
}

Test(sums, an_algorithms_lines_come_back_in_path_order)
{
	/* its lines last to first, between other folders' and the system's own, one path twice */
	static const char *lines[] = {
		"records/hash-15/c__hash_32.json", "system.json", "records/hash-15/b__hash_32.json",
		"kat/hash-15/b.json", "records/sm3/a__hash_32.json", "records/hash-15/a__hash_4096.json",
		"records/hash-15/b__hash_32.json", "records/hash-15/a__hash_32.json",
	};
	static const char *want[] = { "records/hash-15/a__hash_32.json",
		"records/hash-15/a__hash_4096.json", "records/hash-15/b__hash_32.json",
		"records/hash-15/b__hash_32.json", "records/hash-15/c__hash_32.json" };
	char *dir = hbt_tmpdir("sums-path-order"), *path, text[4096], sum[65];
	size_t i, len = 0, n;
	hg_system s;
	hg_sum *v;

	for (i = 0; i < sizeof(lines) / sizeof(lines[0]); i++) {
		/* the second line of b__hash_32.json lists another SHA-256 */
		S_sum_of(sum, i == 6 ? "again" : lines[i]);
		len += (size_t)snprintf(text + len, sizeof(text) - len, "%s  %s\n", sum, lines[i]);
	}
	S_load(&s, dir, text, &path);
	cr_assert_eq(hg_sums_under(&v, &n, &s, "records/hash-15/"), 0, "%s", hg_error_last());
	cr_assert_eq(n, sizeof(want) / sizeof(want[0]));
	for (i = 0; i < n; i++)
		cr_expect_str_eq(v[i].path, want[i], "line %zu", i);
	/* the two lines of one path keep their order in the file */
	S_sum_of(sum, "records/hash-15/b__hash_32.json");
	cr_expect_str_eq(v[2].sha256, sum);
	S_sum_of(sum, "again");
	cr_expect_str_eq(v[3].sha256, sum);
	hg_sums_free(v, n);
	hg_sumindex_free(s.sums);
	free(path);
	free(dir);
}

/* The error a lookup of an algorithm's lines gives once the file changed. */
static void S_expect_changed(const hg_system *s, const char *path, const char *prefix)
{
	hg_sum *v = NULL;
	size_t n = 0;
	char *want, sum[65];
	cr_assert(asprintf(&want, "%s: changed since it was read: run hashgen again", path) > 0);
	cr_expect_eq(hg_sums_under(&v, &n, s, prefix), -1, "%s: the change went unnoticed", prefix);
	cr_expect_str_eq(hg_error_last(), want);
	cr_expect_null(v);
	cr_expect_eq(n, 0);
	cr_expect_eq(hg_system_sum(sum, s, "records/hash-15/litchi_256__hash_32.json"), -1);
	cr_expect_str_eq(hg_error_last(), want);
	/* the system's own lines are kept: still there */
	cr_expect_eq(hg_system_sum(sum, s, "system.json"), 0);
	cr_expect_neq(sum[0], 0);
	free(want);
}

Test(sums, a_file_changed_after_it_was_read_is_refused)
{
	char *dir = hbt_tmpdir("sums-changed"), *path, *text, *line, sum[65];
	S_set set = S_set_make();
	hg_system s;
	struct stat st;
	struct timespec times[2];
	int fd;
	off_t off;

	text = S_text(&set, 1);
	S_load(&s, dir, text, &path);
	cr_assert_eq(hg_system_sum(sum, &s, "records/hash-15/litchi_256__hash_32.json"), 0);
	cr_assert_neq(sum[0], 0);
	/* one digit of a record's line rewritten in place, the size and the time kept */
	line = strstr(text, "records/hash-15/litchi_256__hash_32.json\n");
	cr_assert(line);
	off = (line - text) - 3; /* its SHA-256's last digit */
	cr_assert_eq(stat(path, &st), 0);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	cr_assert_geq(fd, 0);
	cr_assert_eq(pwrite(fd, text[off] == '0' ? "1" : "0", 1, off), 1);
	times[0] = st.st_atim;
	times[1] = st.st_mtim;
	cr_assert_eq(futimens(fd, times), 0);
	close(fd);
	S_expect_changed(&s, path, "records/hash-15/");
	/* a line more: another size */
	fd = open(path, O_WRONLY | O_APPEND | O_CLOEXEC);
	cr_assert_geq(fd, 0);
	cr_assert_eq(write(fd, text, 66), 66);
	close(fd);
	S_expect_changed(&s, path, "kat/sm3/");
	hg_sumindex_free(s.sums);
	free(path);
	free(text);
	S_set_free(&set);
	free(dir);
}

Test(sums, a_file_replaced_after_it_was_read_is_read_as_it_was)
{
	/* hashbench writes SHA256SUMS whole and renames it into place: the file hashgen opened is
	 * the one it reads back, so the lines stay those the site was checked against */
	char *dir = hbt_tmpdir("sums-replaced"), *path, *text, *tmp, want[65], sum[65];
	S_set set = S_set_make();
	hg_system s;

	text = S_text(&set, 0);
	S_load(&s, dir, text, &path);
	tmp = hb_path_join(dir, "SHA256SUMS.tmp");
	hbt_write(tmp, "", 0);
	cr_assert_eq(rename(tmp, path), 0);
	S_sum_of(want, "records/hash-15/litchi_256__hash_32.json");
	cr_assert_eq(hg_system_sum(sum, &s, "records/hash-15/litchi_256__hash_32.json"), 0, "%s",
		hg_error_last());
	cr_expect_str_eq(sum, want);
	hg_sumindex_free(s.sums);
	free(tmp);
	free(path);
	free(text);
	S_set_free(&set);
	free(dir);
}

/* text as SHA256SUMS: its load fails with want (NULL: it loads). */
static void S_expect_load(const char *dir, const char *text, size_t len, const char *want)
{
	char *path = hb_path_join(dir, "SHA256SUMS"), *msg = NULL;
	hg_system s;
	int fd, rc;
	hbt_write(path, text, len);
	memset(&s, 0, sizeof(s));
	fd = open(path, O_RDONLY | O_CLOEXEC);
	cr_assert_geq(fd, 0);
	rc = hg_sums_load(&s, fd, path);
	if (want) {
		cr_assert(asprintf(&msg, "%s%s", path, want) > 0);
		cr_expect_eq(rc, -1, "accepted; expected %s", msg);
		cr_expect_str_eq(hg_error_last(), msg);
		cr_expect_null(s.sums);
	} else {
		cr_expect_eq(rc, 0, "%s", hg_error_last());
	}
	hg_sumindex_free(s.sums);
	free(msg);
	free(path);
}

Test(sums, a_bad_line_fails_the_load_as_before)
{
	char *dir = hbt_tmpdir("sums-bad"), sum[65], text[1024], *big;
	size_t len, i;
	int n;

	S_sum_of(sum, "x");
	/* blank lines are not counted, as they never were */
	n = snprintf(text, sizeof(text), "%s  system.json\n\n%s  records/a/b.json\n", sum, sum);
	text[n - 20] = 'A';
	S_expect_load(dir, text, (size_t)n, ":2: expected \"<sha256>  <file>\"");
	n = snprintf(text, sizeof(text), "%s  ../kat/evil/evil_256.json\n", sum);
	S_expect_load(dir, text, (size_t)n,
		":1: ../kat/evil/evil_256.json: a path that leaves the system folder: refused");
	n = snprintf(text, sizeof(text), "%s  kat/a//b.json\n", sum);
	S_expect_load(dir, text, (size_t)n,
		":1: kat/a//b.json: a path that leaves the system folder: refused");
	n = snprintf(text, sizeof(text), "%s  system.json\nabc\n", sum);
	S_expect_load(dir, text, (size_t)n, ":2: expected \"<sha256>  <file>\"");
	n = snprintf(text, sizeof(text), "%s\tsystem.json\n", sum);
	S_expect_load(dir, text, (size_t)n, ":1: expected \"<sha256>  <file>\"");
	n = snprintf(text, sizeof(text), "%s  \n", sum);
	S_expect_load(dir, text, (size_t)n, ":1: : a path that leaves the system folder: refused");
	/* the last line without its newline, and the text ending at a NUL byte as it always did */
	n = snprintf(text, sizeof(text), "%s *kat/a/b.json\n%s  records/a/b.json", sum, sum);
	S_expect_load(dir, text, (size_t)n, NULL);
	n = snprintf(text, sizeof(text), "%s  kat/a/b.json\nxyz", sum);
	text[n - 2] = 0;
	S_expect_load(dir, text, (size_t)n, ":2: expected \"<sha256>  <file>\"");
	n = snprintf(text, sizeof(text), "%s  kat/a/b.json\n", sum);
	text[n] = 0;
	memcpy(text + n + 1, "xyz\n", 4);
	S_expect_load(dir, text, (size_t)n + 5, NULL);
	/* a bad line far into the file: its number across the reader's pieces */
	big = malloc(3000 * 120);
	for (len = 0, i = 0; i < 2999; i++)
		len += (size_t)sprintf(big + len, "%s  records/gen-%04zu/x.json\n", sum, i);
	len += (size_t)sprintf(big + len, "%s  records/gen/../x.json\n", sum);
	S_expect_load(dir, big, len,
		":3000: records/gen/../x.json: a path that leaves the system folder: refused");
	free(big);
	free(dir);
}
