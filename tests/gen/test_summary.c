/* test_summary.c — what hashgen says after a build: the summary line of a clean build and of a
 * rebuild in place (pages rendered again, files put in place and removed), and --timings' table
 * of its steps. */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hashgen.h"
#include "support.h"

#define DATA HBT_FIXTURES "/data"
#define TEMPLATES HBT_SOURCE_DIR "/templates"

/* hashgen's command line on args (a shell fragment): its stderr, then "exit <status>". */
static char *S_hashgen(const char *args)
{
	char *cmd = hb_sprintf("'%s/bin/hashgen' --templates '%s' %s 2>&1 >/dev/null; echo \"exit $?\"",
		HBT_BUILD_DIR, TEMPLATES, args), *text = NULL;
	size_t len = 0;
	FILE *p = popen(cmd, "r"), *m = open_memstream(&text, &len);
	char buf[4096];
	size_t n;
	cr_assert_not_null(p);
	while ((n = fread(buf, 1, sizeof(buf), p)) > 0)
		fwrite(buf, 1, n, m);
	pclose(p);
	fclose(m);
	free(cmd);
	return text;
}

/* The line of text that starts with prefix (a copy, without its newline). */
static char *S_line(const char *text, const char *prefix)
{
	const char *at = text;
	while (at && strncmp(at, prefix, strlen(prefix)) != 0)
		if ((at = strchr(at, '\n')) != NULL)
			at++;
	cr_assert(at && *at, "no line starting \"%s\" in:\n%s", prefix, text);
	return strndup(at, strcspn(at, "\n"));
}

/* --timings' table: a line per step in order, then the total, each with its wall and CPU time;
 * the total is their sum. */
static void S_expect_timings(const char *err)
{
	double wall, cpu, sum_wall = 0, sum_cpu = 0;
	size_t i;
	for (i = 0; i < HG_NSTEPS; i++) {
		char *prefix = hb_sprintf("hashgen: %s ", hg_site_steps[i]), *line = S_line(err, prefix);
		cr_expect_eq(sscanf(line + strlen(prefix), "%lf s %lf s", &wall, &cpu), 2, "%s", line);
		cr_expect(wall >= 0 && cpu >= 0, "%s", line);
		sum_wall += wall;
		sum_cpu += cpu;
		free(line);
		free(prefix);
	}
	{
		char *line = S_line(err, "hashgen: total ");
		cr_expect_eq(sscanf(line + strlen("hashgen: total "), "%lf s %lf s", &wall, &cpu), 2);
		cr_expect(fabs(wall - sum_wall) < 0.004 && fabs(cpu - sum_cpu) < 0.004, "%s: the steps "
			"sum to %.3f s, %.3f s", line, sum_wall, sum_cpu);
		cr_expect_gt(wall, 0);
		free(line);
	}
}

Test(summary, hashgen_says_what_a_rebuild_did_and_times_its_steps)
{
	char *out = hbt_tmpdir("cli-rebuild"), *data = hb_path_join(out, "data");
	char *site = hb_path_join(out, "site"), *args = hb_sprintf("--data '%s' --out '%s'", data,
		site), *timed = hb_sprintf("%s --timings", args), *err, *line, *want;
	size_t pages;

	line = hb_sprintf("cp -r '%s' '%s'", DATA, data);
	cr_assert_eq(system(line), 0, "%s", line);
	free(line);
	/* a clean build: what it made, and its steps */
	err = S_hashgen(timed);
	cr_assert(strstr(err, "\nexit 0\n") != NULL, "%s", err);
	line = S_line(err, "hashgen: ");
	while (strstr(line, "algorithm pages for") == NULL) { /* past the fixture's warnings */
		const char *next = strstr(err, line) + strlen(line) + 1;
		free(line);
		line = S_line(next, "hashgen: ");
	}
	cr_assert_eq(sscanf(line, "hashgen: %zu algorithm pages", &pages), 1, "%s", line);
	cr_expect_geq(pages, 6);
	want = hb_sprintf("hashgen: %zu algorithm pages for 2 systems in %s/ (with warnings above)",
		pages, site);
	cr_expect_str_eq(line, want, "a clean build says nothing of a rebuild");
	S_expect_timings(err);
	free(want);
	free(line);
	free(err);

	/* nothing changed: nothing rendered again, nothing put in place */
	err = S_hashgen(args);
	want = hb_sprintf("in %s/, rebuilt in place: 0 rendered again, %zu unchanged; 0 files put in "
		"place, 0 removed (with warnings above)\n", site, pages);
	cr_expect(strstr(err, want) != NULL, "want \"%s\" in:\n%s", want, err);
	cr_expect(strstr(err, "hashgen: total") == NULL, "timings without --timings:\n%s", err);
	free(want);
	free(err);

	/* one record changed: its page and its algorithm's page across systems again, its evidence
	 * folders (records and KAT) swapped */
	hbt_replace(data, "x86_1/records/hash-15/litchi_256__hash_32.json", "\"peak_rss_kib\": 1472",
		"\"peak_rss_kib\": 1479");
	err = S_hashgen(timed);
	want = hb_sprintf("in %s/, rebuilt in place: 2 rendered again, %zu unchanged; ", site,
		pages - 2);
	cr_expect(strstr(err, want) != NULL, "want \"%s\" in:\n%s", want, err);
	cr_expect(strstr(err, " files and 2 evidence folders put in place, 0 removed") != NULL, "%s",
		err);
	S_expect_timings(err);
	free(want);
	free(err);

	err = S_hashgen("--check --timings");
	cr_expect_str_eq(err, "hashgen: --timings: times a build, not --check\n"
		"(hashgen --help for usage)\nexit 2\n");
	free(err);
	free(timed);
	free(args);
	free(site);
	free(data);
	free(out);
}
