/* main.c — hashgen: renders the evidence of data/ as a static site (see docs/site.md). Parses the
 * arguments, calls the library, and turns the result into an exit status. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hashgen.h"

#ifndef HB_GIT_COMMIT
#define HB_GIT_COMMIT "unknown"
#endif

static const char S_usage[] =
	"usage: hashgen [--data DIR] [--templates DIR] [--out DIR] [--strict] [--jobs N] [--timings]\n"
	"       hashgen --check [--data DIR] [--templates DIR] [--out DIR]\n"
	"  --data DIR       evidence of every system (default data)\n"
	"  --templates DIR  page skeleton, stylesheet and prose (default: the bundled templates)\n"
	"  --out DIR        the site (default site); replaced only when all of it was rendered\n"
	"  --strict         an evidence file that does not match SHA256SUMS is an error\n"
	"  --jobs N         worker threads (default: one per CPU)\n"
	"  --base-url URL   the site's public address, for absolute URLs in sitemap.xml\n"
	"  --timings        after the build, the wall and CPU time of each of its steps on stderr\n"
	"  --check          change nothing: render the site afresh and compare it with --out byte for\n"
	"                   byte, check --out's evidence copies against their SHA256SUMS and its\n"
	"                   downloads against results-index.json; a line per problem on stdout,\n"
	"                   exit 0 when the site matches, 1 when not\n";

/* What the build made, and for a rebuild what it did again and what it left as it was. */
static void S_summary(const hg_site_stats *st, const char *out)
{
	fprintf(stderr, "hashgen: %zu algorithm %s for %zu %s in %s/", st->pages,
		hg_plural(st->pages, "page", "pages"), st->systems,
		hg_plural(st->systems, "system", "systems"), out);
	if (st->rebuilt) {
		fprintf(stderr, ", rebuilt in place: %zu rendered again, %zu unchanged; %zu %s",
			st->rendered, st->pages - st->rendered, st->replaced,
			hg_plural(st->replaced, "file", "files"));
		if (st->swapped)
			fprintf(stderr, " and %zu evidence %s", st->swapped,
				hg_plural(st->swapped, "folder", "folders"));
		fprintf(stderr, " put in place, %zu removed", st->removed);
	}
	fprintf(stderr, "%s\n", st->warnings ? " (with warnings above)" : "");
}

/* The wall and CPU time (of every thread) of each step of the build, and of all of them. */
static void S_timings(const hg_site_stats *st)
{
	double wall = 0, cpu = 0;
	int i;
	fprintf(stderr, "hashgen: %-36s %9s %9s\n", "step", "wall", "CPU");
	for (i = 0; i < HG_NSTEPS; i++) {
		fprintf(stderr, "hashgen: %-36s %7.3f s %7.3f s\n", hg_site_steps[i], st->wall[i],
			st->cpu[i]);
		wall += st->wall[i];
		cpu += st->cpu[i];
	}
	fprintf(stderr, "hashgen: %-36s %7.3f s %7.3f s\n", "total", wall, cpu);
}

int main(int argc, char **argv)
{
	hg_site_opts o = { "data", NULL, "site", 0, 0, NULL, NULL, stderr, 0 };
	hg_site_stats st;
	size_t problems;
	int i, check = 0, timings = 0;

	for (i = 1; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
		if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
			fputs(S_usage, stdout);
			return 0;
		}
		if (strcmp(a, "--version") == 0) {
			printf("hashgen %s (git %s)\n", HG_VERSION, HB_GIT_COMMIT);
			return 0;
		}
		if (strcmp(a, "--strict") == 0) {
			o.strict = 1;
			continue;
		}
		if (strcmp(a, "--check") == 0) {
			check = 1;
			continue;
		}
		if (strcmp(a, "--timings") == 0) {
			timings = 1;
			continue;
		}
		if (strcmp(a, "--data") && strcmp(a, "--templates") && strcmp(a, "--out") &&
			strcmp(a, "--jobs") && strcmp(a, "--base-url")) {
			fprintf(stderr, "hashgen: %s: unknown argument\n(hashgen --help for usage)\n", a);
			return 2;
		}
		if (!v || !*v) {
			fprintf(stderr, "hashgen: %s: missing value\n(hashgen --help for usage)\n", a);
			return 2;
		}
		i++;
		if (strcmp(a, "--data") == 0)
			o.data_dir = v;
		else if (strcmp(a, "--templates") == 0)
			o.templates_dir = v;
		else if (strcmp(a, "--out") == 0)
			o.out_dir = v;
		else if (strcmp(a, "--base-url") == 0)
			o.base_url = v;
		else {
			char *end;
			long n = strtol(v, &end, 10);
			if (*end || n < 1 || n > 256) {
				fprintf(stderr, "hashgen: --jobs %s: expected 1 to 256\n", v);
				return 2;
			}
			o.jobs = (int)n;
		}
	}
	if (!o.templates_dir)
		o.templates_dir = hg_templates_default();
	if (check && timings) {
		fprintf(stderr, "hashgen: --timings: times a build, not --check\n"
			"(hashgen --help for usage)\n");
		return 2;
	}
	if (check) {
		if (hg_site_check(&problems, &o, stdout) != 0) {
			fprintf(stderr, "hashgen: %s\n", hg_error_last());
			return 1;
		}
		return problems ? 1 : 0;
	}
	if (hg_site_build(&st, &o) != 0) {
		fprintf(stderr, "hashgen: %s\n", hg_error_last());
		return 1;
	}
	S_summary(&st, o.out_dir);
	if (timings)
		S_timings(&st);
	return 0;
}
