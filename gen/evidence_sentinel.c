/* evidence_sentinel.c — the machine's speed during a campaign: sentinel.json (every timing of the
 * fixed sentinel workload) and system.json's campaign.sentinel read as untrusted input. */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "evidence.h"

#define S_SCHEMA "hashbench.sentinel/1"

/* ---- reading ---- */

/* A number of 0 or more; optional ones absent or null leave *out as it is. */
static int S_field_num(double *out, json_t *o, const char *file, const char *prefix,
	const char *key, int required)
{
	json_t *v = json_object_get(o, key);
	char path[96];
	snprintf(path, sizeof path, "%s%s", prefix, key);
	if (!v || json_is_null(v))
		return required ? hg_ev_bad(file, path, v ? "expected a number, got null" : "missing") : 0;
	if (!json_is_number(v) || !isfinite(json_number_value(v)) || json_number_value(v) < 0)
		return hg_ev_bad(file, path, "expected a number of 0 or more");
	*out = json_number_value(v);
	return 0;
}

/* How the limit was set: noise_floor_pct, limit_floor_pct, limit_source (and limit_pct) of
 * sentinel.json or of system.json's campaign.sentinel; what o has replaces what was read. */
static int S_limit_fields(hg_sentinel *t, json_t *o, const char *file, const char *prefix)
{
	char *src = NULL;
	if (S_field_num(&t->noise_floor_pct, o, file, prefix, "noise_floor_pct", 0) ||
		S_field_num(&t->limit_floor_pct, o, file, prefix, "limit_floor_pct", 0) ||
		S_field_num(&t->campaign_limit_pct, o, file, prefix, "limit_pct", 0) ||
		hg_ev_str(&src, file, o, prefix, "limit_source", 0))
		return -1;
	if (src) {
		free(t->limit_source);
		t->limit_source = src;
	}
	return 0;
}

static int S_reading(hg_reading *r, json_t *o, const char *file, size_t i)
{
	char prefix[48];
	snprintf(prefix, sizeof prefix, "readings[%zu].", i);
	if (!json_is_object(o)) {
		snprintf(prefix, sizeof prefix, "readings[%zu]", i);
		return hg_ev_bad(file, prefix, "expected an object");
	}
	if (hg_ev_str(&r->time, file, o, prefix, "time", 0) ||
		S_field_num(&r->t_s, o, file, prefix, "t_s", 1) ||
		hg_ev_int(&r->cpu, file, o, prefix, "cpu", 1) ||
		hg_ev_str(&r->record, file, o, prefix, "record", 0) ||
		hg_ev_str(&r->when, file, o, prefix, "when", 1) ||
		hg_ev_int(&r->attempt, file, o, prefix, "attempt", 0) ||
		hg_ev_int(&r->cycles, file, o, prefix, "cycles", 1) ||
		hg_ev_int(&r->ns, file, o, prefix, "ns", 0))
		return -1;
	if (strcmp(r->when, "calibration") && strcmp(r->when, "before") && strcmp(r->when, "after")) {
		snprintf(prefix, sizeof prefix, "readings[%zu].when", i);
		return hg_ev_bad(file, prefix, "expected \"calibration\", \"before\" or \"after\"");
	}
	if (r->record && !hg_sums_path_ok(r->record)) {
		snprintf(prefix, sizeof prefix, "readings[%zu].record", i);
		return hg_ev_bad(file, prefix, "a path that leaves the system folder: refused");
	}
	if (r->attempt < 0)
		r->attempt = 0;
	return 0;
}

int hg_sentinel_parse(hg_sentinel *out, const char *text, size_t len, const char *file)
{
	json_error_t err;
	json_t *j = json_loadb(text, len, 0, &err), *v, *readings, *o;
	size_t i;
	int rc = -1;

	out->traced = 1;
	out->limit_pct = 3.0;
	if (!j)
		return hg_error_set("%s:%d:%d: malformed JSON: %s", file, err.line, err.column, err.text);
	if (!json_is_object(j)) {
		hg_error_set("%s: expected a JSON object", file);
		goto out;
	}
	v = json_object_get(j, "schema");
	if (!v || !json_is_string(v)) {
		hg_ev_bad(file, "schema", v ? "expected a string" : "missing");
		goto out;
	}
	if (strcmp(json_string_value(v), S_SCHEMA) != 0) {
		hg_error_set("%s: schema: unknown version \"%s\" (this hashgen reads %s)", file,
			json_string_value(v), S_SCHEMA);
		goto out;
	}
	if (hg_ev_str(&out->workload, file, j, "", "workload", 0) ||
		S_field_num(&out->limit_pct, j, file, "", "limit_pct", 0))
		goto out;
	if (!(out->limit_pct > 0)) {
		hg_ev_bad(file, "limit_pct", "expected a number above 0");
		goto out;
	}
	if (S_limit_fields(out, j, file, "") != 0)
		goto out;
	readings = json_object_get(j, "readings");
	if (!json_is_array(readings)) {
		hg_ev_bad(file, "readings", readings ? "expected an array" : "missing");
		goto out;
	}
	out->readings = calloc(json_array_size(readings) + 1, sizeof(hg_reading));
	if (!out->readings) {
		hg_error_set("%s: out of memory", file);
		goto out;
	}
	json_array_foreach(readings, i, o) {
		out->nreadings = i + 1;
		if (S_reading(&out->readings[i], o, file, i) != 0)
			goto out;
	}
	rc = 0;
out:
	json_decref(j);
	return rc;
}

/* system.json's campaign.sentinel: the counts the pages show. */
static int S_campaign(hg_sentinel *t, json_t *cs, const char *file)
{
	json_t *m, *v;
	const char *key;
	if (!json_is_object(cs))
		return hg_ev_bad(file, "campaign.sentinel", "expected an object");
	if (hg_ev_int(&t->readings_count, file, cs, "campaign.sentinel.", "readings", 0) ||
		hg_ev_int(&t->disturbed_records, file, cs, "campaign.sentinel.", "disturbed_records",
			0) ||
		hg_ev_int(&t->remeasured_records, file, cs, "campaign.sentinel.",
			"remeasured_records", 0) ||
		S_limit_fields(t, cs, file, "campaign.sentinel."))
		return -1;
	if (!t->traced) {
		/* sentinel.json is the record of the readings; without it system.json says what ran */
		if (hg_ev_str(&t->workload, file, cs, "campaign.sentinel.", "workload", 0) ||
			S_field_num(&t->limit_pct, cs, file, "campaign.sentinel.", "limit_pct", 0))
			return -1;
	} else {
		json_t *w = json_object_get(cs, "workload"), *l = json_object_get(cs, "limit_pct");
		if (w && !json_is_null(w) && !json_is_string(w))
			return hg_ev_bad(file, "campaign.sentinel.workload", "expected a string");
		if (l && !json_is_null(l) && !json_is_number(l))
			return hg_ev_bad(file, "campaign.sentinel.limit_pct", "expected a number");
	}
	m = json_object_get(cs, "median_cycles");
	if (m && !json_is_null(m)) {
		if (!json_is_object(m))
			return hg_ev_bad(file, "campaign.sentinel.median_cycles", "expected an object");
		json_object_foreach(m, key, v)
			if (!json_is_number(v)) {
				char path[160];
				snprintf(path, sizeof path, "campaign.sentinel.median_cycles.%.100s", key);
				return hg_ev_bad(file, path, "expected a number");
			}
	}
	return 0;
}

int hg_sentinel_load(hg_system *s, json_t *campaign_sentinel, const char *sysfile)
{
	char *path = hg_xprintf("%s/sentinel.json", s->dir), *text = NULL;
	size_t len = 0, nown;
	const hg_sum *own = hg_sums_system(s, &nown);
	const char *sum = hg_sums_find(own, nown, "sentinel.json");
	int have = access(path, F_OK) == 0, listed = sum != NULL;
	int rc = -1;
	hg_sentinel *t;

	if (!have && !listed && (!campaign_sentinel || json_is_null(campaign_sentinel))) {
		free(path);
		return 0;
	}
	t = calloc(1, sizeof(*t));
	if (!t) {
		free(path);
		return hg_error_set("%s: out of memory", sysfile);
	}
	t->readings_count = t->disturbed_records = t->remeasured_records = -1;
	t->noise_floor_pct = t->limit_floor_pct = t->campaign_limit_pct = -1;
	t->limit_pct = 3.0;
	s->sentinel = t;
	if (have || listed)
		t->file.file = hg_xstrdup("sentinel.json");
	if (have) {
		if (hg_read_file(&text, &len, path) != 0 || hg_sentinel_parse(t, text, len, path) != 0)
			goto out;
		hg_sha256_hex(t->file.sha256, text, len);
		hg_evfile_check(&t->file, own, nown);
	} else if (listed) {
		memcpy(t->file.listed, sum, 65);
		t->file.state = HG_SUM_MISSING;
	}
	if (campaign_sentinel && !json_is_null(campaign_sentinel) &&
		S_campaign(t, campaign_sentinel, sysfile) != 0)
		goto out;
	rc = 0;
out:
	free(text);
	free(path);
	return rc;
}

void hg_sentinel_free(hg_sentinel *t)
{
	size_t i;
	if (!t)
		return;
	for (i = 0; i < t->nreadings; i++) {
		free(t->readings[i].time);
		free(t->readings[i].record);
		free(t->readings[i].when);
	}
	free(t->readings);
	free(t->workload);
	free(t->limit_source);
	free(t->file.file);
	free(t);
}
