/* downloads.c — the figures as files to download: CSV (RFC 4180: a header row, CRLF, fields
 * quoted when they hold a comma, a quote or a line break) and JSON (hashbench.results/1), raw
 * numbers at full precision, each row naming the record it comes from and its SHA-256; each
 * system of the JSON names its system.json and sentinel.json (null when not traced); a SUPERCOP
 * implementation's row names its path in the tree and the compiler setting it was built with. */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdio_ext.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "render.h"

const char *const hg_results_columns[] = { "system", "algorithm", "instance", "implementation",
	"message_bytes", "status", "kat", "mean_cycles", "cycles_per_byte", "mean_ns", "mb_per_s",
	"calls", "rounds", "headline_cycles_per_byte", "headline_low_cycles_per_byte",
	"headline_high_cycles_per_byte", "headline_interval", "headline_estimator", "median_cycles",
	"spread_pct", "unstable", "disturbed", "static_bytes",
	"baseline_rss_kib", "peak_rss_kib", "stack_bytes", "heap_peak_bytes", "heap_allocations",
	"mmap_bytes", "text_bytes", "data_bytes", "record", "record_sha256", "supercop_path",
	"supercop_compiler", "unit", "ratio_sm3_reference", "ratio_low_sm3_reference",
	"ratio_high_sm3_reference", "ratio_sha256_reference", "ratio_low_sha256_reference",
	"ratio_high_sha256_reference", "ratio_sha256_openssl", "ratio_low_sha256_openssl",
	"ratio_high_sha256_openssl", "ratio_method", NULL };

/* The yardsticks of the ratio columns (hg_yardsticks' order), as the comparison page has them. */
static const size_t S_ratio_yard[3] = { 0, 2, 3 };

void hg_csv_field(FILE *f, const char *s)
{
	if (!s)
		return;
	if (strpbrk(s, ",\"\r\n") == NULL) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

/* One row's values as text; NULL where the figure does not exist (CSV: empty, JSON: null).
 * kinds[i]: 's' string, 'n' number, 'b' boolean. */
#define S_NCOLUMNS (sizeof(hg_results_columns) / sizeof(hg_results_columns[0]) - 1)
typedef struct {
	char buf[S_NCOLUMNS][64];
	const char *v[S_NCOLUMNS];
	char kind[S_NCOLUMNS];
} S_row;

/* v in decimal, as %llu and %lld write it, without printf's cost (a row has a dozen). */
static char *S_ull(char *b, unsigned long long v)
{
	char t[24];
	int n = 0;
	char *p = b;
	do {
		t[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	while (n)
		*p++ = t[--n];
	*p = 0;
	return b;
}

static char *S_ll(char *b, long long v)
{
	if (v >= 0)
		return S_ull(b, (unsigned long long)v);
	b[0] = '-';
	S_ull(b + 1, -(unsigned long long)v);
	return b;
}

/* The ratios of f's headline to the yardsticks' at its size (none where a yardstick was not
 * measured at it, or f has no figures); returns the row's ratio_method, NULL when it has none:
 * paired when every ratio of the row was, unpaired when none was (from the intervals when any
 * unpaired one has bounds), and both joined by "+" when some were. */
static const char *S_ratios(hg_ratio *out, const hg_fig *f, const hg_yardsticks *y)
{
	hg_headline_fig h;
	size_t k, at = HG_NSIZES;
	int any = 0, bounds = 0, paired = 0;

	for (k = 0; k < HG_NSIZES; k++)
		if (hg_sizes[k] == f->message_bytes)
			at = k;
	hg_headline_of_fig(&h, f);
	for (k = 0; k < 3; k++) {
		out[k].ratio = out[k].low = out[k].high = -1;
		if (!y || !f->ok || at == HG_NSIZES ||
			hg_ratio_of(&out[k], &h, &y->at[S_ratio_yard[k]][at]) != 0)
			continue;
		if (out[k].paired) {
			paired = 1;
			continue;
		}
		any = 1;
		bounds |= out[k].low >= 0;
	}
	if (paired && any)
		return bounds ? HG_RATIO_PAIRED "+" HG_RATIO_UNPAIRED : HG_RATIO_PAIRED "+"
			HG_RATIO_HEADLINES;
	return paired ? HG_RATIO_PAIRED : bounds ? HG_RATIO_UNPAIRED : any ? HG_RATIO_HEADLINES :
		NULL;
}

static void S_row_of(S_row *r, const hg_fig *f, const hg_yardsticks *y)
{
	const hg_fig_more *x = hg_fig_more_get(f);
	hg_ratio q[3];
	const char *method = S_ratios(q, f, y);
	int i = 0, k;
#define STR(x) (r->kind[i] = 's', r->v[i] = (x), i++)
#define UNUM(ok, x) (r->kind[i] = 'n', r->v[i] = (ok) ? S_ull(r->buf[i], (x)) : NULL, i++)
#define NUM(ok, x) (r->kind[i] = 'n', r->v[i] = (ok) ? S_ll(r->buf[i], (x)) : NULL, i++)
#define DBL(ok, x) (r->kind[i] = 'n', r->v[i] = (ok) && isfinite(x) ? \
	(hg_num_shortest(r->buf[i], 64, (x)), r->buf[i]) : NULL, i++)
#define BOOL(x) (r->kind[i] = 'b', r->v[i] = (x) ? "true" : "false", i++)
	STR(f->system);
	STR(f->algorithm);
	STR(f->instance);
	STR(f->implementation);
	UNUM(1, f->message_bytes);
	STR(x->status);
	STR(f->kat);
	DBL(f->ok, x->mean_cycles);
	DBL(f->ok, x->cycles_per_byte);
	DBL(f->ok, x->mean_ns);
	DBL(f->ok, f->mb_per_s);
	UNUM(f->ok, x->calls);
	UNUM(1, x->rounds);
	DBL(f->ok, f->headline_cpb);
	DBL(f->ok && f->headline_iv.state != HG_IV_NONE, f->headline_iv.low_cpb);
	DBL(f->ok && f->headline_iv.state != HG_IV_NONE, f->headline_iv.high_cpb);
	STR(f->ok ? hg_iv_name(f->headline_iv.state) : NULL);
	STR(f->ok ? f->headline_estimator : NULL);
	DBL(x->median_cycles >= 0, x->median_cycles);
	DBL(x->spread_pct >= 0, x->spread_pct);
	BOOL(x->unstable);
	BOOL(f->disturbed);
	NUM(f->static_bytes >= 0, f->static_bytes);
	NUM(x->baseline_rss_kib >= 0, x->baseline_rss_kib);
	NUM(f->peak_rss_kib >= 0, f->peak_rss_kib);
	NUM(f->stack_bytes >= 0, f->stack_bytes);
	NUM(f->heap_peak_bytes >= 0, f->heap_peak_bytes);
	NUM(x->heap_allocations >= 0, x->heap_allocations);
	NUM(x->mmap_bytes >= 0, x->mmap_bytes);
	NUM(x->text_bytes >= 0, x->text_bytes);
	NUM(x->data_bytes >= 0, x->data_bytes);
	STR(x->record);
	STR(x->record_sha256);
	STR(f->supercop_path);
	STR(f->compiler);
	STR(f->unit ? f->unit : "cycles");
	for (k = 0; k < 3; k++) {
		DBL(q[k].ratio >= 0, q[k].ratio);
		DBL(q[k].low >= 0, q[k].low);
		DBL(q[k].high >= 0, q[k].high);
	}
	STR(method);
#undef STR
#undef NUM
#undef UNUM
#undef DBL
#undef BOOL
}

/* open_memstream's buffer and size are only right once the stream is closed. */
static int S_close(char **out, size_t *len, FILE *f, char **buf, size_t *size)
{
	int bad = ferror(f);
	if (fclose(f) != 0 || bad) {
		free(*buf);
		return hg_error_set("out of memory writing a download");
	}
	*out = *buf;
	*len = *size;
	return 0;
}

static void S_csv_header(FILE *f)
{
	size_t k;
	for (k = 0; hg_results_columns[k]; k++)
		fprintf(f, "%s%s", k ? "," : "", hg_results_columns[k]);
	fputs("\r\n", f);
}

static void S_csv_row(FILE *f, const S_row *r)
{
	size_t k;
	for (k = 0; hg_results_columns[k]; k++) {
		if (k)
			fputc(',', f);
		hg_csv_field(f, r->v[k]);
	}
	fputs("\r\n", f);
}

static void S_csv_to(FILE *f, const hg_fig *const *rows, size_t n, const hg_yardsticks *y)
{
	size_t i;
	S_row r;

	S_csv_header(f);
	for (i = 0; i < n; i++) {
		S_row_of(&r, rows[i], y);
		S_csv_row(f, &r);
	}
}

int hg_results_csv(char **out, size_t *len, const hg_fig *const *rows, size_t n,
	const hg_yardsticks *y)
{
	char *buf = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&buf, &size);

	if (!f)
		return hg_error_set("out of memory writing a download");
	__fsetlocking(f, FSETLOCKING_BYCALLER); /* this thread's alone: no lock per field */
	S_csv_to(f, rows, n, y);
	return S_close(out, len, f, &buf, &size);
}

/* A JSON string: jansson escapes it (the text came from JSON evidence, so it is UTF-8). */
static void S_json_str(FILE *f, const char *s)
{
	const char *p;
	json_t *j;
	char *text;
	for (p = s; *p && *p != '"' && *p != '\\' && (unsigned char)*p >= 0x20; p++)
		;
	if (!*p) { /* nothing to escape: the common case, without an allocation */
		fputc('"', f);
		fputs(s, f);
		fputc('"', f);
		return;
	}
	j = json_string(s);
	text = j ? json_dumps(j, JSON_ENCODE_ANY) : NULL;
	fputs(text ? text : "null", f);
	free(text);
	json_decref(j);
}

/* Row i of the JSON's "figures". */
static void S_json_row(FILE *f, const S_row *r, size_t i)
{
	size_t k;
	fputs(i ? ",\n  {" : "\n  {", f);
	for (k = 0; hg_results_columns[k]; k++) {
		fputs(k ? ", \"" : "\"", f);
		fputs(hg_results_columns[k], f);
		fputs("\": ", f);
		if (!r->v[k])
			fputs("null", f);
		else if (r->kind[k] == 's')
			S_json_str(f, r->v[k]);
		else
			fputs(r->v[k], f);
	}
	fputc('}', f);
}

/* The JSON up to its figures' first row. */
static int S_json_head(FILE *f, const hg_system *const *systems, size_t nsys, int describe)
{
	size_t i;

	fputs("{\"schema\": \"hashbench.results/1\",\n\"columns\": [", f);
	for (i = 0; hg_results_columns[i]; i++)
		fprintf(f, "%s\"%s\"", i ? ", " : "", hg_results_columns[i]);
	fputs("],\n\"systems\": [", f);
	for (i = 0; i < nsys; i++) {
		const hg_system *s = systems[i];
		char *path = NULL, *desc = NULL;
		if (describe) {
			json_error_t err;
			json_t *j;
			path = hg_xprintf("%s/system.json", s->dir);
			j = json_load_file(path, JSON_REJECT_DUPLICATES, &err);
			free(path);
			if (!j)
				return hg_error_set("%s/system.json: %s", s->dir, err.text);
			desc = json_dumps(j, JSON_SORT_KEYS | JSON_COMPACT | JSON_ENSURE_ASCII);
			json_decref(j);
		}
		fputs(i ? ",\n  {\"system\": " : "\n  {\"system\": ", f);
		S_json_str(f, s->name);
		path = hg_xprintf("data/%s/system.json", s->name);
		fputs(", \"system_json\": ", f);
		S_json_str(f, path);
		free(path);
		fprintf(f, ", \"system_json_sha256\": \"%s\"", s->system_sha256);
		/* the machine-speed readings (null: not traced, evidence of an earlier hashbench) */
		if (s->sentinel && s->sentinel->traced) {
			path = hg_xprintf("data/%s/sentinel.json", s->name);
			fputs(", \"sentinel_json\": ", f);
			S_json_str(f, path);
			free(path);
			fprintf(f, ", \"sentinel_json_sha256\": \"%s\"", s->sentinel->file.sha256);
		} else {
			fputs(", \"sentinel_json\": null, \"sentinel_json_sha256\": null", f);
		}
		if (describe)
			fprintf(f, ",\n   \"description\": %s", desc ? desc : "null");
		fputc('}', f);
		free(desc);
	}
	fputs(nsys ? "\n],\n\"figures\": [" : "],\n\"figures\": [", f);
	return 0;
}

int hg_results_both_to(FILE *csv, FILE *json, const hg_system *const *systems, size_t nsys,
	int describe, const hg_fig *const *rows, size_t n, const hg_yardsticks *y)
{
	size_t i;
	S_row r;

	S_csv_header(csv);
	if (S_json_head(json, systems, nsys, describe) != 0)
		return -1;
	for (i = 0; i < n; i++) {
		S_row_of(&r, rows[i], y);
		S_csv_row(csv, &r);
		S_json_row(json, &r, i);
	}
	fputs(n ? "\n]}\n" : "]}\n", json);
	return 0;
}
