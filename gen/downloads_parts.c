/* downloads_parts.c — the downloads: a system's figures in parts, and the index of every part. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "render.h"
#include "sitewide.h"

static const char *const S_index_columns[] = { "system", "part", "first_algorithm",
	"last_algorithm", "algorithms", "figures", "csv", "csv_bytes", "csv_sha256", "json",
	"json_bytes", "json_sha256", NULL };

void hg_part_info_clear(hg_part_info *p)
{
	if (!p)
		return;
	free(p->system);
	free(p->first_id);
	free(p->last_id);
	free(p->csv);
	free(p->json);
	memset(p, 0, sizeof(*p));
}

/* The rows belong to system s and to algorithms first … last (none when both are NULL); *nalg
 * gets how many of s's algorithms that range holds. */
static int S_check_part(size_t *nalg, const hg_system *s, size_t part, const char *first,
	const char *last, const hg_fig *const *rows, size_t n)
{
	size_t i;

	*nalg = 0;
	if (part == 0)
		return hg_error_set("%s: downloads: parts are numbered from 1", s->name);
	if (!first != !last || (first && strcmp(first, last) > 0))
		return hg_error_set("%s: downloads part %zu: its first and last algorithm are not a "
			"range", s->name, part);
	for (i = 0; first && s->algorithms[i]; i++)
		if (strcmp(s->algorithms[i], first) >= 0 && strcmp(s->algorithms[i], last) <= 0)
			(*nalg)++;
	for (i = 0; i < n; i++)
		if (strcmp(rows[i]->system, s->name) != 0 || !first ||
			strcmp(rows[i]->algorithm, first) < 0 || strcmp(rows[i]->algorithm, last) > 0)
			return hg_error_set("%s: downloads part %zu: a row of %s on %s does not belong "
				"to it", s->name, part, rows[i]->algorithm, rows[i]->system);
	return 0;
}

int hg_site_results_part(const char *tmp, const hg_data *d, size_t system, size_t part,
	const char *first_id, const char *last_id, const hg_fig *const *rows, size_t n,
	const hg_yardsticks *y, hg_part_info *out)
{
	const hg_system *s;
	char name[32], *path = NULL, *csv_path = NULL, *dir;
	FILE *f, *csv;
	int rc = -1;

	memset(out, 0, sizeof(*out));
	if (system >= d->nsystems)
		return hg_error_set("downloads: no system %zu", system);
	s = &d->systems[system];
	if (S_check_part(&out->algorithms, s, part, first_id, last_id, rows, n) != 0)
		return -1;
	dir = hg_xprintf("%s/%s", tmp, s->name);
	rc = hg_mkdirs(dir);
	free(dir);
	if (rc != 0)
		return -1;
	out->system = hg_xstrdup(s->name);
	out->part = part;
	out->first_id = first_id ? hg_xstrdup(first_id) : NULL;
	out->last_id = last_id ? hg_xstrdup(last_id) : NULL;
	out->figures = n;
	hg_part_name(name, sizeof(name), part);
	out->csv = hg_xprintf("%s/%s.csv", s->name, name);
	out->json = hg_xprintf("%s/%s.json", s->name, name);

	/* both files at once, each row's values made once */
	rc = -1;
	csv_path = hg_xprintf("%s/%s", tmp, out->csv);
	path = hg_xprintf("%s/%s", tmp, out->json);
	if (!(csv = hg_gztwin_open_sum(csv_path, &out->csv_sum)))
		goto out;
	if (!(f = hg_gztwin_open_sum(path, &out->json_sum))) {
		hg_gztwin_close(csv);
		goto out;
	}
	rc = hg_results_both_to(csv, f, &s, 1, 1, rows, n, y);
	if (hg_gztwin_close(csv) != 0)
		rc = -1;
	if (hg_gztwin_close(f) != 0)
		rc = -1;
out:
	free(csv_path);
	free(path);
	if (rc != 0) {
		char *msg = hg_xstrdup(hg_error_last());
		hg_part_info_clear(out);
		hg_error_set("%s", msg);
		free(msg);
	}
	return rc;
}

/* A JSON string, or null. */
static void S_json_str(FILE *f, const char *s)
{
	json_t *j = s ? json_string(s) : NULL;
	char *text = j ? json_dumps(j, JSON_ENCODE_ANY) : NULL;
	fputs(text ? text : "null", f);
	free(text);
	json_decref(j);
}

static void S_index_json(FILE *f, const hg_part_info *parts, size_t nparts)
{
	unsigned long long figures = 0;
	size_t i;

	for (i = 0; i < nparts; i++)
		figures += parts[i].figures;
	fprintf(f, "{\"schema\": \"hashbench.results-index/1\",\n\"algorithms_per_part\": %d,\n"
		"\"figures\": %llu,\n\"columns\": [", HG_PART_ALGORITHMS, figures);
	for (i = 0; hg_results_columns[i]; i++)
		fprintf(f, "%s\"%s\"", i ? ", " : "", hg_results_columns[i]);
	fputs("],\n\"parts\": [", f);
	for (i = 0; i < nparts; i++) {
		const hg_part_info *p = &parts[i];
		fputs(i ? ",\n  {\"system\": " : "\n  {\"system\": ", f);
		S_json_str(f, p->system);
		fprintf(f, ", \"part\": %zu, \"first_algorithm\": ", p->part);
		S_json_str(f, p->first_id);
		fputs(", \"last_algorithm\": ", f);
		S_json_str(f, p->last_id);
		fprintf(f, ", \"algorithms\": %zu, \"figures\": %zu,\n   \"csv\": ", p->algorithms,
			p->figures);
		S_json_str(f, p->csv);
		fprintf(f, ", \"csv_bytes\": %llu, \"csv_sha256\": \"%s\",\n   \"json\": ",
			p->csv_sum.bytes, p->csv_sum.sha256);
		S_json_str(f, p->json);
		fprintf(f, ", \"json_bytes\": %llu, \"json_sha256\": \"%s\"}", p->json_sum.bytes,
			p->json_sum.sha256);
	}
	fputs(nparts ? "\n]}\n" : "]}\n", f);
}

static void S_index_csv(FILE *f, const hg_part_info *parts, size_t nparts)
{
	size_t i, k;

	for (k = 0; S_index_columns[k]; k++)
		fprintf(f, "%s%s", k ? "," : "", S_index_columns[k]);
	fputs("\r\n", f);
	for (i = 0; i < nparts; i++) {
		const hg_part_info *p = &parts[i];
		hg_csv_field(f, p->system);
		fprintf(f, ",%zu,", p->part);
		hg_csv_field(f, p->first_id);
		fputc(',', f);
		hg_csv_field(f, p->last_id);
		fprintf(f, ",%zu,%zu,", p->algorithms, p->figures);
		hg_csv_field(f, p->csv);
		fprintf(f, ",%llu,%s,", p->csv_sum.bytes, p->csv_sum.sha256);
		hg_csv_field(f, p->json);
		fprintf(f, ",%llu,%s\r\n", p->json_sum.bytes, p->json_sum.sha256);
	}
}

/* <tmp>/<name> and its twin, from what fill writes. */
static int S_write(const char *tmp, const char *name,
	void (*fill)(FILE *, const hg_part_info *, size_t), const hg_part_info *parts, size_t nparts)
{
	char *buf = NULL, *path;
	size_t size = 0;
	FILE *f = open_memstream(&buf, &size);
	int rc, bad;

	if (!f)
		return hg_error_set("out of memory writing %s", name);
	fill(f, parts, nparts);
	bad = ferror(f);
	if (fclose(f) != 0 || bad) {
		free(buf);
		return hg_error_set("out of memory writing %s", name);
	}
	path = hg_xprintf("%s/%s", tmp, name);
	rc = hg_write_with_gz(path, buf, size);
	free(path);
	free(buf);
	return rc;
}

int hg_site_results_index(const char *tmp, const hg_part_info *parts, size_t nparts)
{
	size_t i;

	for (i = 0; i < nparts; i++)
		if (!parts[i].system || !parts[i].csv || !parts[i].json ||
			strlen(parts[i].csv_sum.sha256) != 64 || strlen(parts[i].json_sum.sha256) != 64)
			return hg_error_set("downloads index: part %zu was not written", i);
	if (S_write(tmp, "results-index.json", S_index_json, parts, nparts) != 0)
		return -1;
	return S_write(tmp, "results-index.csv", S_index_csv, parts, nparts);
}
