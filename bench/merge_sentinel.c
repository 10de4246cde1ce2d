/* merge_sentinel.c — the sentinel traces of a campaign's shards joined for `hashbench merge`:
 * one sentinel.json with every shard's readings (each marked with its input), in time order, and
 * campaign.sentinel of the merged system.json with the counts summed. */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "hbcommands.h"

static int S_by_time(const void *x, const void *y)
{
	json_t *a = *(json_t *const *)x, *b = *(json_t *const *)y;
	const char *ta = json_string_value(json_object_get(a, "time"));
	const char *tb = json_string_value(json_object_get(b, "time"));
	int c = strcmp(ta ? ta : "", tb ? tb : "");
	if (c)
		return c;
	/* the same second: keep each input's order */
	return (int)(json_integer_value(json_object_get(a, "_order")) -
		json_integer_value(json_object_get(b, "_order")));
}

/* The limit, the noise floor and how the limit was set, as the shards had them: each shard
 * judged its own passes, so the merged system states the largest of each (and the first's
 * source), earlier shards' files having only limit_pct. */
static void S_keep_largest(json_t *out, json_t *in)
{
	static const char *const keys[] = { "limit_pct", "noise_floor_pct", "limit_floor_pct", NULL };
	size_t i;
	for (i = 0; keys[i]; i++) {
		json_t *v = json_object_get(in, keys[i]), *have = json_object_get(out, keys[i]);
		if (json_is_number(v) && (!json_is_number(have) ||
				json_number_value(v) > json_number_value(have)))
			json_object_set(out, keys[i], v);
	}
	if (!json_object_get(out, "limit_source") && json_is_string(json_object_get(in,
			"limit_source")))
		json_object_set(out, "limit_source", json_object_get(in, "limit_source"));
}

int hb_merge_sentinel(const char *const *dirs, size_t n, const char *outdir)
{
	json_t *out = NULL, **all = NULL, *joined;
	size_t i, k, nall = 0, cap = 0;
	int rc = 0;

	for (i = 0; i < n && rc == 0; i++) {
		char *path = hb_path_join(dirs[i], "sentinel.json");
		json_error_t err;
		json_t *j = hb_is_file(path) ? json_load_file(path, 0, &err) : NULL, *x;
		if (hb_is_file(path) && (!j || !json_is_array(json_object_get(j, "readings"))))
			rc = hb_error_set("merge: %s: %s", path, j ? "readings: expected an array" : err.text);
		if (j && rc == 0) {
			if (!out)
				out = json_pack("{s:s, s:O}", "schema", "hashbench.sentinel/1", "workload",
					json_object_get(j, "workload"));
			S_keep_largest(out, j);
			json_array_foreach(json_object_get(j, "readings"), k, x) {
				if (nall == cap) {
					json_t **grown = realloc(all, (cap = cap ? 2 * cap : 256) * sizeof(*all));
					if (!grown) {
						rc = hb_error_set("merge: out of memory");
						break;
					}
					all = grown;
				}
				all[nall] = json_deep_copy(x);
				json_object_set_new(all[nall], "input", json_integer((json_int_t)i + 1));
				json_object_set_new(all[nall], "_order", json_integer((json_int_t)nall));
				nall++;
			}
		}
		json_decref(j);
		free(path);
	}
	if (rc == 0 && out) {
		char *path = hb_path_join(outdir, "sentinel.json");
		qsort(all, nall, sizeof(*all), S_by_time);
		joined = json_array();
		for (i = 0; i < nall; i++) {
			json_object_del(all[i], "_order");
			json_array_append(joined, all[i]);
		}
		json_object_set_new(out, "readings", joined);
		rc = hb_json_write(path, out);
		free(path);
	}
	for (i = 0; i < nall; i++)
		json_decref(all[i]);
	free(all);
	json_decref(out);
	return rc;
}

json_t *hb_merge_sentinel_summary(json_t *const *systems, size_t n)
{
	json_int_t readings = 0, disturbed = 0, remeasured = 0;
	json_t *first = NULL;
	size_t i;
	for (i = 0; i < n; i++) {
		json_t *s = json_object_get(json_object_get(systems[i], "campaign"), "sentinel");
		if (!json_is_object(s))
			continue;
		if (!first)
			first = json_object();
		S_keep_largest(first, s);
		if (!json_object_get(first, "workload"))
			json_object_set(first, "workload", json_object_get(s, "workload"));
		readings += json_integer_value(json_object_get(s, "readings"));
		disturbed += json_integer_value(json_object_get(s, "disturbed_records"));
		remeasured += json_integer_value(json_object_get(s, "remeasured_records"));
	}
	if (!first)
		return NULL;
	/* the medians are each machine's own: they stay with the shards */
	json_object_set_new(first, "readings", json_integer(readings));
	json_object_set_new(first, "disturbed_records", json_integer(disturbed));
	json_object_set_new(first, "remeasured_records", json_integer(remeasured));
	return first;
}
