/* submission.c — discovery in an NGCC package: instances (the header defining ALGORITHM_INSTANCE),
 * implementation versions, library sources, build overrides and KAT files, and the KAT sets' names. */
#define _GNU_SOURCE
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <jansson.h>

#include "hbpackage.h"

static const char *S_base(const char *path)
{
	const char *s = strrchr(path, '/');
	return s ? s + 1 : path;
}

/* ---- the instance header and folder ---- */

int hb_header_read(char **out_name, int *out_digest_bits, const char *path)
{
	hb_buf buf;
	int rc;

	*out_name = NULL;
	*out_digest_bits = 0;
	if (hb_file_read(&buf, path) != 0)
		return HB_ERROR;
	rc = hb_header_scan(out_name, out_digest_bits, (char *)buf.data, buf.len, path);
	hb_buf_free(&buf);
	return rc;
}

/* "Reference_Implementation" → "reference"; folders between it and the instance folder are
 * appended ("optimized-avx2") so two builds of one instance stay apart. */
char *hb_impl_from_path(char **out_version_folder, const char *instance_dir)
{
	char *copy = hb_strdup(instance_dir), *parts[64], *tok, *save = NULL, *impl = NULL;
	int n = 0, i, v = -1;

	*out_version_folder = NULL;
	for (tok = strtok_r(copy, "/", &save); tok && n < 64; tok = strtok_r(NULL, "/", &save))
		parts[n++] = tok;
	for (i = n - 1; i >= 0; i--) {
		size_t len = strlen(parts[i]);
		if (len > 15 && strcasecmp(parts[i] + len - 15, "_Implementation") == 0) {
			v = i;
			break;
		}
	}
	if (v < 0) {
		free(copy);
		return hb_strdup("reference");
	}
	*out_version_folder = hb_strdup(parts[v]);
	impl = strndup(parts[v], strlen(parts[v]) - 15);
	for (i = v + 1; i < n - 1; i++) {
		char *longer = hb_sprintf("%s-%s", impl, parts[i]);
		free(impl);
		impl = longer;
	}
	for (tok = impl; tok && *tok; tok++)
		*tok = (char)tolower((unsigned char)*tok);
	free(copy);
	return impl;
}

static int S_is_c_file(const char *path)
{
	size_t n = strlen(path);
	return n > 2 && strcmp(path + n - 2, ".c") == 0;
}

/* The ICCS files that packages carry inside instance folders: the DRNG and the KAT generator
 * (its reformatted copies too, with or without their main). */
static int S_is_iccs_tool(const char *base)
{
	return strcasecmp(base, "drng.c") == 0 ||
		(strncasecmp(base, "KAT_CryptHash", 13) == 0 && S_is_c_file(base));
}

/* Record the "x.c" of every `#include "x.c"` directive of a file: found in code (comments
 * blanked, so a commented-out include does not count), the name read from text. */
static int S_add_included(hb_strlist *included, const char *text, const char *code)
{
	const char *p = code;
	while ((p = strchr(p, '#')) != NULL) {
		const char *line = p, *q = p + 1, *e;
		while (line > code && (line[-1] == ' ' || line[-1] == '\t'))
			line--;
		p++;
		if (line > code && line[-1] != '\n')
			continue;
		while (*q == ' ' || *q == '\t')
			q++;
		if (strncmp(q, "include", 7) != 0)
			continue;
		q += 7;
		while (*q == ' ' || *q == '\t')
			q++;
		if (*q != '"')
			continue;
		q = text + (q - code) + 1;
		e = strchr(q, '"');
		if (e && e - q > 2 && strncmp(e - 2, ".c", 2) == 0 &&
			memchr(q, '\n', (size_t)(e - q)) == NULL)
			if (hb_strlist_add(included, strndup(q, (size_t)(e - q))) != 0)
				return HB_ERROR;
	}
	return 0;
}

int hb_sources_discover(hb_strlist *out, const char *dir)
{
	hb_strlist files = { 0 }, included = { 0 }, candidates = { 0 };
	DIR *d = opendir(dir);
	struct dirent *de;
	size_t i, j;
	int rc = 0;

	if (!d)
		return hb_error_set("%s: %s", dir, strerror(errno));
	while ((de = readdir(d)) != NULL) {
		size_t n = strlen(de->d_name);
		if (de->d_name[0] == '.' || n < 3)
			continue;
		if (strcmp(de->d_name + n - 2, ".c") == 0 || strcmp(de->d_name + n - 2, ".h") == 0)
			if ((rc = hb_strlist_add(&files, hb_path_join(dir, de->d_name))) != 0)
				break;
	}
	closedir(d);
	hb_strv_sort(files.v, files.n);
	/* candidates are the C files that are neither programs nor ICCS tools; only they and the
	 * headers can make a file "included" (a test program including the instance's .c does not) */
	for (i = 0; i < files.n && rc == 0; i++) {
		const char *base = S_base(files.v[i]);
		int is_c = S_is_c_file(files.v[i]);
		hb_buf buf;
		char *code;

		if (is_c && S_is_iccs_tool(base))
			continue;
		if ((rc = hb_file_read(&buf, files.v[i])) != 0)
			break;
		code = hb_code_only((char *)buf.data, buf.len);
		if (!code)
			rc = hb_error_set("out of memory");
		else if (!is_c || !hb_defines_main(code)) {
			rc = S_add_included(&included, (char *)buf.data, code);
			if (rc == 0 && is_c)
				rc = hb_strlist_add(&candidates, hb_strdup(files.v[i]));
		}
		free(code);
		hb_buf_free(&buf);
	}
	for (i = 0; i < candidates.n && rc == 0; i++) {
		int skip = 0;
		for (j = 0; j < included.n && !skip; j++)
			skip = strcmp(S_base(included.v[j]), S_base(candidates.v[i])) == 0;
		if (!skip)
			rc = hb_strlist_add(out, hb_strdup(candidates.v[i]));
	}
	hb_strv_free(hb_strlist_take(&files));
	hb_strv_free(hb_strlist_take(&included));
	hb_strv_free(hb_strlist_take(&candidates));
	return rc;
}

/* ---- algorithm.json ---- */

static int S_json_strings(hb_strlist *out, json_t *arr, const char *base_dir, const char *json_path,
	const char *field)
{
	size_t i;
	json_t *v;
	if (!json_is_array(arr))
		return hb_error_set("%s: %s: expected an array of strings", json_path, field);
	json_array_foreach(arr, i, v) {
		if (!json_is_string(v))
			return hb_error_set("%s: %s[%zu]: expected a string", json_path, field, i);
		if (hb_strlist_add(out, base_dir ? hb_path_join(base_dir, json_string_value(v)) :
				hb_strdup(json_string_value(v))) != 0)
			return HB_ERROR;
	}
	return 0;
}

static int S_apply_override(hb_instance *inst, hb_strlist *sources, hb_strlist *incs,
	hb_strlist *flags, hb_strlist *ldflags, json_t *ov, const hb_algorithm *alg, const char *key)
{
	static const char *known[] = { "sources", "extra_sources", "exclude", "include_dirs",
		"cflags", "ldflags", "profile", "kat_scope", NULL };
	const char *k;
	json_t *v;
	char field[256];
	size_t i;

	if (!json_is_object(ov))
		return hb_error_set("%s: build.%s: expected an object", alg->json_path, key);
	json_object_foreach(ov, k, v) {
		for (i = 0; known[i] && strcmp(known[i], k) != 0; i++)
			;
		if (!known[i])
			return hb_error_set("%s: build.%s.%s: unknown field (known: sources, "
				"extra_sources, exclude, include_dirs, cflags, ldflags, profile, kat_scope)",
				alg->json_path, key, k);
	}
	if ((v = json_object_get(ov, "sources")) != NULL) {
		hb_strv_free(hb_strlist_take(sources));
		snprintf(field, sizeof(field), "build.%s.sources", key);
		if (S_json_strings(sources, v, alg->dir, alg->json_path, field) != 0)
			return HB_ERROR;
	}
	if ((v = json_object_get(ov, "extra_sources")) != NULL) {
		snprintf(field, sizeof(field), "build.%s.extra_sources", key);
		if (S_json_strings(sources, v, alg->dir, alg->json_path, field) != 0)
			return HB_ERROR;
	}
	if ((v = json_object_get(ov, "exclude")) != NULL) {
		hb_strlist ex = { 0 };
		size_t j, w;
		snprintf(field, sizeof(field), "build.%s.exclude", key);
		if (S_json_strings(&ex, v, NULL, alg->json_path, field) != 0) {
			hb_strv_free(hb_strlist_take(&ex));
			return HB_ERROR;
		}
		for (i = 0, w = 0; i < sources->n; i++) {
			int drop = 0;
			for (j = 0; j < ex.n; j++)
				if (strcmp(S_base(sources->v[i]), ex.v[j]) == 0)
					drop = 1;
			if (drop)
				free(sources->v[i]);
			else
				sources->v[w++] = sources->v[i];
		}
		sources->n = w;
		if (sources->v)
			sources->v[w] = NULL;
		hb_strv_free(hb_strlist_take(&ex));
	}
	if ((v = json_object_get(ov, "include_dirs")) != NULL) {
		snprintf(field, sizeof(field), "build.%s.include_dirs", key);
		if (S_json_strings(incs, v, alg->dir, alg->json_path, field) != 0)
			return HB_ERROR;
	}
	if ((v = json_object_get(ov, "cflags")) != NULL) {
		snprintf(field, sizeof(field), "build.%s.cflags", key);
		if (S_json_strings(flags, v, NULL, alg->json_path, field) != 0)
			return HB_ERROR;
	}
	if ((v = json_object_get(ov, "ldflags")) != NULL) {
		snprintf(field, sizeof(field), "build.%s.ldflags", key);
		if (S_json_strings(ldflags, v, NULL, alg->json_path, field) != 0)
			return HB_ERROR;
	}
	if ((v = json_object_get(ov, "kat_scope")) != NULL) {
		if (!json_is_string(v) || (strcmp(json_string_value(v), "byte-aligned") &&
				strcmp(json_string_value(v), "all")))
			return hb_error_set("%s: build.%s.kat_scope: expected \"all\" or \"byte-aligned\"",
				alg->json_path, key);
		inst->kat_byte_aligned = strcmp(json_string_value(v), "byte-aligned") == 0;
	}
	if ((v = json_object_get(ov, "profile")) != NULL) {
		if (!json_is_string(v))
			return hb_error_set("%s: build.%s.profile: expected a string", alg->json_path, key);
		free(inst->profile);
		inst->profile = hb_strdup(json_string_value(v));
	}
	return 0;
}

int hb_instance_configure(hb_instance *inst, const hb_algorithm *alg, json_t *build,
	const hb_instance *base)
{
	hb_strlist sources = { 0 }, incs = { 0 }, flags = { 0 }, ldflags = { 0 };
	char *keys[4];
	int i, rc = 0;

	/* from the most general to the most precise: "*", "*:IMPL", "NAME", "NAME:IMPL"; an
	 * instance made from a discovered one has that one's general overrides already */
	keys[0] = hb_strdup("*");
	keys[1] = hb_sprintf("*:%s", inst->impl);
	keys[2] = hb_strdup(inst->name);
	keys[3] = hb_sprintf("%s:%s", inst->name, inst->impl);
	if (inst->sources)
		sources = hb_strlist_of(inst->sources);
	else if (base)
		sources = hb_strlist_of(hb_strv_dup(base->sources));
	else
		rc = hb_sources_discover(&sources, inst->dir);
	inst->sources = NULL;
	if (base) {
		incs = hb_strlist_of(hb_strv_dup(base->include_dirs));
		flags = hb_strlist_of(hb_strv_dup(base->extra_cflags));
		ldflags = hb_strlist_of(hb_strv_dup(base->ldflags));
		inst->kat_byte_aligned = base->kat_byte_aligned;
		free(inst->profile);
		inst->profile = hb_strdup(base->profile);
		if (!incs.v || !flags.v || !ldflags.v || !sources.v || !inst->profile)
			rc = hb_error_set("out of memory");
	} else if (rc == 0) {
		rc = hb_strlist_add(&incs, hb_strdup(inst->dir));
	}
	for (i = base ? 2 : 0; i < 4 && rc == 0; i++) {
		json_t *ov = build ? json_object_get(build, keys[i]) : NULL;
		if (ov)
			rc = S_apply_override(inst, &sources, &incs, &flags, &ldflags, ov, alg, keys[i]);
	}
	for (i = 0; i < 4; i++)
		free(keys[i]);
	if (rc == 0 && sources.n == 0)
		rc = hb_error_set("%s: no C sources for %s (set build.%s.sources in %s)",
			inst->dir, inst->name, inst->name, alg->json_path);
	inst->sources = hb_strlist_take(&sources);
	inst->include_dirs = hb_strlist_take(&incs);
	inst->extra_cflags = hb_strlist_take(&flags);
	inst->ldflags = hb_strlist_take(&ldflags);
	if (!inst->defines)
		inst->defines = calloc(1, sizeof(char *));
	if (!inst->rewrites)
		inst->rewrites = calloc(1, sizeof(char *));
	if (!inst->define_flags)
		inst->define_flags = calloc(1, sizeof(char *));
	if (rc == 0 && (!inst->sources || !inst->include_dirs || !inst->extra_cflags ||
			!inst->ldflags || !inst->defines || !inst->rewrites || !inst->define_flags))
		rc = hb_error_set("out of memory");
	return rc;
}

char *hb_kat_manifest_find(char *text, const char *want)
{
	char *line, *save = NULL;
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		/* sha256sum format: 64 hex digits, a space, ' ' or '*' (binary), the name */
		char hex[65], *name = line + 64;
		size_t end;
		if (strspn(line, "0123456789abcdefABCDEF") != 64 || *name != ' ')
			continue;
		name += (name[1] == ' ' || name[1] == '*') ? 2 : 1;
		end = strlen(name);
		while (end > 0 && (name[end - 1] == '\r' || name[end - 1] == ' '))
			name[--end] = 0;
		memcpy(hex, line, 64);
		hex[64] = 0;
		if (strcmp(S_base(name), want) == 0)
			return hb_strdup(hex);
	}
	return NULL;
}

/* Submitted KAT files: KAT_<set>_<instance>.txt[.gz] anywhere in the package, the copy
 * nearest to the instance folder first; kat.sha256 lines for the sets without a file. */
void hb_instance_find_kat(hb_instance *inst, char **files)
{
	size_t i;
	int s;
	for (s = 0; s < HB_KAT_NSETS; s++) {
		char *want = hb_sprintf("KAT_%s_%s.txt", hb_kat_set_name(s), inst->name);
		char *want_gz = hb_sprintf("%s.gz", want);
		size_t best_score = 0;
		for (i = 0; files[i]; i++) {
			const char *base = S_base(files[i]);
			size_t score;
			if (strcmp(base, want) != 0 && strcmp(base, want_gz) != 0)
				continue;
			score = strncmp(files[i], inst->dir, strlen(inst->dir)) == 0 ? 3 : 1;
			if (score > best_score) {
				free(inst->kat_files[s]);
				inst->kat_files[s] = hb_strdup(files[i]);
				best_score = score;
			}
		}
		for (i = 0; files[i] && !inst->kat_files[s] && !inst->kat_manifest[s]; i++) {
			hb_buf buf;
			if (strcmp(S_base(files[i]), "kat.sha256") != 0 || hb_file_read(&buf, files[i]) != 0)
				continue;
			inst->kat_manifest[s] = hb_kat_manifest_find((char *)buf.data, want);
			if (inst->kat_manifest[s])
				inst->kat_manifest_file[s] = hb_strdup(files[i]);
			hb_buf_free(&buf);
		}
		free(want);
		free(want_gz);
	}
}

void hb_instance_clear(hb_instance *inst)
{
	int s;
	free(inst->name);
	free(inst->impl);
	free(inst->version_folder);
	free(inst->dir);
	free(inst->header);
	free(inst->profile);
	hb_strv_free(inst->sources);
	hb_strv_free(inst->include_dirs);
	hb_strv_free(inst->extra_cflags);
	hb_strv_free(inst->ldflags);
	hb_strv_free(inst->defines);
	hb_strv_free(inst->rewrites);
	hb_strv_free(inst->define_flags);
	for (s = 0; s < HB_KAT_NSETS; s++) {
		free(inst->kat_files[s]);
		free(inst->kat_manifest[s]);
		free(inst->kat_manifest_file[s]);
	}
}

/* ---- names ---- */

const char *hb_kat_set_name(hb_kat_set set)
{
	static const char *names[] = { "2_12", "2_23", "2_33", "Loop" };
	return set < HB_KAT_NSETS ? names[set] : "?";
}

int hb_kat_sets_parse(unsigned *out_mask, const char *list)
{
	char *copy = hb_strdup(list), *tok, *save = NULL;
	unsigned mask = 0;
	int set;

	if (!copy)
		return hb_error_set("out of memory");
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		for (set = 0; set < HB_KAT_NSETS; set++)
			if (strcasecmp(tok, hb_kat_set_name(set)) == 0)
				break;
		if (set == HB_KAT_NSETS) {
			hb_error_set("--sets: unknown KAT set '%s' (known: 2_12, 2_23, 2_33, loop)", tok);
			free(copy);
			return HB_ERROR;
		}
		mask |= 1u << set;
	}
	free(copy);
	if (!mask)
		return hb_error_set("--sets: empty list");
	*out_mask = mask;
	return 0;
}

char *hb_instance_stem(const hb_instance *inst)
{
	if (strcmp(inst->impl, "reference") == 0)
		return hb_strdup(inst->name);
	return hb_sprintf("%s.%s", inst->name, inst->impl);
}
