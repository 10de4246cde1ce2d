/* test_memory.c — the exact memory figures and the machine-speed sentinel as a user sees them:
 * section 5 of x86_1 (current evidence) and arm_1 (an earlier version's), the method page's
 * trace chart, a bad sentinel.json, a rebuild after sentinel.json changed and hashgen --check. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <jansson.h>

#include "hashgen.h"
#include "results.h"
#include "support.h"

#define DATA HBT_FIXTURES "/data"
#define TEMPLATES HBT_SOURCE_DIR "/templates"
#define HASHGEN HBT_BUILD_DIR "/bin/hashgen"

static char *S_read(const char *path)
{
	char *text;
	size_t len;
	cr_assert_eq(hg_read_file(&text, &len, path), 0, "%s", hg_error_last());
	return text;
}

static size_t S_count(const char *text, const char *what)
{
	size_t n = 0;
	const char *p;
	for (p = text; (p = strstr(p, what)) != NULL; p += strlen(what))
		n++;
	return n;
}

/* A copy of the fixtures whose SHA256SUMS all match (the fixtures keep one mismatch on arm_1 on
 * purpose), in a test's own folder. */
static char *S_data_copy(const char *root)
{
	char *data = hb_path_join(root, "data");
	char *cmd = hb_sprintf("cp -r '%s' '%s' && cd '%s/arm_1' && find . -type f ! -name SHA256SUMS "
		"| sed 's|^\\./||' | LC_ALL=C sort | xargs sha256sum > SHA256SUMS", DATA, data, data);
	cr_assert_eq(system(cmd), 0, "%s", cmd);
	free(cmd);
	return data;
}

/* build/bin/hashgen as a user runs it; *out gets stdout and stderr, the exit status returns. */
static int S_hashgen(char **out, const char *root, const char *args)
{
	char *log = hb_path_join(root, "hashgen.log");
	char *cmd = hb_sprintf("TMPDIR='%s' '%s' %s --templates '%s' >'%s' 2>&1", root, HASHGEN, args,
		TEMPLATES, log);
	size_t len;
	int st = system(cmd);
	cr_assert(WIFEXITED(st), "%s did not exit", cmd);
	cr_assert_eq(hg_read_file(out, &len, log), 0, "%s", hg_error_last());
	free(cmd);
	free(log);
	return WEXITSTATUS(st);
}

static char *S_build(const char *root, const char *data, const char *name)
{
	char *site = hb_path_join(root, name), *args = hb_sprintf("--data '%s' --out '%s'", data, site);
	char *out;
	cr_assert_eq(S_hashgen(&out, root, args), 0, "%s", out);
	free(out);
	free(args);
	return site;
}

Test(memory, section_5_shows_the_exact_figures_of_current_evidence_and_dashes_of_earlier)
{
	char *root = hbt_tmpdir("memory-pages"), *data = S_data_copy(root);
	char *site = S_build(root, data, "site"), *p, *md, *html;

	p = hb_path_join(site, "x86_1/hash-15.md");
	md = S_read(p);
	cr_expect(strstr(md, "| instance | operation | static: ELF image (bytes) | baseline RSS | "
		"peak RSS | stack | heap peak | allocations |") != NULL, "%s", md);
	cr_expect(strstr(md, "| `litchi_512` | hash_65536 | 16648 | 1408 KiB | 1472 KiB | 12352 B | "
		"4096 B | 2 |") != NULL, "%s", md);
	cr_expect(strstr(md, "| `litchi_256` | hash_32 | 16648 | 1408 KiB | 1472 KiB | 10016 B | 0 B | "
		"0 |") != NULL, "%s", md);
	cr_expect(strstr(md, "measured exactly for one call") != NULL);
	free(md);
	free(p);
	/* the HTML twin comes from the same model */
	p = hb_path_join(site, "x86_1/hash-15.html");
	html = S_read(p);
	cr_expect(strstr(html, "<th class=\"num\">heap peak</th>") != NULL ||
		strstr(html, ">heap peak<") != NULL, "no heap peak column in the HTML");
	cr_expect(strstr(html, ">12352 B<") != NULL);
	free(html);
	free(p);

	p = hb_path_join(site, "arm_1/hash-15.md");
	md = S_read(p);
	cr_expect(strstr(md, "| `litchi_512` | hash_65536 | 16648 | 1408 KiB | 1472 KiB | — | — | — |")
		!= NULL, "%s", md);
	free(md);
	free(p);

	/* the downloads name each system's machine-speed readings, null for earlier evidence */
	{
		json_t *j = hbt_results_json(site), *sys, *one;
		size_t k, seen = 0;
		sys = json_object_get(j, "systems");
		json_array_foreach(sys, k, one) {
			const char *name = json_string_value(json_object_get(one, "system"));
			json_t *sj = json_object_get(one, "sentinel_json");
			if (strcmp(name, "x86_1") == 0) {
				cr_expect_str_eq(json_string_value(sj), "data/x86_1/sentinel.json");
				cr_expect_eq(strlen(json_string_value(json_object_get(one,
					"sentinel_json_sha256"))), 64);
				seen++;
			} else if (strcmp(name, "arm_1") == 0) {
				cr_expect(json_is_null(sj), "arm_1 has sentinel_json");
				seen++;
			}
		}
		cr_expect_eq(seen, 2);
		json_decref(j);
	}

	/* the comparison page carries stack and heap peak where it shows peak RSS */
	p = hb_path_join(site, "x86_1/compare.md");
	md = S_read(p);
	cr_expect(strstr(md, "| static size (bytes) | peak RSS | stack | heap peak |") != NULL,
		"%s", md);
	cr_expect(strstr(md, "| 16648 | 1472 KiB | 12352 B | 4096 B |") != NULL, "%s", md);
	free(md);
	free(p);
	hg_rm_rf(root);
	free(site);
	free(data);
	free(root);
}

Test(memory, the_method_page_embeds_the_sentinel_trace_with_one_point_per_reading)
{
	char *root = hbt_tmpdir("memory-sentinel"), *data = S_data_copy(root);
	char *site = S_build(root, data, "site"), *p, *html, *svg;

	p = hb_path_join(site, "x86_1/method.html");
	html = S_read(p);
	cr_expect(strstr(html, "<h2>Machine speed during the campaign</h2>") != NULL);
	cr_expect(strstr(html, "<img class=\"chart\" src=\"sentinel.svg\"") != NULL, "no sentinel.svg in %s", p);
	cr_expect(strstr(html, "38 readings of the workload (3 outside the band around their CPU's "
		"usual best), 2 records with a pass that was not calm, 1 record disturbed.") != NULL,
		"%s", html);
	cr_expect(strstr(html, "href=\"../data/x86_1/sentinel.json\"") != NULL,
		"sentinel.json is not in the method page's evidence table");
	cr_expect(strstr(html, "GOT entries") != NULL, "the method page does not say how the heap is "
		"measured");
	free(html);
	free(p);

	p = hb_path_join(site, "x86_1/sentinel.svg");
	svg = S_read(p);
	/* 4 calibration readings and 34 around records; 3 of them more than 3 % slower than the
	 * tenth percentile (the one 5 % faster is not outside: faster is not a disturbance) */
	cr_expect_eq(S_count(svg, "class=\"marker reading"), 38, "%s", svg);
	cr_expect_eq(S_count(svg, "class=\"marker reading outside\""), 3);
	cr_expect_eq(S_count(svg, "class=\"series\""), 2, "one series per CPU");
	cr_expect(strstr(svg, "class=\"band\"") != NULL);
	cr_expect(strstr(svg, "time since the campaign's start (s)") != NULL);
	free(svg);
	free(p);

	/* the evidence copy is there, so sha256sum -c of the site's data/x86_1 covers it */
	p = hb_path_join(site, "data/x86_1/sentinel.json");
	cr_expect_eq(access(p, F_OK), 0, "%s is missing", p);
	free(p);

	p = hb_path_join(site, "arm_1/method.html");
	html = S_read(p);
	cr_expect(strstr(html, "The machine's speed was not traced during this campaign (evidence of "
		"an earlier hashbench version).") != NULL, "%s", html);
	cr_expect_null(strstr(html, "sentinel.svg"));
	free(html);
	free(p);
	p = hb_path_join(site, "arm_1/sentinel.svg");
	cr_expect_neq(access(p, F_OK), 0, "arm_1 has a sentinel chart");
	free(p);
	hg_rm_rf(root);
	free(site);
	free(data);
	free(root);
}

Test(memory, a_bad_sentinel_json_or_memory_field_is_one_line_naming_file_and_field)
{
	static const struct {
		const char *file, *find, *replace, *message;
	} cases[] = {
		{ "x86_1/sentinel.json", "\"cycles\": 4101000", "\"cycles\": \"4101000\"",
			"x86_1/sentinel.json: readings[3].cycles: expected an integer" },
		{ "x86_1/sentinel.json", "\"when\": \"calibration\"", "\"when\": \"lunch\"",
			"x86_1/sentinel.json: readings[0].when: expected \"calibration\", \"before\" or "
			"\"after\"" },
		{ "x86_1/sentinel.json", "hashbench.sentinel/1", "hashbench.sentinel/7",
			"x86_1/sentinel.json: schema: unknown version \"hashbench.sentinel/7\" (this hashgen "
			"reads hashbench.sentinel/1)" },
		{ "x86_1/records/hash-15/litchi_256__hash_32.json", "\"stack_bytes\": 10016",
			"\"stack_bytes\": -1", "x86_1/records/hash-15/litchi_256__hash_32.json: "
			"resources.stack_bytes: expected an integer of 0 or more or null" },
		{ "x86_1/records/hash-15/litchi_256__hash_32.json", "\"deviation_pct\": ",
			"\"deviation_pct\": \"x\", \"was\": ", "x86_1/records/hash-15/litchi_256__hash_32.json: "
			"sentinel.deviation_pct: expected a number of 0 or more" },
		{ "x86_1/system.json", "\"disturbed_records\": 1", "\"disturbed_records\": true",
			"x86_1/system.json: campaign.sentinel.disturbed_records: expected an integer" },
	};
	size_t i;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *root = hbt_tmpdir("memory-bad"), *data = S_data_copy(root);
		char *path = hb_path_join(data, cases[i].file), *text = S_read(path), *at, *changed;
		char *site = hb_path_join(root, "site"), *args, *out, *want;
		at = strstr(text, cases[i].find);
		cr_assert_not_null(at, "case %zu: '%s' not in %s", i, cases[i].find, cases[i].file);
		*at = 0;
		changed = hb_sprintf("%s%s%s", text, cases[i].replace, at + strlen(cases[i].find));
		hbt_write(path, changed, strlen(changed));
		args = hb_sprintf("--data '%s' --out '%s'", data, site);
		cr_expect_eq(S_hashgen(&out, root, args), 1, "case %zu: %s", i, out);
		want = hb_sprintf("hashgen: %s/%s\n", data, cases[i].message);
		cr_expect_str_eq(out, want, "case %zu", i);
		free(want);
		free(out);
		free(args);
		free(site);
		free(changed);
		free(text);
		free(path);
		hg_rm_rf(root);
		free(data);
		free(root);
	}
}

Test(memory, a_rebuild_after_sentinel_json_changed_equals_a_clean_build_and_checks_clean)
{
	char *root = hbt_tmpdir("memory-rebuild"), *data = S_data_copy(root);
	char *site = S_build(root, data, "site"), *clean, *path, *text, *at, *cmd, *args, *out;

	/* one reading moves far out of the band; SHA256SUMS follows, as hashbench would write it */
	path = hb_path_join(data, "x86_1/sentinel.json");
	text = S_read(path);
	at = strstr(text, "\"cycles\": 4013000");
	cr_assert_not_null(at);
	memcpy(at, "\"cycles\": 4513000", strlen("\"cycles\": 4513000"));
	hbt_write(path, text, strlen(text));
	cmd = hb_sprintf("cd '%s/x86_1' && find . -type f ! -name SHA256SUMS | sed 's|^\\./||' | "
		"LC_ALL=C sort | xargs sha256sum > SHA256SUMS", data);
	cr_assert_eq(system(cmd), 0);
	free(cmd);
	free(S_build(root, data, "site"));
	clean = S_build(root, data, "clean");
	cmd = hb_sprintf("diff -r '%s' '%s' >/dev/null", site, clean);
	cr_expect_eq(system(cmd), 0, "the rebuild differs from a clean build: %s", cmd);
	free(cmd);
	{
		char *svgp = hb_path_join(site, "x86_1/sentinel.svg"), *svg = S_read(svgp);
		cr_expect_eq(S_count(svg, "class=\"marker reading outside\""), 4, "the changed reading is not "
			"drawn outside the band");
		free(svg);
		free(svgp);
	}

	/* hashgen --check verifies the new outputs and the sentinel.json copy too */
	args = hb_sprintf("--check --data '%s' --out '%s'", data, site);
	cr_expect_eq(S_hashgen(&out, root, args), 0, "%s", out);
	cr_expect(strstr(out, " matches ") != NULL, "%s", out);
	free(out);
	{
		/* a changed copy of sentinel.json is caught */
		char *copy = hb_path_join(site, "data/x86_1/sentinel.json"), *tmp = hb_sprintf("%s.new", copy);
		char *t = S_read(copy);
		t[10] = t[10] == 'x' ? 'y' : 'x';
		hbt_write(tmp, t, strlen(t));
		cr_assert_eq(rename(tmp, copy), 0);
		cr_expect_neq(S_hashgen(&out, root, args), 0, "%s", out);
		cr_expect(strstr(out, "data/x86_1/sentinel.json does not match SHA256SUMS") != NULL, "%s",
			out);
		free(out);
		free(t);
		free(tmp);
		free(copy);
	}
	free(args);
	free(text);
	free(path);
	hg_rm_rf(root);
	free(clean);
	free(site);
	free(data);
	free(root);
}
