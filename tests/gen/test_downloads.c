/* test_downloads.c — the downloads in parts: a system's algorithms cut into parts of 100, each
 * part's rows exactly the rows its algorithms' pages hold, in order; the index lists every part
 * with its size and SHA-256; no whole-field file is left; a part refuses rows not its own. */
#define _GNU_SOURCE
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#include "hashgen.h"
#include "results.h"
#include "sitewide.h"
#include "support.h"

#define DATA HBT_FIXTURES "/data"
#define TEMPLATES HBT_SOURCE_DIR "/templates"
#define SYNTH HBT_SOURCE_DIR "/benchmarks/gen-bench/synth.py"
#define NALG 230

static char *S_read_len(const char *dir, const char *rel, size_t *len)
{
	char *path = hb_path_join(dir, rel), *text;
	cr_assert_eq(hg_read_file(&text, len, path), 0, "%s", hg_error_last());
	free(path);
	return text;
}

static char *S_read(const char *dir, const char *rel)
{
	size_t len;
	return S_read_len(dir, rel, &len);
}

/* What follows the header row of a CSV download. */
static const char *S_body(const char *csv, const char *what)
{
	const char *at = strstr(csv, "\r\n");
	cr_assert_not_null(at, "%s: no header row", what);
	return at + 2;
}

/* The algorithms with a page of system sys: <sys>/<id>.csv, the parts aside, sorted. */
static char **S_page_ids(const char *site, const char *sys, size_t *n)
{
	char *dir = hb_path_join(site, sys), **ids = NULL;
	DIR *d = opendir(dir);
	struct dirent *de;

	*n = 0;
	cr_assert_not_null(d, "%s", dir);
	while ((de = readdir(d)) != NULL) {
		size_t len = strlen(de->d_name);
		if (len < 5 || strcmp(de->d_name + len - 4, ".csv") != 0 ||
			strncmp(de->d_name, "results-", 8) == 0)
			continue;
		ids = realloc(ids, (*n + 1) * sizeof(*ids));
		ids[(*n)++] = hb_sprintf("%.*s", (int)(len - 4), de->d_name);
	}
	closedir(d);
	qsort(ids, *n, sizeof(*ids), hg_cmp_str);
	free(dir);
	return ids;
}

static void S_opts(hg_site_opts *o, const char *data, const char *site)
{
	memset(o, 0, sizeof(*o));
	o->data_dir = data;
	o->templates_dir = TEMPLATES;
	o->out_dir = site;
	o->generator = "hashgen (test)";
	o->jobs = 2;
}

/* Three parts on each system, of 100, 100 and 30 algorithms, the rows of a system's parts in
 * order exactly the rows of its pages in id order (the rows the whole field's file held). */
static void S_parts_hold_the_rows_of_their_pages(const char *site)
{
	static const size_t want_alg[3] = { 100, 100, NALG - 200 };
	json_t *index = hbt_results_index(site), *parts = json_object_get(index, "parts"), *part;
	json_int_t total = 0;
	size_t i, k;

	cr_assert_eq(json_array_size(parts), 6, "3 parts on each of 2 systems");
	cr_expect_eq(json_integer_value(json_object_get(index, "algorithms_per_part")), 100);
	for (k = 0; k < 2; k++) {
		const char *sys = json_string_value(json_object_get(json_array_get(parts, 3 * k),
			"system"));
		size_t nids, p, at = 0;
		char **ids = S_page_ids(site, sys, &nids), *pages = hb_sprintf("%s", ""), *joined;
		cr_assert_eq(nids, NALG, "%s: %zu algorithm pages", sys, nids);
		for (p = 0; p < 3; p++) {
			char *name = hb_sprintf("%s/results-%03zu.csv", sys, p + 1), *csv;
			part = json_array_get(parts, 3 * k + p);
			cr_expect_str_eq(json_string_value(json_object_get(part, "system")), sys);
			cr_expect_eq(json_integer_value(json_object_get(part, "part")), (json_int_t)p + 1);
			cr_expect_eq(json_integer_value(json_object_get(part, "algorithms")),
				(json_int_t)want_alg[p], "%s part %zu", sys, p + 1);
			cr_expect_str_eq(json_string_value(json_object_get(part, "first_algorithm")),
				ids[at]);
			cr_expect_str_eq(json_string_value(json_object_get(part, "last_algorithm")),
				ids[at + want_alg[p] - 1]);
			cr_expect_str_eq(json_string_value(json_object_get(part, "csv")), name);
			csv = S_read(site, name);
			/* the part's figures are counted right */
			{
				const char *r;
				json_int_t rows = 0;
				for (r = S_body(csv, name); (r = strstr(r, "\r\n")) != NULL; r += 2)
					rows++;
				cr_expect_eq(rows, json_integer_value(json_object_get(part, "figures")),
					"%s", name);
				total += rows;
			}
			free(csv);
			free(name);
			at += want_alg[p];
		}
		/* the rows of the system's parts, in order, are those of its pages in id order: the
		 * rows the whole field's file held for it */
		for (i = 0; i < nids; i++) {
			char *rel = hb_sprintf("%s/%s.csv", sys, ids[i]), *csv = S_read(site, rel);
			char *grown = hb_sprintf("%s%s", pages, S_body(csv, rel));
			free(pages);
			pages = grown;
			free(csv);
			free(rel);
			free(ids[i]);
		}
		free(ids);
		joined = hb_sprintf("%s", "");
		for (p = 0; p < 3; p++) {
			char *name = hb_sprintf("%s/results-%03zu.csv", sys, p + 1), *csv = S_read(site, name);
			char *grown = hb_sprintf("%s%s", joined, S_body(csv, name));
			free(joined);
			joined = grown;
			free(csv);
			free(name);
		}
		cr_expect(strcmp(joined, pages) == 0, "%s: the parts' rows are not its pages' rows",
			sys);
		free(joined);
		free(pages);
	}
	cr_expect_eq(json_integer_value(json_object_get(index, "figures")), total);
	json_decref(index);
}

/* Each JSON part describes its own system alone and holds the rows of its CSV twin, in order. */
static void S_json_parts_hold_the_csv_rows(const char *site)
{
	json_t *index = hbt_results_index(site), *part;
	size_t i;

	json_array_foreach(json_object_get(index, "parts"), i, part) {
		const char *jrel = json_string_value(json_object_get(part, "json"));
		const char *crel = json_string_value(json_object_get(part, "csv"));
		json_t *one = hbt_json_load(site, jrel), *sys, *f;
		char *csv = S_read(site, crel);
		const char *row = S_body(csv, crel);
		size_t j;
		cr_expect_str_eq(json_string_value(json_object_get(one, "schema")),
			"hashbench.results/1");
		cr_assert_eq(json_array_size(json_object_get(one, "systems")), 1, "%s", jrel);
		sys = json_array_get(json_object_get(one, "systems"), 0);
		cr_expect_str_eq(json_string_value(json_object_get(sys, "system")),
			json_string_value(json_object_get(part, "system")));
		cr_expect(json_is_object(json_object_get(sys, "description")), "%s: its system is not "
			"described", jrel);
		/* the same rows as the CSV part, in the same order */
		json_array_foreach(json_object_get(one, "figures"), j, f) {
			const char *end = strstr(row, "\r\n");
			char *rec = hb_sprintf(",%s,", json_string_value(json_object_get(f, "record")));
			cr_assert_not_null(end, "%s has fewer rows than %s", crel, jrel);
			cr_expect(memmem(row, (size_t)(end - row), rec, strlen(rec)) != NULL,
				"%s row %zu is not %s's", crel, j, jrel);
			row = end + 2;
			free(rec);
		}
		cr_expect_str_eq(row, "", "%s has more rows than %s", crel, jrel);
		free(csv);
		json_decref(one);
	}
	json_decref(index);
}

/* results-index.csv says what results-index.json says; no whole-field file is left. */
static void S_index_csv_and_nothing_whole(const char *site)
{
	static const char *const gone[] = { "results.csv", "results.json", "results.csv.gz",
		"results.json.gz", NULL };
	json_t *index = hbt_results_index(site), *part;
	char *csv = S_read(site, "results-index.csv"), *line;
	const char *row = S_body(csv, "results-index.csv");
	size_t i;

	cr_expect(strncmp(csv, "system,part,first_algorithm,last_algorithm,algorithms,figures,csv,"
		"csv_bytes,csv_sha256,json,json_bytes,json_sha256\r\n", 102) == 0, "%.120s", csv);
	json_array_foreach(json_object_get(index, "parts"), i, part) {
		const char *end = strstr(row, "\r\n");
		cr_assert_not_null(end);
		line = hb_sprintf("%s,%lld,%s,%s,%lld,%lld,%s,%lld,%s,%s,%lld,%s",
			json_string_value(json_object_get(part, "system")),
			(long long)json_integer_value(json_object_get(part, "part")),
			json_string_value(json_object_get(part, "first_algorithm")),
			json_string_value(json_object_get(part, "last_algorithm")),
			(long long)json_integer_value(json_object_get(part, "algorithms")),
			(long long)json_integer_value(json_object_get(part, "figures")),
			json_string_value(json_object_get(part, "csv")),
			(long long)json_integer_value(json_object_get(part, "csv_bytes")),
			json_string_value(json_object_get(part, "csv_sha256")),
			json_string_value(json_object_get(part, "json")),
			(long long)json_integer_value(json_object_get(part, "json_bytes")),
			json_string_value(json_object_get(part, "json_sha256")));
		cr_expect(strlen(line) == (size_t)(end - row) && memcmp(line, row, strlen(line)) == 0,
			"results-index.csv row %zu: %.*s, not %s", i, (int)(end - row), row, line);
		free(line);
		row = end + 2;
	}
	cr_expect_str_eq(row, "");
	for (i = 0; gone[i]; i++) {
		char *path = hb_path_join(site, gone[i]);
		cr_expect_neq(access(path, F_OK), 0, "%s is still there", gone[i]);
		free(path);
	}
	for (i = 0; i < 2; i++) {
		char *path = hb_sprintf("%s/results-index.%s.gz", site, i ? "csv" : "json");
		cr_expect_eq(access(path, F_OK), 0, "%s is missing", path);
		free(path);
	}
	free(csv);
	json_decref(index);
}

/* The site built on one thread and on three is the one built on two, byte for byte. */
static void S_any_jobs_same_site(const char *data, const char *site, const char *root)
{
	static const int jobs[] = { 1, 3 };
	size_t i;
	for (i = 0; i < 2; i++) {
		char *other = hb_sprintf("%s/site-jobs%d", root, jobs[i]), *cmd;
		hg_site_opts o;
		hg_site_stats st;
		S_opts(&o, data, other);
		o.jobs = jobs[i];
		cr_assert_eq(hg_site_build(&st, &o), 0, "%s", hg_error_last());
		cmd = hb_sprintf("diff -r '%s' '%s' >/dev/null", site, other);
		cr_expect_eq(system(cmd), 0, "--jobs %d gives another site than --jobs 2: %s", jobs[i],
			cmd);
		free(cmd);
		free(other);
	}
}

static ino_t S_ino(const char *dir, const char *rel)
{
	char *p = hb_path_join(dir, rel);
	struct stat st;
	cr_assert_eq(stat(p, &st), 0, "%s", p);
	free(p);
	return st.st_ino;
}

/* The first record at 4096 B of algorithm id on system: its first cycle count gets a leading 1,
 * and its SHA256SUMS line the new SHA-256. */
static void S_change_record(const char *data, const char *system, const char *id)
{
	char *dir = hb_sprintf("%s/%s/records/%s", data, system, id), *name = NULL, *path, *text;
	char *sums_path = hb_sprintf("%s/%s/SHA256SUMS", data, system), *sums, *line, *at, sha[65];
	char *edited, *rel;
	DIR *d = opendir(dir);
	struct dirent *de;
	size_t len, slen;

	cr_assert_not_null(d, "%s", dir);
	while ((de = readdir(d)) != NULL && !name)
		if (strstr(de->d_name, "__hash_4096.json"))
			name = hb_sprintf("%s", de->d_name);
	closedir(d);
	cr_assert_not_null(name, "%s: no record at 4096 B", dir);
	path = hb_path_join(dir, name);
	text = S_read_len(dir, name, &len);
	at = strstr(text, "\"cycles\": ");
	cr_assert_not_null(at, "%s: no cycles", path);
	at += strlen("\"cycles\": ");
	edited = hb_sprintf("%.*s1%s", (int)(at - text), text, at);
	hbt_write(path, edited, strlen(edited));
	hg_sha256_hex(sha, edited, strlen(edited));
	rel = hb_sprintf("  records/%s/%s\n", id, name);
	sums = S_read_len(data, sums_path + strlen(data) + 1, &slen);
	line = strstr(sums, rel);
	cr_assert(line && line - sums >= 64, "%s does not list %s", sums_path, rel);
	memcpy(line - 64, sha, 64);
	hbt_write(sums_path, sums, slen);
	free(rel);
	free(sums);
	free(edited);
	free(text);
	free(path);
	free(name);
	free(sums_path);
	free(dir);
}

/* One record of the last algorithm of x86_1 changed (and its SHA256SUMS line): the rebuild in
 * place writes that system's third part again and leaves its other parts and the other
 * system's as they were (the same inodes), and the site is byte for byte a clean build's. */
static void S_rebuild_rewrites_one_part(const char *data, const char *site, const char *root)
{
	static const char *const kept[] = { "x86_1/results-001.csv", "x86_1/results-002.json",
		"arm_1/results-003.csv", "arm_1/compare.html", NULL };
	char *fresh = hb_path_join(root, "fresh"), *cmd;
	ino_t before[4], changed;
	hg_site_opts o;
	hg_site_stats st;
	size_t i;

	for (i = 0; kept[i]; i++)
		before[i] = S_ino(site, kept[i]);
	changed = S_ino(site, "x86_1/results-003.csv");
	S_change_record(data, "x86_1", "hash-0230");
	S_opts(&o, data, site);
	cr_assert_eq(hg_site_build(&st, &o), 0, "%s", hg_error_last());
	for (i = 0; kept[i]; i++)
		cr_expect_eq(S_ino(site, kept[i]), before[i], "%s was written again", kept[i]);
	cr_expect_neq(S_ino(site, "x86_1/results-003.csv"), changed,
		"x86_1/results-003.csv, which holds the changed record, was not written again");
	S_opts(&o, data, fresh);
	cr_assert_eq(hg_site_build(&st, &o), 0, "%s", hg_error_last());
	cmd = hb_sprintf("diff -r '%s' '%s' >/dev/null", site, fresh);
	cr_expect_eq(system(cmd), 0, "the rebuild differs from a clean build: %s", cmd);
	free(cmd);
	free(fresh);
}

Test(downloads, a_field_of_230_algorithms_comes_in_parts_of_100, .timeout = HBT_TIMEOUT(600))
{
	char *root = hbt_tmpdir("downloads"), *data = hb_path_join(root, "data");
	char *site = hb_path_join(root, "site"), *report = NULL;
	char *cmd = hb_sprintf("python3 '%s' '%s' --algorithms %d --systems 2 --seed 1 >/dev/null",
		SYNTH, data, NALG);
	size_t len = 0, problems = 9;
	FILE *r;
	hg_site_opts o;
	hg_site_stats st;

	if (system("command -v python3 >/dev/null 2>&1") != 0)
		cr_skip_test("python3 is not installed: no synthetic evidence of %d algorithms", NALG);
	cr_assert_eq(system(cmd), 0, "%s", cmd);
	S_opts(&o, data, site);
	cr_assert_eq(hg_site_build(&st, &o), 0, "%s", hg_error_last());
	S_parts_hold_the_rows_of_their_pages(site);
	S_json_parts_hold_the_csv_rows(site);
	S_index_csv_and_nothing_whole(site);
	/* --check verifies every part against the index */
	r = open_memstream(&report, &len);
	cr_assert_eq(hg_site_check(&problems, &o, r), 0, "%s", hg_error_last());
	fclose(r);
	cr_expect_eq(problems, 0, "%s", report);
	free(report);
	S_any_jobs_same_site(data, site, root);
	S_rebuild_rewrites_one_part(data, site, root);
	hg_rm_rf(root);
	free(cmd);
	free(site);
	free(data);
	free(root);
}

/* ---- one part through the API ---- */

/* A row of a crashed record; x (the row's more) is the caller's. */
static void S_fig(hg_fig *f, hg_fig_more *x, char *system, char *algorithm)
{
	memset(f, 0, sizeof(*f));
	memset(x, 0, sizeof(*x));
	f->more = x;
	f->system = system;
	f->algorithm = algorithm;
	f->instance = "litchi_256";
	f->implementation = "reference";
	x->status = "crash";
	x->record = "data/x86_1/records/hash-15/litchi_256__hash_32.json";
	f->message_bytes = 32;
	f->static_bytes = x->baseline_rss_kib = f->peak_rss_kib = -1;
	f->stack_bytes = f->heap_peak_bytes = x->heap_allocations = -1;
	x->mmap_bytes = x->text_bytes = x->data_bytes = -1;
	x->median_cycles = x->spread_pct = -1;
}

Test(downloads, a_part_refuses_rows_not_its_own_and_sums_what_it_wrote)
{
	hg_data *d;
	hg_fig f[2];
	hg_fig_more x[2];
	const hg_fig *rows[2] = { &f[0], &f[1] };
	hg_part_info info;
	char *tmp = hbt_tmpdir("downloads-api"), *text, hex[65];
	size_t k, len;

	cr_assert_eq(hg_data_load(&d, DATA), 0, "%s", hg_error_last());
	for (k = 0; k < d->nsystems && strcmp(d->systems[k].name, "x86_1") != 0; k++)
		;
	cr_assert_lt(k, d->nsystems);
	S_fig(&f[0], &x[0], "x86_1", "hash-15");
	S_fig(&f[1], &x[1], "x86_1", "sm3");
	/* sm3 lies after the part's last algorithm */
	cr_expect_eq(hg_site_results_part(tmp, d, k, 1, "evil", "hash-21", rows, 2, NULL, &info),
		-1);
	cr_expect(strstr(hg_error_last(), "does not belong") != NULL, "%s", hg_error_last());
	cr_expect_null(info.csv);
	/* a row of another system */
	S_fig(&f[1], &x[1], "arm_1", "hash-15");
	cr_expect_eq(hg_site_results_part(tmp, d, k, 1, "evil", "sm3", rows, 2, NULL, &info), -1);
	S_fig(&f[1], &x[1], "x86_1", "sm3");
	cr_assert_eq(hg_site_results_part(tmp, d, k, 12, "evil", "sm3", rows, 2, NULL, &info), 0, "%s",
		hg_error_last());
	cr_expect_str_eq(info.csv, "x86_1/results-012.csv");
	cr_expect_str_eq(info.json, "x86_1/results-012.json");
	cr_expect_eq(info.figures, 2);
	cr_expect_eq(info.algorithms, 5, "evil, hash-15, hash-21, sha2, sm3");
	text = S_read_len(tmp, info.csv, &len);
	hg_sha256_hex(hex, text, len);
	cr_expect_str_eq(info.csv_sum.sha256, hex);
	cr_expect_eq(info.csv_sum.bytes, len);
	free(text);
	text = S_read_len(tmp, info.json, &len);
	hg_sha256_hex(hex, text, len);
	cr_expect_str_eq(info.json_sum.sha256, hex);
	cr_expect_eq(info.json_sum.bytes, len);
	free(text);
	cr_assert_eq(hg_site_results_index(tmp, &info, 1), 0, "%s", hg_error_last());
	text = S_read(tmp, "results-index.json");
	cr_expect(strstr(text, "\"part\": 12, \"first_algorithm\": \"evil\", \"last_algorithm\": "
		"\"sm3\", \"algorithms\": 5, \"figures\": 2,") != NULL, "%s", text);
	free(text);
	hg_part_info_clear(&info);
	hg_data_free(d);
	free(tmp);
}
