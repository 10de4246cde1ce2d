/* history.c — a system's history of campaigns (data/<system>/history.json): what one campaign
 * cannot sample, the machine's drift from one campaign to the next, measured over the earlier
 * ones, sets the interval's floor, and a campaign whose machine is slower or faster says so. */
#define _GNU_SOURCE
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "hbcampaign.h"

#ifndef HB_GIT_COMMIT
#define HB_GIT_COMMIT "unknown"
#endif

#define SCHEMA "hashbench.history/1"
#define YARDSTICK_MIN_BYTES 1024 /* the sizes whose headlines the history keeps */

/* The yardsticks: SM3 (every NGCC candidate is compared with it) and SHA-256, as the bundled
 * baselines name them, through whichever of their implementations were measured. */
static const struct { const char *algorithm, *instance; } S_yardsticks[] = {
	{ "sm3", "SM3" }, { "sha2", "SHA-256" } };
static const char *const S_impls[] = { "reference", "openssl" };

static const char *const S_default_why = "default (fewer than 3 earlier campaigns)";

/* ---- reading, as untrusted input ---- */

static int S_bad(const char *path, const char *field, size_t i, const char *what)
{
	if (i == (size_t)-1)
		return hb_error_set("%s: %s: %s", path, field, what);
	return hb_error_set("%s: campaigns[%zu].%s: %s", path, i, field, what);
}

static int S_check_str(json_t *e, const char *key, const char *path, size_t i)
{
	json_t *v = json_object_get(e, key);
	return json_is_string(v) ? 0 : S_bad(path, key, i, v ? "expected a string" : "missing");
}

static int S_check_entry(json_t *e, const char *path, size_t i)
{
	static const char *const strs[] = { "start", "end", "hashbench", "profile", "counter", NULL };
	json_t *v, *y;
	size_t k;

	if (!json_is_object(e))
		return hb_error_set("%s: campaigns[%zu]: expected an object", path, i);
	for (k = 0; strs[k]; k++)
		if (S_check_str(e, strs[k], path, i) != 0)
			return HB_ERROR;
	v = json_object_get(e, "cpu");
	if (!json_is_integer(v) || json_integer_value(v) < 0)
		return S_bad(path, "cpu", i, v ? "expected an integer of 0 or more" : "missing");
	v = json_object_get(e, "sentinel_best_cycles");
	if (!v || (!json_is_null(v) && !(json_is_number(v) && json_number_value(v) > 0)))
		return S_bad(path, "sentinel_best_cycles", i, v ? "expected a number above 0 or null" :
			"missing");
	v = json_object_get(e, "yardsticks");
	if (!json_is_array(v))
		return S_bad(path, "yardsticks", i, v ? "expected an array" : "missing");
	json_array_foreach(v, k, y) {
		char field[64];
		json_t *b = json_object_get(y, "message_bytes"), *c = json_object_get(y, "cycles_per_byte");
		snprintf(field, sizeof(field), "yardsticks[%zu]", k);
		if (!json_is_object(y))
			return S_bad(path, field, i, "expected an object");
		snprintf(field, sizeof(field), "yardsticks[%zu].instance", k);
		if (!json_is_string(json_object_get(y, "instance")))
			return S_bad(path, field, i, "expected a string");
		snprintf(field, sizeof(field), "yardsticks[%zu].implementation", k);
		if (!json_is_string(json_object_get(y, "implementation")))
			return S_bad(path, field, i, "expected a string");
		snprintf(field, sizeof(field), "yardsticks[%zu].message_bytes", k);
		if (!json_is_integer(b) || json_integer_value(b) <= 0)
			return S_bad(path, field, i, "expected an integer above 0");
		snprintf(field, sizeof(field), "yardsticks[%zu].cycles_per_byte", k);
		if (!json_is_number(c) || !(json_number_value(c) > 0) ||
			!isfinite(json_number_value(c)))
			return S_bad(path, field, i, "expected a number above 0");
		snprintf(field, sizeof(field), "yardsticks[%zu].interval_state", k);
		if (json_object_get(y, "interval_state") &&
			!json_is_string(json_object_get(y, "interval_state")))
			return S_bad(path, field, i, "expected a string");
	}
	return 0;
}

int hb_history_load(json_t **out, const char *path)
{
	json_error_t err;
	json_t *j, *list, *e, *schema;
	size_t i;

	*out = NULL;
	if (!hb_is_file(path)) {
		*out = json_array();
		return 0;
	}
	j = json_load_file(path, 0, &err);
	if (!j)
		return hb_error_set("%s:%d: %s", path, err.line, err.text);
	schema = json_object_get(j, "schema");
	if (!json_is_object(j)) {
		json_decref(j);
		return hb_error_set("%s: expected an object", path);
	}
	if (!json_is_string(schema) || strcmp(json_string_value(schema), SCHEMA) != 0) {
		json_decref(j);
		return S_bad(path, "schema", (size_t)-1, "expected \"" SCHEMA "\"");
	}
	list = json_object_get(j, "campaigns");
	if (!json_is_array(list)) {
		json_decref(j);
		return S_bad(path, "campaigns", (size_t)-1, "expected an array");
	}
	json_array_foreach(list, i, e)
		if (S_check_entry(e, path, i) != 0) {
			json_decref(j);
			return HB_ERROR;
		}
	*out = json_incref(list);
	json_decref(j);
	return 0;
}

/* ---- the floor ---- */

/* Is e an earlier campaign of the same CPU and counter? */
static int S_earlier(json_t *e, int cpu, const char *counter, const char *start)
{
	const char *s = json_string_value(json_object_get(e, "start"));
	const char *c = json_string_value(json_object_get(e, "counter"));
	return json_integer_value(json_object_get(e, "cpu")) == cpu && c && counter &&
		strcmp(c, counter) == 0 && !(s && start && strcmp(s, start) == 0);
}

/* The sentinel's best of each earlier campaign of history on cpu with counter, into v (room for
 * every entry); how many. */
static size_t S_sentinel_bests(double *v, json_t *history, int cpu, const char *counter,
	const char *start)
{
	size_t i, m = 0;
	json_t *e;
	json_array_foreach(history, i, e) {
		json_t *b = json_object_get(e, "sentinel_best_cycles");
		if (S_earlier(e, cpu, counter, start) && json_is_number(b))
			v[m++] = json_number_value(b);
	}
	return m;
}

/* How far each of v[0..n) lies from their median, |log(v / median)| in %, appended to dev. */
static void S_deviations(double *dev, size_t *ndev, double *v, size_t n)
{
	double m;
	size_t i;
	for (i = 0; i < n; i++)
		v[i] = log(v[i]);
	m = hb_median(v, n);
	for (i = 0; i < n; i++)
		dev[(*ndev)++] = fabs(v[i] - m) * 100;
}


void hb_history_floor(hb_floor *out, json_t *history, int cpu, const char *counter,
	const char *start)
{
	json_t *e, *y, *seen = json_object(), *vals;
	const char *key;
	size_t i, k, n = 0, nf = 0, ndev = 0, cap = json_array_size(history) + 1;
	double *v = malloc(cap * sizeof(*v)), *dev = NULL, drift = -1;

	if (!v)
		abort();
	out->pct = HB_INTERVAL_FLOOR_PCT;
	out->source = "default";
	out->why = S_default_why;
	out->campaigns = out->figures = 0;
	out->drift_pct = -1;
	out->sentinel_median = -1;
	/* every figure's values over the earlier campaigns, keyed instance/implementation/bytes */
	json_array_foreach(history, i, e) {
		if (!S_earlier(e, cpu, counter, start))
			continue;
		n++;
		json_array_foreach(json_object_get(e, "yardsticks"), k, y) {
			const char *st = json_string_value(json_object_get(y, "interval_state"));
			char *fk;
			/* a figure its own campaign marked wide or unconfirmed carries its own
			 * uncertainty: one noisy campaign must not widen every later one's floor */
			if (st && strcmp(st, "narrow") != 0)
				continue;
			fk = hb_sprintf("%s/%s/%lld", json_string_value(json_object_get(y, "instance")),
				json_string_value(json_object_get(y, "implementation")),
				(long long)json_integer_value(json_object_get(y, "message_bytes")));
			if (!(vals = json_object_get(seen, fk)))
				json_object_set_new(seen, fk, vals = json_array());
			json_array_append_new(vals, json_real(json_number_value(json_object_get(y,
				"cycles_per_byte"))));
			free(fk);
		}
	}
	if (n < HB_HISTORY_MIN)
		goto out;
	{
		size_t m = S_sentinel_bests(v, history, cpu, counter, start);
		if (m >= HB_HISTORY_MIN)
			out->sentinel_median = hb_median(v, m);
	}
	dev = malloc((json_object_size(seen) + 1) * cap * sizeof(*dev));
	if (!dev)
		abort();
	json_object_foreach(seen, key, vals) {
		size_t m = 0;
		json_t *x;
		if (json_array_size(vals) < HB_HISTORY_MIN)
			continue;
		json_array_foreach(vals, k, x)
			if (m < cap)
				v[m++] = json_number_value(x);
		S_deviations(dev, &ndev, v, m);
		nf++;
	}
	if (nf > 0) {
		drift = hb_quantile(dev, ndev, HB_HISTORY_QUANTILE);
		out->why = "history (yardsticks' headlines)";
	} else {
		/* no yardstick measured often enough: the machine's own speed, the sentinel's best */
		size_t m = S_sentinel_bests(v, history, cpu, counter, start);
		if (m < HB_HISTORY_MIN)
			goto out;
		S_deviations(dev, &ndev, v, m);
		drift = hb_quantile(dev, ndev, HB_HISTORY_QUANTILE);
		out->why = "history (the sentinel's best)";
	}
	out->source = "history";
	out->campaigns = n;
	out->figures = nf;
	out->drift_pct = drift;
	out->pct = drift;
	if (out->pct < HB_HISTORY_FLOOR_MIN_PCT)
		out->pct = HB_HISTORY_FLOOR_MIN_PCT;
	if (out->pct > HB_HISTORY_FLOOR_MAX_PCT)
		out->pct = HB_HISTORY_FLOOR_MAX_PCT;
out:
	json_decref(seen);
	free(dev);
	free(v);
}

double hb_history_speed(size_t *n, json_t *history, int cpu, const char *counter,
	const char *start, double best)
{
	double *v = malloc((json_array_size(history) + 1) * sizeof(*v)), med;
	size_t m;

	if (!v)
		abort();
	m = S_sentinel_bests(v, history, cpu, counter, start);
	*n = m;
	med = m >= HB_HISTORY_MIN && best > 0 ? hb_median(v, m) : -1;
	free(v);
	return med > 0 ? (best - med) / med * 100 : NAN;
}

/* ---- the campaign's part ---- */

static char *S_path(const hb_run *r)
{
	return hb_path_join(r->sysdir, "history.json");
}

void hb_run_history_init(hb_run *r)
{
	hb_history_floor(&r->floor, NULL, r->cpu, NULL, NULL);
	r->history = NULL;
	r->speed_pct = NAN;
	r->speed_of = 0;
}

void hb_run_history_start(hb_run *r)
{
	char *path;
	json_decref(r->history);
	r->history = NULL;
	hb_history_floor(&r->floor, NULL, r->cpu, NULL, NULL);
	/* a shard is part of a campaign: the floor its records carry must be every shard's */
	if (r->o->shard_count)
		return;
	path = S_path(r);
	if (hb_history_load(&r->history, path) != 0)
		hb_note(r->o->progress, r->tty, "warning: %s; it is left as it is, this campaign is not "
			"added to it and its intervals have the default floor of %.1f %%", hb_error_last(),
			HB_INTERVAL_FLOOR_PCT);
	else
		hb_history_floor(&r->floor, r->history, r->cpu, hb_counter_name(&r->counter),
			r->start);
	free(path);
}

/* The yardsticks' headlines this campaign measured (a record of an earlier campaign, kept by a
 * resume of another profile or version, is not this campaign's). */
static json_t *S_yardstick_figures(const hb_run *r)
{
	json_t *out = json_array();
	size_t a, i, s;
	for (a = 0; a < sizeof(S_yardsticks) / sizeof(S_yardsticks[0]); a++)
		for (i = 0; i < sizeof(S_impls) / sizeof(S_impls[0]); i++)
			for (s = 0; s < r->nsizes; s++) {
				char *path;
				json_t *j, *cpb;
				const char *started, *state;
				if (r->sizes[s] < YARDSTICK_MIN_BYTES)
					continue;
				path = hb_sprintf("%s/records/%s/%s%s%s__hash_%llu.json", r->sysdir,
					S_yardsticks[a].algorithm, S_yardsticks[a].instance, i ? "." : "",
					i ? S_impls[i] : "", r->sizes[s]);
				j = json_load_file(path, 0, NULL);
				free(path);
				cpb = json_object_get(json_object_get(j, "headline"), "cycles_per_byte");
				state = json_string_value(json_object_get(json_object_get(json_object_get(j,
					"headline"), "interval"), "state"));
				started = json_string_value(json_object_get(json_object_get(j, "environment"),
					"started"));
				if (json_is_number(cpb) && json_number_value(cpb) > 0 && started &&
					strcmp(started, r->start) >= 0 &&
					json_is_string(json_object_get(j, "status")) &&
					strcmp(json_string_value(json_object_get(j, "status")), "ok") == 0)
					json_array_append_new(out, json_pack("{s:s, s:s, s:I, s:f, s:s?}",
						"instance", S_yardsticks[a].instance, "implementation", S_impls[i],
						"message_bytes", (json_int_t)r->sizes[s], "cycles_per_byte",
						json_number_value(cpb), "interval_state", state));
				json_decref(j);
			}
	return out;
}

int hb_run_history_finish(hb_run *r, const char *end, size_t measured)
{
	char version[128], *path;
	const char *counter = hb_counter_name(&r->counter);
	double best = hb_sentinel_reference(r->sentinel, r->cpu);
	json_t *entry, *doc, *kept, *e;
	size_t i;
	int rc;

	if (!r->history)
		return 0;
	r->speed_pct = hb_history_speed(&r->speed_of, r->history, r->cpu, counter, r->start, best);
	if (!isnan(r->speed_pct) && fabs(r->speed_pct) > r->floor.pct)
		hb_note(r->o->progress, r->tty, "this machine is %.1f %% %s than its history (median of "
			"%zu campaigns' sentinel best on CPU %d)", fabs(r->speed_pct), r->speed_pct > 0 ?
			"slower" : "faster", r->speed_of, r->cpu);
	if (measured == 0)
		return 0; /* nothing timed: nothing to add */
	snprintf(version, sizeof(version), "%s (git %s)", HB_VERSION, HB_GIT_COMMIT);
	entry = json_pack("{s:s, s:s, s:s, s:s, s:i, s:s, s:o, s:o}", "start", r->start, "end", end,
		"hashbench", version, "profile", r->prof->name, "cpu", r->cpu, "counter", counter,
		"sentinel_best_cycles", best > 0 ? json_real(best) : json_null(), "yardsticks",
		S_yardstick_figures(r));
	/* the last HB_HISTORY_KEEP campaigns, this one replacing an earlier run of itself */
	kept = json_array();
	json_array_foreach(r->history, i, e)
		if (strcmp(json_string_value(json_object_get(e, "start")), r->start) != 0)
			json_array_append(kept, e);
	json_array_append_new(kept, entry);
	while (json_array_size(kept) > HB_HISTORY_KEEP)
		json_array_remove(kept, 0);
	doc = json_pack("{s:s, s:s, s:o}", "schema", SCHEMA, "system", r->o->system, "campaigns",
		kept);
	path = S_path(r);
	rc = hb_json_write(path, doc);
	free(path);
	json_decref(doc);
	return rc;
}

json_t *hb_run_history_json(const hb_run *r)
{
	return json_pack("{s:I, s:f, s:s, s:s, s:I, s:o, s:o}", "campaigns",
		(json_int_t)r->floor.campaigns, "floor_pct", r->floor.pct, "floor_source",
		r->floor.source, "floor_how", r->floor.why, "figures", (json_int_t)r->floor.figures,
		"drift_pct", r->floor.drift_pct >= 0 ? json_real(r->floor.drift_pct) : json_null(),
		"speed_vs_history_pct", isnan(r->speed_pct) ? json_null() : json_real(r->speed_pct));
}
