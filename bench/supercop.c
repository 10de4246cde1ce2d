/* supercop.c — a SUPERCOP tree as part of the catalog: every crypto_hash/<primitive>/<implementation>
 * folder holding an api.h (nested paths too) is an implementation of the algorithm named after
 * its primitive, with what it calls of other operations and whether it can run on this machine. */
#define _GNU_SOURCE
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>
#include <openssl/evp.h>

#include "hbpackage.h"

#define S_OP "crypto_hash"
#define S_MAX_DEPTH 8

const char *hb_supercop_abi(void)
{
#if defined(__x86_64__)
	return "amd64";
#elif defined(__aarch64__)
	return "aarch64";
#elif defined(__i386__)
	return "x86";
#elif defined(__arm__)
	return "arm";
#else
	return "unknown";
#endif
}

/* A file that holds only a relative path to another file is a symbolic link checked out where
 * links are off (git's core.symlinks=false): the path of the file it stands for. */
char *hb_supercop_follow(const char *path)
{
	char *cur = hb_strdup(path);
	int hops;

	for (hops = 0; hops < 8; hops++) {
		hb_buf b;
		char *target, *slash, *dir;
		struct stat st;
		if (lstat(cur, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size == 0 ||
			st.st_size > 512 || hb_file_read_raw(&b, cur) != 0)
			break;
		if (memchr(b.data, '\n', b.len) || memchr(b.data, 0, b.len) || b.data[0] == '/' ||
			memchr(b.data, ' ', b.len) || !memchr(b.data, '/', b.len)) {
			hb_buf_free(&b);
			break;
		}
		slash = strrchr(cur, '/');
		dir = slash ? strndup(cur, (size_t)(slash - cur)) : hb_strdup(".");
		target = hb_sprintf("%s/%.*s", dir, (int)b.len, (const char *)b.data);
		free(dir);
		hb_buf_free(&b);
		if (!hb_is_file(target)) {
			free(target);
			break;
		}
		free(cur);
		cur = target;
	}
	return cur;
}

static int S_read(hb_buf *out, const char *path)
{
	char *real = hb_supercop_follow(path);
	int rc = hb_file_read_raw(out, real);
	free(real);
	return rc;
}

void hb_supercop_impl_free(hb_supercop_impl *sc)
{
	if (!sc)
		return;
	free(sc->tree);
	free(sc->version);
	free(sc->operation);
	free(sc->primitive);
	free(sc->path);
	free(sc->dir);
	free(sc->implementors);
	free(sc->language);
	hb_strv_free(sc->needs);
	hb_strv_free(sc->libs);
	free(sc->expected_small);
	free(sc->expected_big);
	free(sc->not_run);
	free(sc);
}

/* The first line of a small text file, trimmed; NULL when absent or empty. */
static char *S_first_line(const char *path)
{
	hb_buf b;
	char *s;
	size_t n;
	if (!hb_is_file(path) || S_read(&b, path) != 0)
		return NULL;
	for (n = 0; n < b.len && b.data[n] != '\n' && b.data[n] != '\r'; n++)
		;
	while (n > 0 && isspace(b.data[n - 1]))
		n--;
	s = n ? strndup((const char *)b.data, n) : NULL;
	hb_buf_free(&b);
	return s;
}

/* A whole small text file with its lines joined by "; ", NULL when absent or empty. */
static char *S_text(const char *path)
{
	hb_buf b;
	char *out, *p;
	size_t i;
	if (!hb_is_file(path) || S_read(&b, path) != 0)
		return NULL;
	out = p = malloc(2 * b.len + 1);
	for (i = 0; out && i < b.len; i++) {
		if (b.data[i] == '\r')
			continue;
		if (b.data[i] == '\n') {
			if (i + 1 < b.len && p > out)
				p = stpcpy(p, "; ");
			continue;
		}
		*p++ = (char)b.data[i];
	}
	hb_buf_free(&b);
	if (!out)
		return NULL;
	*p = 0;
	while (p > out && isspace((unsigned char)p[-1]))
		*--p = 0;
	if (!*out) {
		free(out);
		return NULL;
	}
	return out;
}

/* Every file below dir (links followed), relative names, sorted. */
static int S_files(hb_strlist *out, const char *dir, const char *rel, int depth)
{
	DIR *d;
	struct dirent *de;
	hb_strlist names = { 0 };
	size_t i;
	int rc = 0;

	if (depth > S_MAX_DEPTH)
		return 0;
	if (!(d = opendir(dir)))
		return hb_error_set("%s: %s", dir, strerror(errno));
	while ((de = readdir(d)) != NULL)
		if (strcmp(de->d_name, ".") != 0 && strcmp(de->d_name, "..") != 0 &&
			(rc = hb_strlist_add(&names, hb_strdup(de->d_name))) != 0)
			break;
	closedir(d);
	hb_strv_sort(names.v, names.n);
	for (i = 0; i < names.n && rc == 0; i++) {
		char *path = hb_path_join(dir, names.v[i]);
		char *r = rel ? hb_path_join(rel, names.v[i]) : hb_strdup(names.v[i]);
		if (hb_is_dir(path))
			rc = S_files(out, path, r, depth + 1);
		else if (hb_is_file(path))
			rc = hb_strlist_add(out, hb_strdup(r));
		free(path);
		free(r);
	}
	hb_strv_free(hb_strlist_take(&names));
	return rc;
}

static int S_has_suffix(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);
	return n >= m && strcmp(s + n - m, suffix) == 0;
}

static int S_is_source(const char *name)
{
	return S_has_suffix(name, ".c") || S_has_suffix(name, ".h") || S_has_suffix(name, ".s") ||
		S_has_suffix(name, ".S") || S_has_suffix(name, ".cc") || S_has_suffix(name, ".cpp") ||
		S_has_suffix(name, ".inc") || S_has_suffix(name, ".i");
}

/* need into needs, once. */
static void S_need(hb_strlist *needs, const char *need)
{
	size_t i;
	for (i = 0; i < needs->n; i++)
		if (strcmp(needs->v[i], need) == 0)
			return;
	hb_strlist_add(needs, hb_strdup(need));
}

/* What one include line asks for, when it matters here: another operation's primitive
 * ("crypto_hashblocks/sha256") into needs, or a reason it cannot be built on this machine. */
static void S_include(hb_strlist *needs, char **why, const char *name, int angle, int depth,
	const char *file, const char *self, const char *tree)
{
	char base[128];
	const char *slash = strchr(name, '/');
	size_t n = strcspn(name, ".");

	if (slash && strncmp(name, "libkeccak.a.headers/", 20) == 0) {
		char *k = hb_path_join(tree, "k"), *targets = hb_path_join(tree, "k-targets");
		if (hb_is_dir(k) && hb_is_file(targets))
			S_need(needs, "keccak"); /* built from the tree's k/ as do-part keccak builds it */
		else if (!*why)
			*why = hb_sprintf("needs SUPERCOP's libkeccak (XKCP), and this tree has no k/ and "
				"k-targets to build it from (%s includes %s)", file, name);
		free(k);
		free(targets);
		return;
	}
	if (slash && angle) {
		size_t k = (size_t)(slash - name);
		char *dir = hb_sprintf("/usr/include/%.*s", (int)k, name);
		char *own = hb_path_join(tree, "cryptopp");
		if (strncmp(name, "cryptopp/", 9) == 0 && hb_is_dir(own))
			S_need(needs, "cryptopp"); /* the tree's own, built as do-part cryptopp builds it */
		else if (!*why && strncmp(name, "cryptopp/", 9) == 0 && !hb_is_dir(dir))
			*why = hb_sprintf("needs Crypto++ (%s includes <%s>, not installed)", file, name);
		free(own);
		free(dir);
		return;
	}
	if (!*why && depth == 0 && S_has_suffix(file, ".c")) {
#if !defined(__arm__) && !defined(__aarch64__)
		if (strcmp(name, "arm_neon.h") == 0)
			*why = hb_sprintf("needs an ARM CPU with NEON (%s includes <arm_neon.h>)", file);
#endif
#if !defined(__x86_64__) && !defined(__i386__)
		if (strcmp(name, "immintrin.h") == 0 || strcmp(name, "emmintrin.h") == 0 ||
			strcmp(name, "x86intrin.h") == 0 || strcmp(name, "tmmintrin.h") == 0 ||
			strcmp(name, "smmintrin.h") == 0 || strcmp(name, "wmmintrin.h") == 0)
			*why = hb_sprintf("needs an x86 CPU (%s includes <%s>)", file, name);
#endif
	}
	if (slash || n >= sizeof(base) || strncmp(name, "crypto_", 7) != 0)
		return;
	memcpy(base, name, n);
	base[n] = 0;
	if (S_has_suffix(base, "_publicinputs"))
		base[strlen(base) - 13] = 0;
	if (strcmp(base, self) == 0 || strcmp(base, "crypto_asm_hidden") == 0)
		return;
	/* crypto_<operation>_<primitive>: two underscores at least, as do-part reads them */
	{
		char *u = strchr(base + 7, '_'), *need;
		if (!u || !u[1] || strncmp(base, "crypto_int", 10) == 0 ||
			strncmp(base, "crypto_uint", 11) == 0)
			return;
		need = hb_sprintf("%.*s/%s", (int)(u - base), base, u + 1);
		S_need(needs, need);
		free(need);
	}
}

/* Read a source's #include lines (as do-part reads them, with how deep in #if blocks each is). */
static void S_scan_source(hb_strlist *needs, char **why, const char *path, const char *file,
	const char *self, const char *tree)
{
	hb_buf b;
	char *line, *save = NULL;
	int depth = 0;

	if (S_read(&b, path) != 0)
		return;
	b.data = realloc(b.data, b.len + 1);
	if (!b.data)
		return;
	b.data[b.len] = 0;
	for (line = strtok_r((char *)b.data, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *p = line, *q;
		int angle;
		while (*p == ' ' || *p == '\t')
			p++;
		if (*p != '#')
			continue;
		for (p++; *p == ' ' || *p == '\t'; p++)
			;
		if (strncmp(p, "if", 2) == 0)
			depth++;
		else if (strncmp(p, "endif", 5) == 0 && depth > 0)
			depth--;
		if (strncmp(p, "include", 7) != 0)
			continue;
		for (p += 7; *p == ' ' || *p == '\t'; p++)
			;
		if (*p != '<' && *p != '"')
			continue;
		angle = *p == '<';
		q = strchr(p + 1, angle ? '>' : '"');
		if (!q)
			continue;
		*q = 0;
		S_include(needs, why, p + 1, angle, depth, file, self, tree);
	}
	hb_buf_free(&b);
}

/* The SHA-256 of an implementation's files: each name, a NUL, its bytes. */
static void S_sources_sha256(char out[65], const char *dir, char *const *files);

static int S_impl_dirs(hb_strlist *out, const char *dir, const char *rel, int depth);

int hb_supercop_sources_sha256(char out[65], const char *dir)
{
	hb_strlist files = { 0 };
	if (S_files(&files, dir, NULL, 0) != 0)
		return HB_ERROR;
	S_sources_sha256(out, dir, files.v ? files.v : (char *[]){ NULL });
	hb_strv_free(hb_strlist_take(&files));
	return 0;
}

int hb_supercop_impls(char ***out, const char *dir)
{
	hb_strlist l = { 0 };
	int rc = S_impl_dirs(&l, dir, NULL, 0);
	*out = hb_strlist_take(&l);
	return rc;
}

static void S_sources_sha256(char out[65], const char *dir, char *const *files)
{
	EVP_MD_CTX *ctx = EVP_MD_CTX_new();
	unsigned char md[32];
	unsigned int mdlen = 32;
	size_t i;

	EVP_DigestInit_ex(ctx, EVP_sha256(), NULL);
	for (i = 0; files[i]; i++) {
		char *path = hb_path_join(dir, files[i]);
		hb_buf b;
		EVP_DigestUpdate(ctx, files[i], strlen(files[i]) + 1);
		if (S_read(&b, path) == 0) {
			EVP_DigestUpdate(ctx, b.data, b.len);
			hb_buf_free(&b);
		}
		free(path);
	}
	EVP_DigestFinal_ex(ctx, md, &mdlen);
	EVP_MD_CTX_free(ctx);
	hb_hex(out, md, 32, 0);
}

/* CRYPTO_BYTES of api.h; 0 when it does not give a number. */
static int S_api_bytes(const char *api)
{
	hb_buf b;
	char *p;
	int bytes = 0;
	if (S_read(&b, api) != 0)
		return 0;
	b.data = realloc(b.data, b.len + 1);
	if (!b.data)
		return 0;
	b.data[b.len] = 0;
	if ((p = strstr((char *)b.data, "CRYPTO_BYTES")) != NULL) {
		p += 12;
		while (*p == ' ' || *p == '\t' || *p == '(')
			p++;
		bytes = atoi(p);
	}
	hb_buf_free(&b);
	return bytes > 0 && bytes <= 65536 ? bytes : 0;
}

/* Whether this machine can run the implementation at all (architectures, languages, what it
 * includes), and what it needs of other operations. */
static void S_judge(hb_supercop_impl *sc, char *const *files)
{
	hb_strlist needs = { 0 }, calls = { 0 }, libs = { 0 };
	char *why = NULL, *arch = hb_path_join(sc->dir, "architectures"), *self;
	size_t i;

	sc->language = hb_strdup("c");
	self = hb_sprintf("%s_%s", sc->operation, sc->primitive);
	for (i = 0; files[i]; i++) {
		char *path = hb_path_join(sc->dir, files[i]);
		if (strcmp(files[i], "Cargo.toml") == 0) {
			free(sc->language);
			sc->language = hb_strdup("rust");
		} else if ((S_has_suffix(files[i], ".cpp") || S_has_suffix(files[i], ".cc")) &&
			strcmp(sc->language, "c") == 0) {
			free(sc->language);
			sc->language = hb_strdup("cpp");
		}
		if (S_is_source(files[i]))
			S_scan_source(&needs, &why, path, files[i], self, sc->tree);
		free(path);
	}
	free(self);
	if (hb_is_file(arch)) {
		char *text = S_text(arch), *tok, *save = NULL, *copy = text ? hb_strdup(text) : NULL;
		int found = 0;
		for (tok = copy ? strtok_r(copy, " \t;", &save) : NULL; tok && !found;
			tok = strtok_r(NULL, " \t;", &save))
			found = strcmp(tok, hb_supercop_abi()) == 0;
		if (!found) {
			free(why);
			why = hb_sprintf("not for this machine (%s; its architectures file: %s)",
				hb_supercop_abi(), text ? text : "empty");
			sc->not_for_arch = 1;
		}
		free(copy);
		free(text);
	}
	if (!sc->not_for_arch && strcmp(sc->language, "rust") == 0) {
		/* built offline against Debian's packaged crates (supercop_rust.c), or why not */
		char *toml = hb_path_join(sc->dir, "Cargo.toml"), *unmet = NULL;
		if (!hb_on_path("cargo"))
			unmet = hb_strdup("cargo is not installed");
		else
			unmet = hb_cargo_unmet(toml, HB_CARGO_REGISTRY);
		if (unmet) {
			free(why);
			why = hb_sprintf("a Rust implementation (a Cargo project): %s", unmet);
		}
		free(unmet);
		free(toml);
	}
	for (i = 0; i < needs.n; i++) {
		char *dir = hb_path_join(sc->tree, needs.v[i]);
		if (!strchr(needs.v[i], '/')) /* one of SUPERCOP's own libraries: keccak, cryptopp */
			hb_strlist_add(&libs, hb_strdup(needs.v[i]));
		else if (!hb_is_dir(dir) && !why)
			why = hb_sprintf("needs %s, which this tree does not have", needs.v[i]);
		else
			hb_strlist_add(&calls, hb_strdup(needs.v[i]));
		free(dir);
	}
	hb_strv_free(hb_strlist_take(&needs));
	free(arch);
	sc->needs = hb_strlist_take(&calls);
	sc->libs = hb_strlist_take(&libs);
	sc->not_run = why;
}

/* The implementation name of a path below the primitive: '/' becomes '-', any other character
 * outside [A-Za-z0-9_-] '_'. */
static char *S_impl_name(const char *rel)
{
	char *s = hb_strdup(rel), *p;
	for (p = s; *p; p++)
		if (*p == '/')
			*p = '-';
		else if (!isalnum((unsigned char)*p) && *p != '_' && *p != '-')
			*p = '_';
	return s;
}

/* Every folder below dir holding an api.h (links followed), relative paths, sorted. */
static int S_impl_dirs(hb_strlist *out, const char *dir, const char *rel, int depth)
{
	hb_strlist all = { 0 };
	size_t i;
	int rc;
	(void)depth;
	if ((rc = S_files(&all, dir, rel, 0)) != 0)
		return rc;
	for (i = 0; i < all.n && rc == 0; i++) {
		const char *slash = strrchr(all.v[i], '/');
		if (slash && strcmp(slash + 1, "api.h") == 0)
			rc = hb_strlist_add(out, strndup(all.v[i], (size_t)(slash - all.v[i])));
	}
	hb_strv_free(hb_strlist_take(&all));
	return rc;
}

static int S_load_impl(hb_algorithm *alg, const char *tree, const char *version,
	const char *primitive, const char *rel, hb_strlist *warnings)
{
	hb_supercop_impl *sc = calloc(1, sizeof(*sc));
	hb_instance *inst = &alg->instances[alg->ninstances];
	hb_strlist files = { 0 };
	char *pdir = hb_sprintf("%s/%s/%s", tree, S_OP, primitive), *api;
	size_t k;
	int bytes;

	if (!sc)
		return hb_error_set("out of memory");
	sc->tree = hb_strdup(tree);
	sc->version = version ? hb_strdup(version) : NULL;
	sc->operation = hb_strdup(S_OP);
	sc->primitive = hb_strdup(primitive);
	sc->path = hb_sprintf("%s/%s/%s", S_OP, primitive, rel);
	sc->dir = hb_path_join(pdir, rel);
	{
		char *p = hb_path_join(sc->dir, "implementors");
		sc->implementors = S_text(p);
		free(p);
		p = hb_path_join(pdir, "checksumsmall");
		sc->expected_small = S_first_line(p);
		free(p);
		p = hb_path_join(pdir, "checksumbig");
		sc->expected_big = S_first_line(p);
		free(p);
	}
	free(pdir);
	if (S_files(&files, sc->dir, NULL, 0) != 0) {
		hb_strlist_add(warnings, hb_sprintf("%s: %s", sc->path, hb_error_last()));
		hb_supercop_impl_free(sc);
		return 0;
	}
	S_sources_sha256(sc->sources_sha256, sc->dir, files.v);
	S_judge(sc, files.v);
	hb_strv_free(hb_strlist_take(&files));
	api = hb_path_join(sc->dir, "api.h");
	bytes = S_api_bytes(api);
	free(api);
	if (!bytes && !sc->not_run)
		sc->not_run = hb_strdup("its api.h gives no CRYPTO_BYTES number");
	memset(inst, 0, sizeof(*inst));
	inst->name = hb_strdup(primitive);
	inst->impl = S_impl_name(rel);
	for (k = 0; k < alg->ninstances; k++)
		if (strcmp(alg->instances[k].impl, inst->impl) == 0) {
			hb_strlist_add(warnings, hb_sprintf("%s: its name %s is taken by %s; left out",
				sc->path, inst->impl, alg->instances[k].supercop->path));
			free(inst->name);
			free(inst->impl);
			memset(inst, 0, sizeof(*inst));
			hb_supercop_impl_free(sc);
			return 0;
		}
	inst->version_folder = hb_strdup(rel);
	inst->digest_bits = bytes ? 8 * bytes : 256;
	inst->dir = hb_strdup(sc->dir);
	inst->sources = calloc(1, sizeof(char *));
	inst->include_dirs = calloc(1, sizeof(char *));
	inst->extra_cflags = calloc(1, sizeof(char *));
	inst->profile = hb_strdup("supercop");
	inst->kat_byte_aligned = 1;
	inst->supercop = sc;
	alg->ninstances++;
	return 0;
}

/* key: the text of the file of that name in dir, or null. */
static void S_set_text(json_t *obj, const char *key, const char *dir)
{
	char *p = hb_path_join(dir, key), *t = S_text(p);
	json_object_set_new(obj, key, hb_json_str_or_null(t));
	free(t);
	free(p);
}

/* The catalog entry of a primitive, as the campaign copies it to algorithms/<id>.json. */
static char *S_catalog_text(const hb_algorithm *alg, const char *tree, const char *version)
{
	char *pdir = hb_sprintf("%s/%s/%s", tree, S_OP, alg->id), *p, *text;
	json_t *sc = json_object(), *notrun = json_array(), *j;
	size_t k;

	S_set_text(sc, "designers", pdir);
	S_set_text(sc, "description", pdir);
	json_object_set_new(sc, "version", hb_json_str_or_null(version));
	json_object_set_new(sc, "operation", json_string(S_OP));
	json_object_set_new(sc, "primitive", json_string(alg->id));
	for (k = 0; k < alg->ninstances; k++) {
		const hb_supercop_impl *s = alg->instances[k].supercop;
		if (s->not_run)
			json_array_append_new(notrun, json_pack("{s:s, s:s, s:s, s:b}", "implementation",
				alg->instances[k].impl, "path", s->path, "reason", s->not_run,
				"architecture", s->not_for_arch));
	}
	json_object_set_new(sc, "not_run", notrun);
	p = hb_sprintf("SUPERCOP %s: %s/%s", version ? version : "(no version)", S_OP, alg->id);
	j = json_pack("{s:s, s:s, s:s, s:s, s:[s], s:{s:{s:s, s:s}}, s:o}", "id", alg->id,
		"name", alg->id, "category", "SUPERCOP crypto_hash primitive", "function", "hash",
		"parameter_sets", alg->id, "links", "submission", "label", p,
		"href", "https://bench.cr.yp.to/primitives-hash.html", "supercop", sc);
	free(p);
	text = json_dumps(j, JSON_INDENT(2) | JSON_SORT_KEYS);
	json_decref(j);
	free(pdir);
	return text;
}

static void S_instance_free(hb_instance *inst)
{
	free(inst->name);
	free(inst->impl);
	free(inst->version_folder);
	free(inst->dir);
	free(inst->profile);
	free(inst->sources);
	free(inst->include_dirs);
	free(inst->extra_cflags);
	hb_supercop_impl_free(inst->supercop);
}

void hb_supercop_algorithm_free(hb_algorithm *alg)
{
	size_t i;
	for (i = 0; i < alg->ninstances; i++)
		S_instance_free(&alg->instances[i]);
	free(alg->instances);
	free(alg->id);
	free(alg->name);
	free(alg->dir);
	free(alg->json_path);
	free(alg->json_text);
	free(alg);
}

static int S_load_primitive(hb_algorithm ***algs, size_t *nalgs, const char *tree,
	const char *version, const char *primitive, hb_strlist *warnings)
{
	char *pdir = hb_sprintf("%s/%s/%s", tree, S_OP, primitive);
	hb_strlist impls = { 0 };
	hb_algorithm *alg = calloc(1, sizeof(*alg));
	size_t i;
	int rc;

	if (!alg) {
		free(pdir);
		return hb_error_set("out of memory");
	}
	rc = S_impl_dirs(&impls, pdir, NULL, 0);
	if (rc == 0 && impls.n == 0) { /* a primitive's shared files only (jh224 in a subset) */
		free(pdir);
		free(alg);
		hb_strv_free(hb_strlist_take(&impls));
		return 0;
	}
	alg->id = hb_strdup(primitive);
	alg->name = hb_strdup(primitive);
	alg->dir = pdir;
	alg->json_path = hb_path_join(pdir, "(SUPERCOP primitive)");
	alg->instances = calloc(impls.n + 1, sizeof(hb_instance));
	if (!alg->instances)
		rc = hb_error_set("out of memory");
	for (i = 0; rc == 0 && i < impls.n; i++)
		rc = S_load_impl(alg, tree, version, primitive, impls.v[i], warnings);
	hb_strv_free(hb_strlist_take(&impls));
	if (rc == 0) {
		hb_algorithm **g = realloc(*algs, (*nalgs + 1) * sizeof(*g));
		alg->json_text = S_catalog_text(alg, tree, version);
		if (!g) {
			hb_supercop_algorithm_free(alg);
			return hb_error_set("out of memory");
		}
		*algs = g;
		g[(*nalgs)++] = alg;
	} else {
		hb_supercop_algorithm_free(alg);
	}
	return rc;
}

int hb_supercop_load(hb_algorithm ***out, size_t *nout, char ***warnings_io, const char *tree_arg)
{
	char *tree = realpath(tree_arg, NULL), *opdir, *version, *vpath;
	hb_strlist prims = { 0 }, warnings = hb_strlist_of(*warnings_io);
	DIR *d;
	struct dirent *de;
	size_t i;
	int rc = 0;

	*out = NULL;
	*nout = 0;
	*warnings_io = NULL;
	if (!tree || !hb_is_dir(tree)) {
		free(tree);
		*warnings_io = warnings.v;
		return hb_error_set("--supercop %s: no such folder", tree_arg);
	}
	opdir = hb_path_join(tree, S_OP);
	vpath = hb_path_join(tree, "version");
	version = S_first_line(vpath);
	free(vpath);
	if (!(d = opendir(opdir))) {
		rc = hb_error_set("--supercop %s: no %s folder in it (is it a SUPERCOP tree?)",
			tree_arg, S_OP);
		goto out;
	}
	while ((de = readdir(d)) != NULL) {
		char *p;
		if (de->d_name[0] == '.')
			continue;
		p = hb_path_join(opdir, de->d_name);
		if (hb_is_dir(p))
			hb_strlist_add(&prims, hb_strdup(de->d_name));
		free(p);
	}
	closedir(d);
	hb_strv_sort(prims.v, prims.n);
	for (i = 0; i < prims.n && rc == 0; i++)
		rc = S_load_primitive(out, nout, tree, version, prims.v[i], &warnings);
out:
	*warnings_io = warnings.v ? warnings.v : calloc(1, sizeof(char *));
	hb_strv_free(hb_strlist_take(&prims));
	free(version);
	free(opdir);
	free(tree);
	return rc;
}

int hb_supercop_for_this_abi(const char *dir)
{
	char *arch = hb_path_join(dir, "architectures"), *text, *tok, *save = NULL;
	int found = 0;
	if (!hb_is_file(arch)) {
		free(arch);
		return 1;
	}
	text = S_text(arch);
	for (tok = text ? strtok_r(text, " \t;", &save) : NULL; tok && !found;
		tok = strtok_r(NULL, " \t;", &save))
		found = strcmp(tok, hb_supercop_abi()) == 0;
	free(text);
	free(arch);
	return found;
}
