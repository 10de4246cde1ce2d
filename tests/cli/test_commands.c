/* test_commands.c — hashbench run --fresh against a resumed run; hashbench env on this machine. */
#define _GNU_SOURCE
#include <ctype.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysinfo.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <jansson.h>

#include "support.h"

#define FIXTURES HBT_FIXTURES "/submissions"
/* a start no campaign of today can have: kept only when the campaign resumes */
#define OLD_START "2000-01-01T00:00:00Z"

static char *S_slurp(const char *path)
{
	hb_buf buf;
	cr_assert_eq(hb_file_read_raw(&buf, path), 0, "%s", hb_error_last());
	return (char *)buf.data;
}

/* The first line a shell command prints, without its newline ("" when it prints nothing). */
static char *S_first_line(const char *cmd)
{
	FILE *p = popen(cmd, "r");
	char line[4096] = "";
	cr_assert_not_null(p, "%s", cmd);
	if (!fgets(line, sizeof(line), p))
		line[0] = 0;
	pclose(p);
	line[strcspn(line, "\n")] = 0;
	return hb_strdup(line);
}

static const char *S_str(json_t *j, const char *key)
{
	const char *s = json_string_value(json_object_get(j, key));
	return s ? s : "(not a string)";
}

/* The smallest campaign test_campaign.c runs: the toy fixture's two libraries, one KAT set, one
 * size, one pass. */
static int S_run(char **err, const char *data, int fresh)
{
	const char *args[] = { "run", "--system", "fr", "--profile", "quick", "--submissions",
		FIXTURES, "--only", "toy-1", "--sets", "2_23", "--sizes", "32", "--passes", "1", "--data",
		data, fresh ? "--fresh" : NULL, NULL };
	char *out;
	int status = hbt_cli(&out, err, NULL, args);
	cr_expect_str_eq(out, "", "run prints nothing on stdout");
	free(out);
	return status;
}

/* Set key of dir/rel (of its object under "in" when in is not NULL) to v, as an editor would. */
static void S_set(const char *dir, const char *rel, const char *in, const char *key, json_t *v)
{
	json_t *j = hbt_json_load(dir, rel);
	char *text, *path = hb_path_join(dir, rel);
	json_object_set_new(in ? json_object_get(j, in) : j, key, v);
	text = json_dumps(j, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	hbt_write(path, text, strlen(text));
	free(text);
	free(path);
	json_decref(j);
}

static void S_expect_sums_verify(const char *sys)
{
	char *cmd = hb_sprintf("cd '%s' && sha256sum --quiet -c SHA256SUMS", sys);
	cr_expect_eq(system(cmd), 0, "SHA256SUMS does not verify in %s", sys);
	free(cmd);
}

static const char *S_records[] = { "records/toy-1/toy_256__hash_32.json",
	"records/toy-1/toy_256.optimized__hash_32.json", NULL };

Test(fresh, a_resumed_run_keeps_the_records_and_fresh_measures_them_again,
	.timeout = HBT_TIMEOUT(300))
{
	char *data = hbt_tmpdir("fresh"), *sys = hb_path_join(data, "fr"), *err, *marked[2];
	json_t *j;
	size_t i;

	cr_assert_eq(S_run(&err, data, 0), 0, "%s", err);
	cr_expect(strstr(err, "campaign fr finished: 2 records measured, 0 kept from an earlier run"),
		"%s", err);
	free(err);
	/* marks no measurement writes: a record measured again loses its mark */
	for (i = 0; S_records[i]; i++) {
		S_set(sys, S_records[i], NULL, "test_mark", json_string("written by the test"));
		marked[i] = S_slurp(hb_path_join(sys, S_records[i]));
	}
	S_set(sys, "system.json", "campaign", "start", json_string(OLD_START));

	cr_assert_eq(S_run(&err, data, 0), 0, "%s", err);
	cr_expect(strstr(err, "campaign fr finished: 0 records measured, 2 kept from an earlier run"),
		"%s", err);
	cr_expect(strstr(err, " toy_256 (reference) hash_32: kept (") &&
		strstr(err, " toy_256 (optimized) hash_32: kept ("), "%s", err);
	free(err);
	for (i = 0; S_records[i]; i++) {
		char *now = S_slurp(hb_path_join(sys, S_records[i]));
		cr_expect_str_eq(now, marked[i], "resumed: %s was measured again", S_records[i]);
		free(now);
	}
	j = hbt_json_load(sys, "system.json");
	cr_expect_str_eq(S_str(json_object_get(j, "campaign"), "start"), OLD_START,
		"a resumed campaign started when the first run did");
	json_decref(j);
	S_expect_sums_verify(sys);

	cr_assert_eq(S_run(&err, data, 1), 0, "%s", err);
	cr_expect(strstr(err, "campaign fr finished: 2 records measured, 0 kept from an earlier run"),
		"%s", err);
	cr_expect(strstr(err, " toy_256 (reference) hash_32: ok (") &&
		strstr(err, " toy_256 (optimized) hash_32: ok ("), "%s", err);
	free(err);
	for (i = 0; S_records[i]; i++) {
		j = hbt_json_load(sys, S_records[i]);
		cr_expect_null(json_object_get(j, "test_mark"), "--fresh: %s was kept", S_records[i]);
		cr_expect_str_eq(S_str(j, "status"), "ok");
		json_decref(j);
		free(marked[i]);
	}
	j = hbt_json_load(sys, "system.json");
	cr_expect_str_neq(S_str(json_object_get(j, "campaign"), "start"), OLD_START,
		"--fresh: the campaign starts over");
	cr_expect_eq(strlen(S_str(json_object_get(j, "campaign"), "start")), 20, "%s",
		S_str(json_object_get(j, "campaign"), "start"));
	json_decref(j);
	S_expect_sums_verify(sys);
	free(sys);
	free(data);
}

/* ---- env ---- */

typedef struct {
	int status;
	char *out, *err;
	json_t *j; /* stdout parsed, NULL when it is not one JSON document */
} S_env;

static S_env S_env_run(const char *const args[])
{
	S_env e;
	e.status = hbt_cli(&e.out, &e.err, NULL, args);
	e.j = json_loads(e.out, JSON_REJECT_DUPLICATES, NULL);
	return e;
}

static void S_env_free(S_env *e)
{
	free(e->out);
	free(e->err);
	json_decref(e->j);
}

/* The last CPU this process may run on: a campaign's timing CPU when --cpu is not given. */
static int S_last_cpu(void)
{
	cpu_set_t set;
	int i, last = -1;
	cr_assert_eq(sched_getaffinity(0, sizeof(set), &set), 0);
	for (i = 0; i < CPU_SETSIZE; i++)
		if (CPU_ISSET(i, &set))
			last = i;
	cr_assert_geq(last, 0);
	return last;
}

/* <arch>-<host>: the host name to its first dot, other characters than letters, digits, '_',
 * '.' and '-' as '-' (docs/campaign.md). */
static char *S_default_system(const struct utsname *u)
{
	size_t host = strcspn(u->nodename, ".");
	char *name = host ? hb_sprintf("%s-%.*s", u->machine, (int)host, u->nodename) :
		hb_sprintf("%s-host", u->machine), *p;
	for (p = name; *p; p++)
		if (!isalnum((unsigned char)*p) && *p != '_' && *p != '.' && *p != '-')
			*p = '-';
	if (strlen(name) > 64)
		name[64] = 0;
	return name;
}

/* What the machine says of CPU cpu's governor: the file's line, or JSON null when there is none. */
static json_t *S_governor(int cpu)
{
	char *path = hb_sprintf("/sys/devices/system/cpu/cpu%d/cpufreq/scaling_governor", cpu);
	char *cmd = hb_sprintf("cat '%s' 2>/dev/null", path), *line = S_first_line(cmd);
	json_t *v = line[0] ? json_string(line) : json_null();
	free(line);
	free(cmd);
	free(path);
	return v;
}

/* The fields of this machine as uname, sched_getaffinity, sysinfo, os-release, cpufreq and the
 * tools themselves give them. */
static void S_expect_machine(json_t *j, int cpu)
{
	struct utsname u;
	struct sysinfo si;
	char *os, *cc, *cmake, *version;
	json_t *gov = S_governor(cpu);

	cr_assert_eq(uname(&u), 0);
	cr_assert_eq(sysinfo(&si), 0);
	cr_expect_str_eq(S_str(j, "schema"), "hashbench.system/1");
	cr_expect_str_eq(S_str(j, "arch"), u.machine);
	cr_expect_str_eq(S_str(j, "kernel"), u.release);
	cr_expect_eq(json_integer_value(json_object_get(j, "cpu")), cpu);
	cr_expect_eq(json_integer_value(json_object_get(j, "memory_mib")),
		(json_int_t)((unsigned long long)si.totalram * si.mem_unit / (1024 * 1024)));
	os = S_first_line(". /etc/os-release && printf '%s\\n' \"$PRETTY_NAME\"");
	cr_expect_str_eq(S_str(j, "os"), os);
	cc = S_first_line("gcc --version");
	cr_expect_str_eq(S_str(j, "compiler"), cc, "the bundled profiles' cc is gcc");
	cmake = S_first_line("cmake --version");
	cr_expect_str_eq(S_str(j, "build_tool"), cmake);
	cr_expect(json_equal(json_object_get(json_object_get(j, "clock"), "governor"), gov),
		"the governor of CPU %d", cpu);
	if (strcmp(u.machine, "x86_64") == 0 && !hb_emulated()) {
		char *cmd = hb_sprintf("awk -F': ' '/^processor/ { p = $2 } /^model name/ && p == %d "
			"{ print $2; exit }' /proc/cpuinfo", cpu), *model = S_first_line(cmd);
		cr_expect_str_eq(S_str(j, "processor"), model, "the model name of CPU %d", cpu);
		free(model);
		free(cmd);
	}
	version = S_first_line(HBT_HASHBENCH " version");
	cr_expect_str_eq(S_str(json_object_get(j, "campaign"), "hashbench"),
		version + strlen("hashbench "));
	cr_expect(json_is_null(json_object_get(json_object_get(j, "campaign"), "end")),
		"no campaign ran: no end");
	json_decref(gov);
	free(version);
	free(cmake);
	free(cc);
	free(os);
}

Test(env, prints_this_machine_as_the_system_sees_it)
{
	const char *args[] = { "env", NULL };
	S_env e = S_env_run(args);
	struct utsname u;
	char *name, *cpus;

	cr_assert_eq(e.status, 0, "%s", e.err);
	cr_expect_str_eq(e.err, "");
	cr_assert_not_null(e.j, "stdout is one JSON document: %s", e.out);
	cr_expect_eq(e.out[strlen(e.out) - 1], '\n');
	cr_assert_eq(uname(&u), 0);
	name = S_default_system(&u);
	cr_expect_str_eq(S_str(e.j, "system"), name, "without --system: <arch>-<host>");
	S_expect_machine(e.j, S_last_cpu());
	cpus = json_dumps(json_object_get(json_object_get(e.j, "campaign"), "timing_cpus"),
		JSON_COMPACT);
	free(name);
	name = hb_sprintf("[%d]", S_last_cpu());
	cr_expect_str_eq(cpus, name, "without --cpu: the last CPU this process may use");
	cr_expect_str_eq(S_str(json_object_get(e.j, "campaign"), "profile"), "guide");
	free(cpus);
	free(name);
	S_env_free(&e);
}

Test(env, takes_the_campaign_options_and_writes_nothing)
{
	char *dir = hbt_tmpdir("env"), *data = hb_path_join(dir, "data"), *sizes;
	const char *args[] = { "env", "--system", "lab_1", "--cpu", "0", "--profile", "quick",
		"--sizes", "32,1024", "--data", data, NULL };
	S_env e = S_env_run(args);
	json_t *c;

	cr_assert_eq(e.status, 0, "%s", e.err);
	cr_assert_not_null(e.j, "stdout is one JSON document: %s", e.out);
	cr_expect_str_eq(S_str(e.j, "system"), "lab_1");
	S_expect_machine(e.j, 0);
	c = json_object_get(e.j, "campaign");
	cr_expect_str_eq(S_str(c, "profile"), "quick");
	sizes = json_dumps(json_object_get(c, "message_sizes"), JSON_COMPACT);
	cr_expect_str_eq(sizes, "[32,1024]");
	free(sizes);
	sizes = json_dumps(json_object_get(c, "timing_cpus"), JSON_COMPACT);
	cr_expect_str_eq(sizes, "[0]");
	cr_expect(access(data, F_OK) != 0, "env wrote %s", data);
	free(sizes);
	free(data);
	free(dir);
	S_env_free(&e);
}

Test(env, is_the_system_json_a_campaign_writes, .timeout = HBT_TIMEOUT(300))
{
	static const char *same[] = { "schema", "system", "arch", "processor", "machine", "cpu",
		"clock", "memory_mib", "os", "kernel", "compiler", "build_tool", "virtual_machine",
		"hypervisor", "sandbox", NULL };
	static const char *same_campaign[] = { "profile", "hashbench", "passes", "rounds",
		"message_sizes", "timing_cpus", "overlap", NULL };
	char *data = hbt_tmpdir("env-run"), *sys = hb_path_join(data, "fr"), *err, *cpu;
	json_t *written, *counter;
	S_env e;
	size_t i;

	cr_assert_eq(S_run(&err, data, 0), 0, "%s", err);
	free(err);
	written = hbt_json_load(sys, "system.json");
	cpu = hb_sprintf("%lld", json_integer_value(json_object_get(written, "cpu")));
	{
		const char *args[] = { "env", "--system", "fr", "--profile", "quick", "--sizes", "32",
			"--passes", "1", "--cpu", cpu, NULL };
		e = S_env_run(args);
	}
	cr_assert_eq(e.status, 0, "%s", e.err);
	cr_assert_not_null(e.j, "stdout is one JSON document: %s", e.out);
	for (i = 0; same[i]; i++)
		cr_expect(json_equal(json_object_get(e.j, same[i]), json_object_get(written, same[i])) ||
			(!json_object_get(e.j, same[i]) && !json_object_get(written, same[i])),
			"%s differs between env and the campaign's system.json", same[i]);
	for (i = 0; same_campaign[i]; i++)
		cr_expect(json_equal(json_object_get(json_object_get(e.j, "campaign"), same_campaign[i]),
			json_object_get(json_object_get(written, "campaign"), same_campaign[i])),
			"campaign.%s differs between env and the campaign's system.json", same_campaign[i]);
	counter = json_object_get(written, "counter");
	cr_expect_str_eq(S_str(json_object_get(e.j, "counter"), "name"), S_str(counter, "name"));
	json_decref(written);
	S_env_free(&e);
	free(cpu);
	free(sys);
	free(data);
}

Test(env, errors_are_one_line_and_print_nothing)
{
	static const struct {
		const char *args[6];
		int status;
		const char *err;
	} cases[] = {
		{ { "env", "extra", NULL }, 2,
			"hashbench: env: unexpected argument 'extra'\n(hashbench --help for usage)\n" },
		{ { "env", "--cpu", "x", NULL }, 2, "hashbench: --cpu x: expected a CPU number or a list "
			"such as 2,3\n(hashbench --help for usage)\n" },
		{ { "env", "--cpu", "4096", NULL }, 1,
			"hashbench: --cpu 4096: not a CPU this process may run on\n" },
		{ { "env", "--cpu", NULL }, 2,
			"hashbench: --cpu: missing value\n(hashbench --help for usage)\n" },
		{ { "env", "--system", "a/b", NULL }, 1, "hashbench: --system a/b: expected 1 to 64 "
			"letters, digits, '_', '-' or '.', starting with a letter or digit\n" },
		{ { "env", "--profile", "slow", NULL }, 1,
			"hashbench: --profile slow: expected guide, quick or ebash\n" },
		{ { "env", "--fast", NULL }, 2,
			"hashbench: --fast: unknown option\n(hashbench --help for usage)\n" },
	};
	size_t i;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		S_env e = S_env_run(cases[i].args);
		cr_expect_eq(e.status, cases[i].status, "case %zu (%s): status %d", i, cases[i].args[1],
			e.status);
		cr_expect_str_eq(e.err, cases[i].err, "case %zu: stderr was '%s'", i, e.err);
		cr_expect_str_eq(e.out, "", "case %zu: nothing on stdout, got %zu bytes", i,
			strlen(e.out));
		S_env_free(&e);
	}
}
