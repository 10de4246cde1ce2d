/* results.c — the site's downloads as a test reads them: the index, each part checked against
 * its size and SHA-256, and the parts joined again (results.h). */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>

#include "genutil.h"
#include "hbutil.h"
#include "results.h"

static char *S_read(const char *site, const char *rel, size_t *len)
{
	char *path = hb_path_join(site, rel), *text;
	cr_assert_eq(hg_read_file(&text, len, path), 0, "%s", hg_error_last());
	free(path);
	return text;
}

/* part[key] is there with part[key_bytes] bytes and SHA-256 part[key_sha256]. */
static void S_check_file(const char *site, json_t *part, const char *key)
{
	char *bytes_key = hb_sprintf("%s_bytes", key), *sha_key = hb_sprintf("%s_sha256", key);
	const char *rel = json_string_value(json_object_get(part, key)), *sha;
	char *text, hex[65];
	size_t len;

	cr_assert_not_null(rel, "a part of results-index.json has no %s", key);
	text = S_read(site, rel, &len);
	hg_sha256_hex(hex, text, len);
	sha = json_string_value(json_object_get(part, sha_key));
	cr_assert_not_null(sha, "%s: no %s in results-index.json", rel, sha_key);
	cr_expect_str_eq(hex, sha, "%s: its SHA-256 is not the index's", rel);
	cr_expect_eq((json_int_t)len, json_integer_value(json_object_get(part, bytes_key)),
		"%s: its size is not the index's", rel);
	free(text);
	free(bytes_key);
	free(sha_key);
}

json_t *hbt_results_index(const char *site)
{
	char *path = hb_path_join(site, "results-index.json");
	json_error_t err;
	json_t *index = json_load_file(path, JSON_REJECT_DUPLICATES, &err), *part;
	size_t i;

	cr_assert_not_null(index, "%s: %s", path, err.text);
	cr_assert_str_eq(json_string_value(json_object_get(index, "schema")),
		"hashbench.results-index/1");
	cr_assert(json_is_array(json_object_get(index, "parts")), "%s: no parts", path);
	json_array_foreach(json_object_get(index, "parts"), i, part) {
		S_check_file(site, part, "csv");
		S_check_file(site, part, "json");
	}
	free(path);
	return index;
}

json_t *hbt_results_json(const char *site)
{
	json_t *index = hbt_results_index(site), *all = json_object(), *part;
	json_t *systems = json_array(), *figures = json_array();
	size_t i;

	json_object_set_new(all, "schema", json_string("hashbench.results/1"));
	json_object_set(all, "columns", json_object_get(index, "columns"));
	json_array_foreach(json_object_get(index, "parts"), i, part) {
		const char *rel = json_string_value(json_object_get(part, "json"));
		char *path = hb_path_join(site, rel);
		json_error_t err;
		json_t *one = json_load_file(path, JSON_REJECT_DUPLICATES, &err), *s;
		cr_assert_not_null(one, "%s: %s", path, err.text);
		cr_expect_str_eq(json_string_value(json_object_get(one, "schema")),
			"hashbench.results/1", "%s", rel);
		cr_expect(json_equal(json_object_get(one, "columns"), json_object_get(index, "columns")),
			"%s: its columns are not the index's", rel);
		cr_expect_eq(json_array_size(json_object_get(one, "systems")), 1, "%s", rel);
		s = json_array_get(json_object_get(one, "systems"), 0);
		cr_expect_str_eq(json_string_value(json_object_get(s, "system")),
			json_string_value(json_object_get(part, "system")), "%s", rel);
		if (json_integer_value(json_object_get(part, "part")) == 1)
			json_array_append(systems, s);
		cr_expect_eq((json_int_t)json_array_size(json_object_get(one, "figures")),
			json_integer_value(json_object_get(part, "figures")), "%s: figures", rel);
		json_array_extend(figures, json_object_get(one, "figures"));
		json_decref(one);
		free(path);
	}
	json_object_set_new(all, "systems", systems);
	json_object_set_new(all, "figures", figures);
	json_decref(index);
	return all;
}

char *hbt_results_csv(const char *site)
{
	json_t *index = hbt_results_index(site), *part;
	char *all = NULL, *header = NULL;
	size_t i, n = 0;

	json_array_foreach(json_object_get(index, "parts"), i, part) {
		const char *rel = json_string_value(json_object_get(part, "csv"));
		size_t len, hlen;
		char *text = S_read(site, rel, &len), *body = strstr(text, "\r\n");
		cr_assert_not_null(body, "%s: no header row", rel);
		body += 2;
		hlen = (size_t)(body - text);
		if (!header) {
			header = hb_sprintf("%.*s", (int)hlen, text);
			all = hb_sprintf("%s", header);
			n = hlen;
		}
		cr_expect(hlen == strlen(header) && memcmp(text, header, hlen) == 0,
			"%s: its header is not the other parts'", rel);
		all = realloc(all, n + (len - hlen) + 1);
		memcpy(all + n, body, len - hlen);
		n += len - hlen;
		all[n] = 0;
		free(text);
	}
	cr_assert_not_null(all, "results-index.json lists no part");
	free(header);
	json_decref(index);
	return all;
}
