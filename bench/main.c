/* main.c — the hashbench command line: parses arguments, calls the library, turns the result
 * into output and an exit status (0 success, 1 failure, 2 bad usage). */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hbcampaign.h"
#include "hbcommands.h"
#include "hbsandbox.h"

#ifndef HB_GIT_COMMIT
#define HB_GIT_COMMIT "unknown"
#endif

#define MAX_OUTPUT_BITS (1 << 20)

typedef struct {
	const char *submissions;
	const char *work;
	const char *profiles;
	const char *out_dir;
	unsigned sets;
	long long bits;    /* --bits, -1 = whole input */
	long length;       /* --length, 0 = DIGEST_BIT_LENGTH */
	hb_campaign_opts run;
	hb_sandbox_config sandbox;
	char **args;       /* positional arguments */
	int nargs;
	int allow_missing; /* merge --allow-missing */
	const char *catalog; /* import --catalog */
	const char *method;  /* import --method */
	const char *submissions_a; /* compare: the first --submissions, A's (the last is B's) */
	unsigned rounds;     /* compare --rounds */
	double noise_pct;    /* compare --noise */
	const char *json_out; /* compare --json */
} S_opts;

static int S_usage_error(const char *fmt, const char *arg)
{
	fprintf(stderr, "hashbench: ");
	fprintf(stderr, fmt, arg);
	fprintf(stderr, "\n(hashbench --help for usage)\n");
	return 2;
}

static int S_fail(void)
{
	fprintf(stderr, "hashbench: %s\n", hb_error_last());
	return 1;
}

/* "4G", "512M", "65536K", "1073741824": bytes, at least 16 MiB */
static int S_size(unsigned long long *out, const char *v)
{
	char *end;
	unsigned long long n, unit = 1;
	errno = 0;
	n = strtoull(v, &end, 10);
	if (errno || end == v || v[0] == '-')
		return -1;
	if (*end) {
		const char *units = "KMGT", *u = strchr(units, *end == 'k' ? 'K' : *end);
		if (!u || !*u || (end[1] && strcmp(end + 1, "iB") != 0 && strcmp(end + 1, "B") != 0))
			return -1;
		unit = 1ULL << (10 * (u - units + 1));
	}
	if (n > (~0ULL) / unit || n * unit < (16ULL << 20))
		return -1;
	*out = n * unit;
	return 0;
}

/* "2710000000" or "2.71e9": a core clock in Hz, 1 MHz to 100 GHz, to the nearest Hz (a clock
 * given in GHz or MHz by mistake is refused rather than taken for a few Hz). */
static int S_core_hz(unsigned long long *out, const char *v)
{
	char *end;
	double hz;
	if (!(v[0] >= '0' && v[0] <= '9') && v[0] != '.')
		return -1;
	errno = 0;
	hz = strtod(v, &end);
	if (errno || *end || end == v || !(hz >= 1e6 && hz <= 1e11))
		return -1;
	*out = (unsigned long long)(hz + 0.5);
	return 0;
}

/* "3" or "2,3": the timing CPUs. */
static int S_cpu_list(hb_campaign_opts *run, const char *list)
{
	const char *p = list;
	run->ncpus = 0;
	while (*p) {
		char *end;
		long v;
		errno = 0;
		v = strtol(p, &end, 10);
		if (errno || end == p || v < 0 || v > 1000000 || *p == '-' || *p == '+' ||
			run->ncpus == HB_MAX_CPUS || (*end && *end != ','))
			return -1;
		run->cpus[run->ncpus++] = (int)v;
		p = *end ? end + 1 : end;
		if (*end && !*p)
			return -1;
	}
	return run->ncpus ? 0 : -1;
}

static const struct option S_longopts[] = {
	{ "submissions", required_argument, NULL, 's' },
	{ "supercop", required_argument, NULL, 'K' },
	{ "compilers", required_argument, NULL, 'k' },
	{ "work", required_argument, NULL, 'w' },
	{ "profiles", required_argument, NULL, 'p' },
	{ "out", required_argument, NULL, 'o' },
	{ "sets", required_argument, NULL, 'S' },
	{ "bits", required_argument, NULL, 'b' },
	{ "length", required_argument, NULL, 'l' },
	{ "system", required_argument, NULL, 'Y' },
	{ "profile", required_argument, NULL, 'P' },
	{ "only", required_argument, NULL, 'O' },
	{ "data", required_argument, NULL, 'D' },
	{ "cpu", required_argument, NULL, 'C' },
	{ "fresh", no_argument, NULL, 'F' },
	{ "time-failed", no_argument, NULL, 'T' },
	{ "sizes", required_argument, NULL, 'Z' },
	{ "time-limit", required_argument, NULL, 'L' },
	{ "spread-limit", required_argument, NULL, 'R' },
	{ "sentinel-limit", required_argument, NULL, 'X' },
	{ "precision", required_argument, NULL, 'q' },
	{ "no-wait", no_argument, NULL, 'W' },
	{ "passes", required_argument, NULL, 'Q' },
	{ "core-hz", required_argument, NULL, 'z' },
	{ "no-sandbox", no_argument, NULL, 'N' },
	{ "sandbox-user", required_argument, NULL, 'U' },
	{ "memory-limit", required_argument, NULL, 'M' },
	{ "allow-missing", no_argument, NULL, 'A' },
	{ "jobs", required_argument, NULL, 'j' },
	{ "overlap", no_argument, NULL, 'V' },
	{ "shard", required_argument, NULL, 'H' },
	{ "catalog", required_argument, NULL, 'G' },
	{ "method", required_argument, NULL, 'E' },
	{ "seed", required_argument, NULL, 'e' },
	{ "paired-passes", required_argument, NULL, 'i' },
	{ "rounds", required_argument, NULL, 'r' },
	{ "noise", required_argument, NULL, 'n' },
	{ "json", required_argument, NULL, 'J' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

/* compare's --rounds and --noise, run's --seed and --paired-passes */
static int S_number_opt(S_opts *o, int c, const char *v)
{
	char *end;
	errno = 0;
	if (c == 'e') {
		o->run.seed = strtoull(v, &end, 0);
		if (errno || *end || end == v || v[0] == '-' || o->run.seed == 0 || o->run.seed >> 63)
			return S_usage_error("--seed %s: expected an earlier campaign's campaign.seed "
				"(1 to 2^63 - 1)", v);
		return 0;
	}
	if (c == 'i') {
		unsigned long n = strtoul(v, &end, 10);
		if (errno || *end || end == v || v[0] == '-' || n > HB_PAIRED_MAX_PASSES)
			return S_usage_error("--paired-passes %s: expected 0 to 32", v);
		o->run.paired_passes = n ? (int)n : -1;
		return 0;
	}
	if (c == 'r') {
		o->rounds = (unsigned)strtoul(v, &end, 10);
		if (errno || *end || end == v || v[0] == '-' || o->rounds < 2 || o->rounds > 1000)
			return S_usage_error("--rounds %s: expected 2 to 1000", v);
		return 0;
	}
	o->noise_pct = strtod(v, &end);
	if (errno || *end || end == v || !(o->noise_pct > 0) || o->noise_pct > 100)
		return S_usage_error("--noise %s: expected a percentage above 0, at most 100", v);
	return 0;
}

static int S_parse(S_opts *o, int argc, char **argv)
{
	int c;
	char extra;

	memset(o, 0, sizeof(*o));
	o->submissions = hb_own_path(HB_OWN_ALGORITHMS);
	o->work = hb_own_path(HB_OWN_WORK);
	o->bits = -1;
	o->run.profile = "guide";
	o->run.data_dir = "data";
	o->run.env_root = "/";
	o->run.progress = stderr;
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, "+:h", S_longopts, NULL)) != -1) {
		char *end;
		switch (c) {
		case 's':
			if (!o->submissions_a)
				o->submissions_a = optarg;
			o->submissions = optarg;
			break;
		case 'r':
		case 'n':
		case 'e':
		case 'i':
			if (S_number_opt(o, c, optarg) != 0)
				return 2;
			break;
		case 'J': o->json_out = optarg; break;
		case 'K': o->run.supercop = optarg; break;
		case 'k': o->run.compilers = optarg; break;
		case 'w': o->work = optarg; break;
		case 'p': o->profiles = optarg; break;
		case 'o': o->out_dir = optarg; break;
		case 'Y': o->run.system = optarg; break;
		case 'P': o->run.profile = optarg; break;
		case 'O': o->run.only = optarg; break;
		case 'D': o->run.data_dir = optarg; break;
		case 'F': o->run.fresh = 1; break;
		case 'T': o->run.time_failed = 1; break;
		case 'A': o->allow_missing = 1; break;
		case 'G': o->catalog = optarg; break;
		case 'E': o->method = optarg; break;
		case 'Z': o->run.sizes = optarg; break;
		case 'N': o->sandbox.disabled = 1; break;
		case 'U': o->sandbox.user = optarg; break;
		case 'M':
			if (S_size(&o->sandbox.memory_limit, optarg) != 0)
				return S_usage_error("--memory-limit %s: expected a size such as 4G or 512M "
					"(at least 16M)", optarg);
			break;
		case 'C':
			if (S_cpu_list(&o->run, optarg) != 0)
				return S_usage_error("--cpu %s: expected a CPU number or a list such as 2,3",
					optarg);
			break;
		case 'j':
			errno = 0;
			o->run.jobs = (unsigned)strtoul(optarg, &end, 10);
			if (errno || *end || end == optarg || optarg[0] == '-' || o->run.jobs == 0 ||
				o->run.jobs > 256)
				return S_usage_error("--jobs %s: expected a number of processes, 1 to 256",
					optarg);
			break;
		case 'V': o->run.overlap = 1; break;
		case 'H':
			if (sscanf(optarg, "%u/%u%c", &o->run.shard_index, &o->run.shard_count,
					&extra) != 2 || o->run.shard_count == 0 || o->run.shard_index == 0 ||
				o->run.shard_index > o->run.shard_count || optarg[0] == '-')
				return S_usage_error("--shard %s: expected K/N with 1 <= K <= N, e.g. 1/4",
					optarg);
			break;
		case 'R':
			errno = 0;
			o->run.spread_limit_pct = strtod(optarg, &end);
			if (errno || *end || end == optarg || !(o->run.spread_limit_pct > 0))
				return S_usage_error("--spread-limit %s: expected a percentage above 0", optarg);
			break;
		case 'X':
			errno = 0;
			o->run.sentinel_limit_pct = strtod(optarg, &end);
			if (errno || *end || end == optarg || !(o->run.sentinel_limit_pct > 0))
				return S_usage_error("--sentinel-limit %s: expected a percentage above 0",
					optarg);
			break;
		case 'q':
			errno = 0;
			o->run.precision_pct = strtod(optarg, &end);
			if (errno || *end || end == optarg || !(o->run.precision_pct > 0) ||
				o->run.precision_pct > 100)
				return S_usage_error("--precision %s: expected a percentage above 0, e.g. 1",
					optarg);
			break;
		case 'W': o->run.no_wait = 1; break;
		case 'Q':
			errno = 0;
			o->run.passes = (unsigned)strtoul(optarg, &end, 10);
			if (errno || *end || end == optarg || optarg[0] == '-' || o->run.passes < 1 ||
				o->run.passes > 100)
				return S_usage_error("--passes %s: expected 1 to 100", optarg);
			break;
		case 'z':
			if (S_core_hz(&o->run.core_hz, optarg) != 0)
				return S_usage_error("--core-hz %s: expected the core's fixed clock in Hz, "
					"such as 2710000000 or 2.71e9 (1 MHz to 100 GHz)", optarg);
			break;
		case 'L':
			errno = 0;
			o->run.time_limit_s = (unsigned)strtoul(optarg, &end, 10);
			if (errno || *end || end == optarg || optarg[0] == '-' || o->run.time_limit_s == 0)
				return S_usage_error("--time-limit %s: expected seconds (1 or more)", optarg);
			break;
		case 'S':
			if (hb_kat_sets_parse(&o->sets, optarg) != 0)
				return S_usage_error("%s", hb_error_last());
			break;
		case 'b':
			errno = 0;
			o->bits = strtoll(optarg, &end, 10);
			if (errno || *end || end == optarg || o->bits < 0 || optarg[0] == '-')
				return S_usage_error("--bits %s: expected a number of bits (0 or more)", optarg);
			break;
		case 'l':
			errno = 0;
			o->length = strtol(optarg, &end, 10);
			if (errno || *end || end == optarg || o->length <= 0 || o->length > MAX_OUTPUT_BITS)
				return S_usage_error("--length %s: expected an output length in bits, "
					"1 to 1048576", optarg);
			break;
		case 'h':
			fputs(hb_usage, stdout);
			exit(0);
		case ':':
			return S_usage_error("%s: missing value", argv[optind - 1]);
		default:
			return S_usage_error("%s: unknown option", argv[optind - 1]);
		}
		/* keep going past positional arguments: options may follow them */
	}
	if (o->run.compilers && !hb_is_file(o->run.compilers) && !hb_is_dir(o->run.compilers))
		return S_usage_error("--compilers %s: no such file or folder (one compiler line a line, "
			"as the tree's okcompilers/c, or a folder such as okcompilers/)", o->run.compilers);
	return 0;
}

/* getopt with "+" stops at the first positional argument; collect and continue. */
static int S_parse_all(S_opts *o, int argc, char **argv)
{
	char **rest = calloc((size_t)argc + 1, sizeof(char *));
	char **opt_argv = calloc((size_t)argc + 2, sizeof(char *));
	int i, nrest = 0, nopt = 1, rc, dashdash = 0;
	static const char *with_value[] = { "--submissions", "--supercop", "--compilers", "--work", "--profiles", "--out",
		"--sets", "--bits", "--length", "--system", "--profile", "--only", "--data", "--cpu",
		"--sizes", "--time-limit", "--spread-limit", "--sentinel-limit", "--precision", "--sandbox-user",
		"--memory-limit", "--jobs", "--passes", "--core-hz",
		"--shard", "--catalog", "--method", "--rounds", "--noise", "--json", "--seed", "--paired-passes", NULL };

	if (!rest || !opt_argv) {
		free(rest);
		free(opt_argv);
		return S_usage_error("%s", "out of memory");
	}
	opt_argv[0] = argv[0];
	for (i = 1; i < argc; i++) {
		int j, takes = 0;
		if (dashdash || argv[i][0] != '-' || strcmp(argv[i], "-") == 0) {
			rest[nrest++] = argv[i];
			continue;
		}
		if (strcmp(argv[i], "--") == 0) {
			dashdash = 1;
			continue;
		}
		for (j = 0; with_value[j]; j++)
			if (strcmp(argv[i], with_value[j]) == 0)
				takes = 1;
		opt_argv[nopt++] = argv[i];
		if (takes && i + 1 < argc)
			opt_argv[nopt++] = argv[++i];
	}
	rc = S_parse(o, nopt, opt_argv);
	free(opt_argv);
	o->args = rest;
	o->nargs = nrest;
	return rc;
}

/* ---- list ---- */

static void S_print_warnings(const hb_catalog *cat)
{
	size_t i;
	for (i = 0; cat->warnings && cat->warnings[i]; i++)
		fprintf(stderr, "hashbench: warning: %s\n", cat->warnings[i]);
}

static int S_cmd_list(const S_opts *o)
{
	hb_catalog *cat;

	if (o->nargs > 0)
		return S_usage_error("list: unexpected argument '%s'", o->args[0]);
	if (hb_catalog_open(&cat, o->submissions, o->run.supercop) != 0)
		return S_fail();
	S_print_warnings(cat);
	hb_list_print(cat);
	hb_catalog_free(cat);
	return 0;
}

/* ---- shared: find and build one instance ---- */

static int S_prepare(hb_catalog **out_cat, const hb_instance **out_inst,
	hb_build_result **out_build, const S_opts *o, const char *spec)
{
	*out_build = NULL;
	*out_inst = NULL;
	if (hb_catalog_open(out_cat, o->submissions, o->run.supercop) != 0)
		return HB_ERROR;
	if (hb_catalog_find(out_inst, *out_cat, spec) != 0)
		return HB_ERROR;
	if (hb_build(out_build, *out_inst, o->profiles, o->work) != 0)
		return HB_ERROR;
	return 0;
}

/* ---- digest ---- */

static int S_cmd_digest(const S_opts *o)
{
	hb_catalog *cat = NULL;
	const hb_instance *inst;
	hb_build_result *build = NULL;
	int rc = 0, i;

	if (o->nargs < 1)
		return S_usage_error("%s", "digest: which instance? (hashbench digest SM3 FILE)");
	if (S_prepare(&cat, &inst, &build, o, o->args[0]) != 0) {
		rc = S_fail();
		goto out;
	}
	if (o->nargs == 1)
		rc = hb_digest_print(inst, build->library, "-", o->bits, o->length);
	for (i = 1; i < o->nargs; i++)
		rc |= hb_digest_print(inst, build->library, o->args[i], o->bits, o->length);
out:
	hb_build_result_free(build);
	hb_catalog_free(cat);
	return rc;
}

/* ---- kat-gen and kat-check ---- */

static hb_katjobs_opts S_katjobs(const S_opts *o)
{
	hb_katjobs_opts k = { o->profiles, o->work, o->out_dir ? o->out_dir : ".", o->sets,
		o->run.time_limit_s, o->run.jobs, o->run.compilers };
	return k;
}

/* The instances named by the arguments (none: every instance when all is set). */
static int S_instances(const hb_instance ***out, size_t *n, const hb_catalog *cat,
	const S_opts *o, int all)
{
	size_t a, k, total = 0;
	int i;

	*n = 0;
	for (a = 0; a < cat->nalgorithms; a++)
		total += cat->algorithms[a].ninstances;
	*out = calloc((o->nargs > 0 ? (size_t)o->nargs : total) + 1, sizeof(**out));
	if (!*out)
		return hb_error_set("out of memory");
	for (i = 0; i < o->nargs; i++) {
		size_t before = *n;
		/* a SUPERCOP primitive named alone: every implementation of it */
		for (a = 0; !strchr(o->args[i], ':') && a < cat->nalgorithms; a++)
			for (k = 0; k < cat->algorithms[a].ninstances; k++)
				if (cat->algorithms[a].instances[k].supercop &&
					strcmp(cat->algorithms[a].instances[k].name, o->args[i]) == 0) {
					const hb_instance **g = realloc(*out, (*n + 2 + (size_t)o->nargs) *
						sizeof(**out));
					if (!g)
						return hb_error_set("out of memory");
					*out = g;
					(*out)[(*n)++] = &cat->algorithms[a].instances[k];
				}
		if (*n == before && hb_catalog_find(&(*out)[(*n)++], cat, o->args[i]) != 0)
			return HB_ERROR;
	}
	for (a = 0; all && o->nargs == 0 && a < cat->nalgorithms; a++)
		for (k = 0; k < cat->algorithms[a].ninstances; k++)
			(*out)[(*n)++] = &cat->algorithms[a].instances[k];
	return 0;
}

static int S_cmd_kat(const S_opts *o, int generate)
{
	hb_catalog *cat = NULL;
	const hb_instance **insts = NULL;
	hb_katjobs_opts k = S_katjobs(o);
	size_t n = 0, failed = 0, unverified = 0;
	int rc;

	if (generate && o->nargs < 1)
		return S_usage_error("%s", "kat-gen: name an instance (hashbench kat-gen SM3)");
	if (!generate && o->nargs > 1)
		return S_usage_error("kat-check: unexpected argument '%s'", o->args[1]);
	if (hb_catalog_open(&cat, o->submissions, o->run.supercop) != 0)
		return S_fail();
	if (!generate)
		S_print_warnings(cat);
	if (S_instances(&insts, &n, cat, o, !generate) != 0 ||
		(generate ? hb_katjobs_generate(&failed, insts, n, &k) :
			hb_katjobs_check(&failed, &unverified, insts, n, &k)) != 0) {
		rc = S_fail();
		goto out;
	}
	if (!generate && o->nargs == 0) {
		size_t i, notrun = 0;
		for (i = 0; i < n; i++)
			notrun += insts[i]->supercop && insts[i]->supercop->not_run;
		printf("%zu of %zu %s passed", n - notrun - failed - unverified, n - notrun,
			hb_plural(n - notrun, "library", "libraries"));
		if (unverified)
			printf(", %zu unverified (no checksums to compare with)", unverified);
		if (notrun)
			printf(", %zu not run here (see hashbench list)", notrun);
		printf("\n");
	}
	rc = failed ? 1 : 0;
out:
	free(insts);
	hb_catalog_free(cat);
	return rc;
}

/* ---- compare ---- */

static int S_cmd_compare(S_opts *o)
{
	hb_compare_opts c;
	int slower = 0;

	if (o->nargs != 2)
		return S_usage_error("%s", "compare: name two instances (hashbench compare "
			"SHA-256:reference SHA-256:openssl)");
	memset(&c, 0, sizeof(c));
	c.spec[0] = o->args[0];
	c.spec[1] = o->args[1];
	c.submissions[0] = o->submissions_a ? o->submissions_a : o->submissions;
	c.submissions[1] = o->submissions;
	c.supercop = o->run.supercop;
	c.profiles = o->profiles;
	c.work = o->work;
	c.measure_exe = hb_own_path(HB_OWN_MEASURE);
	c.sizes = o->run.sizes;
	c.cpu = o->run.ncpus ? o->run.cpus[0] : -1;
	c.passes = o->run.passes;
	c.rounds = o->rounds;
	c.noise_pct = o->noise_pct;
	c.time_limit_s = o->run.time_limit_s;
	c.json_out = o->json_out;
	c.progress = stderr;
	if (hb_compare_run(&slower, &c) != 0) {
		fprintf(stderr, "hashbench: %s\n", hb_error_last());
		return 3;
	}
	return slower ? 1 : 0;
}

/* ---- run and env ---- */

static void S_fill_run(S_opts *o)
{
	o->run.submissions = o->submissions;
	o->run.work = o->work;
	o->run.profiles = o->profiles;
	o->run.kat_sets = o->sets;
	o->run.measure_exe = hb_own_path(HB_OWN_MEASURE);
}

/* Without --system, the machine's own name (the caller frees *owned). */
static void S_default_system(S_opts *o, char **owned)
{
	*owned = NULL;
	if (!o->run.system)
		o->run.system = *owned = hb_machine_name();
}

static int S_cmd_env(S_opts *o)
{
	char *text = NULL, *machine;
	int rc = 0;
	if (o->nargs > 0)
		return S_usage_error("env: unexpected argument '%s'", o->args[0]);
	S_fill_run(o);
	S_default_system(o, &machine);
	if (hb_campaign_system_json(&text, &o->run) != 0)
		rc = S_fail();
	else
		printf("%s\n", text);
	free(text);
	free(machine);
	return rc;
}

static int S_cmd_run(S_opts *o)
{
	hb_campaign_summary sum;
	char *machine, more[160] = "", unverified[96] = "";
	int rc;

	if (o->nargs > 0)
		return S_usage_error("run: unexpected argument '%s'", o->args[0]);
	S_default_system(o, &machine);
	if (machine)
		fprintf(stderr, "hashbench: no --system given: this machine's evidence is %s/%s/\n",
			o->run.data_dir, machine);
	S_fill_run(o);
	rc = hb_campaign_run(&sum, &o->run);
	if (rc != 0) {
		free(machine);
		return S_fail();
	}
	if (sum.kat_unverified)
		snprintf(unverified, sizeof(unverified), ", %zu timed unverified (no checksums to compare "
			"with)", sum.kat_unverified);
	if (sum.passes_more)
		snprintf(more, sizeof(more), "; %zu %s more for %s (%.1f s)", sum.passes_more,
			hb_plural(sum.passes_more, "pass", "passes"), o->run.precision_pct > 0 ?
			"the precision asked" : "unconfirmed figures", sum.more_s);
	fprintf(stderr, "hashbench: campaign %s finished: %zu %s measured, %zu kept from an "
		"earlier run, %zu failed; %zu %s failed %s KAT check, %zu did not build%s; "
		"intervals: median ± %.2f %%, %zu wider than ± %.1f %%, %zu unconfirmed; "
		"%zu %s with single calls spread above the limit; %zu %s left out (machine "
		"busy)%s\n",
		o->run.system, sum.measured, hb_plural(sum.measured, "record", "records"), sum.kept,
		sum.failed_records, sum.kat_failed, hb_plural(sum.kat_failed, "library", "libraries"),
		hb_plural(sum.kat_failed, "its", "their"), sum.build_failed, unverified,
		sum.median_half_pct > 0 ? sum.median_half_pct : 0, sum.wide, sum.target_pct,
		sum.disturbed, sum.unstable, hb_plural(sum.unstable, "figure", "figures"),
		sum.passes_left_out, hb_plural(sum.passes_left_out, "pass", "passes"), more);
	free(machine);
	return sum.failed_records || sum.kat_failed || sum.build_failed ? 1 : 0;
}

/* ---- merge ---- */

static int S_cmd_merge(const S_opts *o)
{
	hb_merge_opts m = { o->run.data_dir, o->args, (size_t)o->nargs, o->allow_missing, stderr };
	hb_merge_summary sum;

	if (o->nargs < 1)
		return S_usage_error("%s", "merge: which folders? (hashbench merge --data OUT "
			"shards/1/x86_1 shards/2/x86_1)");
	if (hb_merge(&sum, &m) != 0)
		return S_fail();
	fprintf(stderr, "hashbench: merged %zu %s into %s/%s: %zu evidence %s, %zu catalog %s%s\n",
		sum.inputs, hb_plural(sum.inputs, "folder", "folders"), o->run.data_dir, sum.system,
		sum.files, hb_plural(sum.files, "file", "files"), sum.catalog,
		hb_plural(sum.catalog, "entry", "entries"),
		sum.missing ? "; units missing (listed above)" : "");
	return 0;
}

/* ---- import ---- */

static int S_cmd_import(const S_opts *o)
{
	hb_import_opts m = { NULL, o->run.system, o->run.data_dir, o->catalog, o->method, o->run.only,
		stderr };
	hb_import_summary sum;

	if (o->nargs < 1 || strcmp(o->args[0], "ngcc-harness") != 0)
		return S_usage_error("%s", "import: from what? (hashbench import ngcc-harness DIR "
			"--system NAME; ngcc-harness is the one source known)");
	if (o->nargs != 2)
		return S_usage_error("%s", o->nargs < 2 ? "import ngcc-harness: which folder? (the "
			"harness's performance/data/<system>)" : "import ngcc-harness: one folder at a time");
	if (!o->run.system)
		return S_usage_error("%s", "import: --system NAME is required (the name of the imported "
			"system's evidence, e.g. arm_1)");
	m.dir = o->args[1];
	if (hb_import_ngcc_harness(&sum, &m) != 0)
		return S_fail();
	fprintf(stderr, "hashbench: imported %zu %s and %zu KAT %s of ngcc-harness from %s into "
		"%s/%s (catalog entries: %zu written, %zu kept; method page: %s)\n", sum.records,
		hb_plural(sum.records, "record", "records"), sum.kat_logs,
		hb_plural(sum.kat_logs, "log", "logs"), o->args[1], o->run.data_dir, o->run.system, sum.catalog_written,
		sum.catalog_kept, sum.method ? "the harness's" : "none");
	if (sum.skipped)
		fprintf(stderr, "hashbench: import: %zu file%s of other categories or operations skipped "
			"(listed above)\n", sum.skipped, sum.skipped == 1 ? "" : "s");
	if (sum.refused)
		fprintf(stderr, "hashbench: import: %zu file%s refused (listed above)\n", sum.refused,
			sum.refused == 1 ? "" : "s");
	return sum.refused ? 1 : 0;
}

int main(int argc, char **argv)
{
	S_opts o;
	const char *cmd;
	int rc;

	if (argc < 2)
		return S_usage_error("%s", "no command given");
	hb_sc_lib_run_start();
	cmd = argv[1];
	if (strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0 || strcmp(cmd, "help") == 0) {
		fputs(hb_usage, stdout);
		return 0;
	}
	if (strcmp(cmd, "version") == 0 || strcmp(cmd, "--version") == 0) {
		printf("hashbench %s (git %s)\n", HB_VERSION, HB_GIT_COMMIT);
		return 0;
	}
	if ((rc = S_parse_all(&o, argc - 1, argv + 1)) != 0) {
		free(o.args);
		return rc;
	}
	o.sandbox.scratch = o.work;
	if (strcmp(cmd, "list") != 0 && strcmp(cmd, "merge") != 0 && strcmp(cmd, "import") != 0 &&
		(hb_mkdir_p(o.work) != 0 || hb_sandbox_configure(&o.sandbox, stderr) != 0)) {
		free(o.args);
		return S_usage_error("%s", hb_error_last());
	}
	if (strcmp(cmd, "list") == 0)
		rc = S_cmd_list(&o);
	else if (strcmp(cmd, "digest") == 0)
		rc = S_cmd_digest(&o);
	else if (strcmp(cmd, "kat-gen") == 0)
		rc = S_cmd_kat(&o, 1);
	else if (strcmp(cmd, "kat-check") == 0)
		rc = S_cmd_kat(&o, 0);
	else if (strcmp(cmd, "run") == 0)
		rc = S_cmd_run(&o);
	else if (strcmp(cmd, "env") == 0)
		rc = S_cmd_env(&o);
	else if (strcmp(cmd, "compare") == 0)
		rc = S_cmd_compare(&o);
	else if (strcmp(cmd, "merge") == 0)
		rc = S_cmd_merge(&o);
	else if (strcmp(cmd, "import") == 0)
		rc = S_cmd_import(&o);
	else
		rc = S_usage_error("unknown command '%s'", cmd);
	free(o.args);
	return rc;
}
