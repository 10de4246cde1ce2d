/* test_counter.c — the unit of the figures: which counters count the core's cycles, the counter
 * object of system.json (hashbench env), and --core-hz as a user gives it: a value that is not a
 * core clock in Hz refused in one line with status 2 before anything runs, the option refused
 * on a counter that counts the core's cycles, recorded with the unit "cycles" on one that does
 * not (cntvct: make test-aarch64). */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "support.h"

typedef struct {
	int status;
	char *out, *err;
	json_t *j, *counter;
} S_env;

static S_env S_env_run(const char *const args[])
{
	S_env e;
	e.status = hbt_cli(&e.out, &e.err, NULL, args);
	e.j = json_loads(e.out, JSON_REJECT_DUPLICATES, NULL);
	e.counter = json_object_get(e.j, "counter");
	return e;
}

static void S_env_free(S_env *e)
{
	free(e->out);
	free(e->err);
	json_decref(e->j);
}

/* Does the counter a campaign opens here count the core's cycles? */
static int S_counts_cycles(void)
{
	hb_counter c;
	int cycles;
	cr_assert_eq(hb_counter_open(&c, NULL), 0, "no counter on this machine");
	cycles = hb_counter_counts_cycles(&c);
	hb_counter_close(&c);
	return cycles;
}

static const char *S_warning(json_t *sys, const char *prefix)
{
	json_t *w;
	size_t i;
	json_array_foreach(json_object_get(sys, "warnings"), i, w)
		if (strncmp(json_string_value(w), prefix, strlen(prefix)) == 0)
			return json_string_value(w);
	return NULL;
}

Test(counter, perf_cycles_and_the_time_stamp_counter_are_cycles_cntvct_is_not)
{
	hb_counter c;
	memset(&c, 0, sizeof(c));
	c.kind = HB_COUNTER_PERF;
	cr_expect_eq(hb_counter_counts_cycles(&c), 1);
	c.kind = HB_COUNTER_TSC;
	cr_expect_eq(hb_counter_counts_cycles(&c), 1, "the time-stamp counter is taken for cycles");
	c.kind = HB_COUNTER_CNTVCT;
	cr_expect_eq(hb_counter_counts_cycles(&c), 0);
	cr_expect_str_eq(hb_counter_name(&c), "cntvct");
	c.kind = HB_COUNTER_NONE;
	cr_expect_eq(hb_counter_counts_cycles(&c), 0, "the monotonic clock ticks nanoseconds");
}

Test(counter, system_json_names_the_counter_and_the_unit_of_the_figures)
{
	const char *args[] = { "env", "--system", "u", "--cpu", "0", NULL };
	S_env e = S_env_run(args);
	int cycles = S_counts_cycles();
	json_t *hz;

	cr_assert_eq(e.status, 0, "%s", e.err);
	cr_assert(json_is_object(e.counter), "%s", e.out);
	cr_expect(json_is_string(json_object_get(e.counter, "name")));
	hz = json_object_get(e.counter, "hz");
	cr_expect(json_is_null(hz) || (json_is_integer(hz) && json_integer_value(hz) > 0));
	cr_expect(json_is_boolean(json_object_get(e.counter, "counts_core_cycles")));
	cr_expect_eq(json_is_true(json_object_get(e.counter, "counts_core_cycles")), cycles);
	cr_expect(json_is_null(json_object_get(e.counter, "core_hz")), "no --core-hz: core_hz null");
	cr_expect_str_eq(json_string_value(json_object_get(e.counter, "unit")),
		cycles ? "cycles" : "ticks");
	if (!cycles) {
		const char *w = S_warning(e.j, "no hardware cycle counter: the figures are ticks of ");
		cr_expect_not_null(w, "the warning says the figures are ticks: %s", e.out);
		cr_expect(w && strstr(w, "--core-hz") != NULL, "%s", w);
	}
	S_env_free(&e);
}

Test(counter, core_hz_that_is_not_a_clock_in_hz_is_refused_before_anything_runs)
{
	static const char *bad[] = { "abc", "0", "-2710000000", "2.71", "2710", "2710000000Hz",
		"2.71GHz", "1e12", "nan", "inf", " 2710000000", "", NULL };
	char *dir = hbt_tmpdir("core-hz-bad"), *data = hb_path_join(dir, "data");
	size_t i;

	for (i = 0; bad[i]; i++) {
		const char *env[] = { "env", "--core-hz", bad[i], NULL };
		const char *run[] = { "run", "--system", "u", "--data", data, "--only", "sm3",
			"--core-hz", bad[i], NULL };
		char *want = hb_sprintf("hashbench: --core-hz %s: expected the core's fixed clock in "
			"Hz, such as 2710000000 or 2.71e9 (1 MHz to 100 GHz)\n(hashbench --help for "
			"usage)\n", bad[i]);
		S_env e = S_env_run(env);
		cr_expect_eq(e.status, 2, "env --core-hz '%s': status %d", bad[i], e.status);
		cr_expect_str_eq(e.err, want, "env --core-hz '%s'", bad[i]);
		cr_expect_str_eq(e.out, "");
		S_env_free(&e);
		e = S_env_run(run);
		cr_expect_eq(e.status, 2, "run --core-hz '%s': status %d", bad[i], e.status);
		cr_expect_str_eq(e.err, want, "run --core-hz '%s'", bad[i]);
		cr_expect(access(data, F_OK) != 0, "run --core-hz '%s' wrote %s", bad[i], data);
		S_env_free(&e);
		free(want);
	}
	{
		const char *missing[] = { "env", "--core-hz", NULL };
		S_env e = S_env_run(missing);
		cr_expect_eq(e.status, 2);
		cr_expect_str_eq(e.err, "hashbench: --core-hz: missing value\n(hashbench --help for "
			"usage)\n");
		S_env_free(&e);
	}
	free(data);
	free(dir);
}

Test(counter, core_hz_converts_a_counter_that_is_not_the_cores_clock_and_only_that)
{
	static const char *given[] = { "2710000000", "2.71e9", NULL };
	char *dir = hbt_tmpdir("core-hz"), *data = hb_path_join(dir, "data");
	int cycles = S_counts_cycles();
	size_t i;

	for (i = 0; given[i]; i++) {
		const char *env[] = { "env", "--system", "u", "--cpu", "0", "--core-hz", given[i], NULL };
		const char *run[] = { "run", "--system", "u", "--data", data, "--only", "sm3",
			"--core-hz", given[i], NULL };
		S_env e = S_env_run(env);
		if (cycles) {
			hb_counter c;
			char *want;
			cr_assert_eq(hb_counter_open(&c, NULL), 0);
			want = hb_sprintf("hashbench: --core-hz 2710000000: the figures here are the "
				"core's cycles already (counter %s); --core-hz converts the ticks of a counter "
				"that is not the core's clock, such as cntvct\n", hb_counter_name(&c));
			hb_counter_close(&c);
			cr_expect_eq(e.status, 1, "--core-hz %s on a cycle counter: status %d", given[i],
				e.status);
			cr_expect_str_eq(e.err, want);
			cr_expect_str_eq(e.out, "");
			S_env_free(&e);
			e = S_env_run(run);
			cr_expect_eq(e.status, 1);
			cr_expect_str_eq(e.err, want);
			cr_expect(access(data, F_OK) != 0, "the refused run wrote %s", data);
			free(want);
		} else {
			const char *w;
			cr_assert_eq(e.status, 0, "%s", e.err);
			cr_expect_eq(json_integer_value(json_object_get(e.counter, "core_hz")), 2710000000LL);
			cr_expect(json_is_false(json_object_get(e.counter, "counts_core_cycles")));
			cr_expect_str_eq(json_string_value(json_object_get(e.counter, "unit")), "cycles");
			w = S_warning(e.j, "no hardware cycle counter: cycles are ticks of ");
			cr_expect(w && strstr(w, "× the declared core clock 2.71 GHz / the counter's "),
				"%s", e.out);
		}
		S_env_free(&e);
	}
	free(data);
	free(dir);
}
