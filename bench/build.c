/* build.c — compile one (instance, implementation) into its own shared library with the flags of
 * the guide's profile for this architecture; libraries are cached by a hash of their inputs. */
#define _GNU_SOURCE
#include <ctype.h>
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <openssl/evp.h>

#include "hbbuild.h"


#define COMPILE_TIME_LIMIT 300

const char *hb_arch(void)
{
	static char machine[65];
	struct utsname u;
	if (!machine[0] && uname(&u) == 0)
		snprintf(machine, sizeof(machine), "%s", u.machine);
	return machine;
}

static char *S_trim(char *s)
{
	char *e;
	while (isspace((unsigned char)*s))
		s++;
	e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = 0;
	return s;
}

/* Value of key in [section] of the profiles file; NULL when absent. */
static int S_profile_get(char **out, const char *text, const char *path, const char *section,
	const char *key)
{
	char *copy = hb_strdup(text), *line, *save = NULL;
	int lineno = 0, in = 0;

	*out = NULL;
	for (line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *l = S_trim(line), *eq;
		lineno++;
		if (!*l || *l == '#' || *l == ';')
			continue;
		if (*l == '[') {
			char *end = strchr(l, ']');
			if (!end) {
				/* the message quotes the line: set it before the copy goes */
				hb_error_set("%s: section header without ']': %s", path, l);
				free(copy);
				return HB_ERROR;
			}
			*end = 0;
			in = strcmp(S_trim(l + 1), section) == 0;
			continue;
		}
		eq = strchr(l, '=');
		if (!eq) {
			hb_error_set("%s: expected 'key = value', got: %s", path, l);
			free(copy);
			return HB_ERROR;
		}
		*eq = 0;
		if (in && strcmp(S_trim(l), key) == 0) {
			*out = hb_strdup(S_trim(eq + 1));
			break;
		}
	}
	free(copy);
	return 0;
}

/* The profile for an implementation: its own name, then the part before '-', then fallback. */
static int S_choose_profile(char **out_name, char **out_flags, const char *text,
	const char *path, const char *arch, const char *wanted)
{
	char *name = hb_strdup(wanted), *dash;
	int rc;

	*out_flags = NULL;
	*out_name = NULL;
	for (;;) {
		if ((rc = S_profile_get(out_flags, text, path, arch, name)) != 0)
			break;
		if (*out_flags)
			break;
		dash = strrchr(name, '-');
		if (dash) {
			*dash = 0;
			continue;
		}
		free(name);
		if ((rc = S_profile_get(&name, text, path, arch, "fallback")) != 0 || !name) {
			if (rc == 0)
				rc = hb_error_set("%s: [%s] has no profile '%s' and no fallback", path, arch,
					wanted);
			name = NULL;
			break;
		}
		if ((rc = S_profile_get(out_flags, text, path, arch, name)) != 0)
			break;
		if (!*out_flags)
			rc = hb_error_set("%s: [%s]: fallback profile '%s' is not defined", path, arch, name);
		break;
	}
	if (rc != 0) {
		free(name);
		free(*out_flags);
		*out_flags = NULL;
		return rc;
	}
	*out_name = name;
	return 0;
}

static int S_split_flags(char ***argv, size_t *argc, const char *flags)
{
	char *copy = hb_strdup(flags), *tok, *save = NULL;
	for (tok = strtok_r(copy, " \t", &save); tok; tok = strtok_r(NULL, " \t", &save)) {
		char **g = realloc(*argv, (*argc + 2) * sizeof(char *));
		if (!g) {
			free(copy);
			return hb_error_set("out of memory");
		}
		*argv = g;
		(*argv)[(*argc)++] = hb_strdup(tok);
		(*argv)[*argc] = NULL;
	}
	free(copy);
	return 0;
}

static int S_push(char ***argv, size_t *argc, char *s)
{
	char **g = realloc(*argv, (*argc + 2) * sizeof(char *));
	if (!g || !s) {
		free(s);
		return hb_error_set("out of memory");
	}
	*argv = g;
	(*argv)[(*argc)++] = s;
	(*argv)[*argc] = NULL;
	return 0;
}

static char *S_quote_join(char **argv)
{
	size_t i, len = 1;
	char *out, *p;
	for (i = 0; argv[i]; i++)
		len += 3 + 4 * strlen(argv[i]);
	out = p = malloc(len);
	if (!out)
		return NULL;
	for (i = 0; argv[i]; i++) {
		const char *a = argv[i];
		int plain = *a != 0 && strspn(a, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
			"0123456789-_=+./:,@%") == strlen(a);
		if (i)
			*p++ = ' ';
		if (plain) {
			p = stpcpy(p, a);
			continue;
		}
		*p++ = '\'';
		for (; *a; a++) {
			if (*a == '\'')
				p = stpcpy(p, "'\\''");
			else
				*p++ = *a;
		}
		*p++ = '\'';
	}
	*p = 0;
	return out;
}

/* Inputs of the build: the command and the content of every C and header file it can see. */
static void S_hash_dir_headers(EVP_MD_CTX *ctx, const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	char **names = NULL;
	size_t n = 0, i;
	if (!d)
		return;
	while ((de = readdir(d)) != NULL) {
		size_t l = strlen(de->d_name);
		if (l > 2 && (strcmp(de->d_name + l - 2, ".h") == 0 || strcmp(de->d_name + l - 2, ".c") == 0)) {
			char **g = realloc(names, (n + 1) * sizeof(*g));
			if (!g)
				break;
			names = g;
			names[n++] = hb_path_join(dir, de->d_name);
		}
	}
	closedir(d);
	for (i = 0; i < n; i++) {
		size_t j;
		for (j = i + 1; j < n; j++)
			if (strcmp(names[j], names[i]) < 0) {
				char *t = names[i];
				names[i] = names[j];
				names[j] = t;
			}
	}
	for (i = 0; i < n; i++) {
		hb_buf buf;
		if (hb_file_read(&buf, names[i]) == 0) {
			EVP_DigestUpdate(ctx, names[i], strlen(names[i]) + 1);
			EVP_DigestUpdate(ctx, buf.data, buf.len);
			hb_buf_free(&buf);
		}
		free(names[i]);
	}
	free(names);
}

int hb_profiles_resolve(char **out_cc, char **out_profile, char **out_cflags, const char *text,
	const char *path, const char *arch, const char *wanted)
{
	char *cc = NULL, *profile = NULL, *cflags = NULL, *pic = NULL;
	int rc = HB_ERROR;

	*out_cc = *out_profile = *out_cflags = NULL;
	if (S_choose_profile(&profile, &cflags, text, path, arch, wanted) != 0)
		goto out;
	if (S_profile_get(&cc, text, path, arch, "cc") != 0 ||
		S_profile_get(&pic, text, path, arch, "pic") != 0)
		goto out;
	if (!cc) {
		hb_error_set("%s: no section [%s] with a 'cc' line for this machine", path, arch);
		goto out;
	}
	if (pic && *pic) {
		char *both = hb_sprintf("%s %s", cflags, pic);
		free(cflags);
		cflags = both;
	}
	*out_cc = cc;
	*out_profile = profile;
	*out_cflags = cflags;
	cc = profile = cflags = NULL;
	rc = 0;
out:
	free(cc);
	free(profile);
	free(cflags);
	free(pic);
	return rc;
}

char *hb_profiles_cc(const char *profiles_path)
{
	hb_buf conf;
	char *cc = NULL;
	if (!profiles_path)
		profiles_path = hb_own_path(HB_OWN_PROFILES);
	if (hb_file_read(&conf, profiles_path) != 0)
		return NULL;
	if (S_profile_get(&cc, (char *)conf.data, profiles_path, hb_arch(), "cc") != 0)
		cc = NULL;
	hb_buf_free(&conf);
	return cc;
}

void hb_build_result_free(hb_build_result *res)
{
	if (!res)
		return;
	free(res->library);
	free(res->profile);
	free(res->cc);
	free(res->cflags);
	free(res->command);
	free(res->log);
	free(res);
}

/* The cache key of a library: the first 8 bytes, in hex, of the SHA-256 of its compile command
 * (argv), its sources (argv[src_idx..src_end)) and the headers of its include folders and of the
 * private copy (copy, or NULL). */
static int S_inputs_hash(char hex[65], const hb_instance *inst, char **argv, size_t src_idx,
	size_t src_end, const char *copy)
{
	EVP_MD_CTX *ctx = EVP_MD_CTX_new();
	unsigned char md[32];
	unsigned int mdlen = 32;
	size_t i;
	int rc = HB_ERROR;

	if (!ctx)
		return hb_error_set("out of memory");
	EVP_DigestInit_ex(ctx, EVP_sha256(), NULL);
	for (i = 0; argv[i]; i++)
		EVP_DigestUpdate(ctx, argv[i], strlen(argv[i]) + 1);
	for (i = src_idx; i < src_end; i++) {
		hb_buf src;
		if (hb_file_read(&src, argv[i]) != 0) {
			hb_error_prefix("%s: ", inst->name);
			goto out;
		}
		EVP_DigestUpdate(ctx, src.data, src.len);
		hb_buf_free(&src);
	}
	if (copy)
		S_hash_dir_headers(ctx, copy);
	for (i = 0; inst->include_dirs[i]; i++)
		S_hash_dir_headers(ctx, inst->include_dirs[i]);
	EVP_DigestFinal_ex(ctx, md, &mdlen);
	hb_hex(hex, md, 8, 0);
	rc = 0;
out:
	EVP_MD_CTX_free(ctx);
	return rc;
}

int hb_build(hb_build_result **out, const hb_instance *inst, const char *profiles_path,
	const char *work_dir)
{
	hb_build_result *res = calloc(1, sizeof(*res));
	hb_buf conf = { 0 };
	char *stem = NULL, *dir = NULL, *logpath = NULL, *output = NULL, *tmp = NULL, *copy = NULL;
	char **argv = NULL, **flagv = NULL;
	size_t argc = 0, flagc = 0, i, lib_idx = 0, src_idx = 0, src_end = 0;
	char hex[65];
	const char *arch = hb_arch();
	int rc = HB_ERROR, status;

	*out = NULL;
	if (!res)
		return hb_error_set("out of memory");
	if (!profiles_path)
		profiles_path = hb_own_path(HB_OWN_PROFILES);
	if (hb_file_read(&conf, profiles_path) != 0)
		goto out;
	if (hb_profiles_resolve(&res->cc, &res->profile, &res->cflags, (char *)conf.data,
			profiles_path, arch, inst->profile ? inst->profile : inst->impl) != 0)
		goto out;
	for (i = 0; inst->extra_cflags[i]; i++) {
		char *more = hb_sprintf("%s %s", res->cflags, inst->extra_cflags[i]);
		free(res->cflags);
		res->cflags = more;
	}

	stem = hb_instance_stem(inst);
	dir = hb_sprintf("%s/lib/%s", work_dir, inst->algorithm ? inst->algorithm->id : "_");
	if (hb_mkdir_p(dir) != 0)
		goto out;

	/* argv: cc flags -shared -o LIB -I… sources… */
	if (S_push(&argv, &argc, hb_strdup(res->cc)) != 0 ||
		S_split_flags(&flagv, &flagc, res->cflags) != 0)
		goto out;
	for (i = 0; i < flagc; i++)
		if (S_push(&argv, &argc, hb_strdup(flagv[i])) != 0)
			goto out;
	if (S_push(&argv, &argc, hb_strdup("-shared")) != 0 ||
		S_push(&argv, &argc, hb_strdup("-Wl,--no-undefined")) != 0 ||
		S_push(&argv, &argc, hb_strdup("-o")) != 0 ||
		S_push(&argv, &argc, hb_strdup("LIBRARY")) != 0)
		goto out;
	lib_idx = argc - 1;
	/* declared #define values: the private copy of the folder comes first, and its sources are
	 * compiled from there, since `#include "x.h"` looks beside the including file before -I */
	if (inst->rewrites && inst->rewrites[0] && hb_declare_copy(&copy, inst, work_dir) != 0)
		goto out;
	if (copy && S_push(&argv, &argc, hb_sprintf("-I%s", copy)) != 0)
		goto out;
	for (i = 0; inst->include_dirs[i]; i++)
		if (S_push(&argv, &argc, hb_sprintf("-I%s", inst->include_dirs[i])) != 0)
			goto out;
	for (i = 0; inst->define_flags && inst->define_flags[i]; i++)
		if (S_push(&argv, &argc, hb_strdup(inst->define_flags[i])) != 0)
			goto out;
	src_idx = argc;
	for (i = 0; inst->sources[i]; i++) {
		const char *src = inst->sources[i], *slash = strrchr(src, '/');
		size_t dlen = inst->dir ? strlen(inst->dir) : 0;
		int copied = copy && slash && (size_t)(slash - src) == dlen &&
			strncmp(src, inst->dir, dlen) == 0;
		if (S_push(&argv, &argc, copied ? hb_path_join(copy, slash + 1) : hb_strdup(src)) != 0)
			goto out;
	}
	src_end = argc;
	for (i = 0; inst->ldflags && inst->ldflags[i]; i++)
		if (S_push(&argv, &argc, hb_strdup(inst->ldflags[i])) != 0)
			goto out;

	if (S_inputs_hash(hex, inst, argv, src_idx, src_end, copy) != 0)
		goto out;

	res->library = hb_sprintf("%s/%s-%s.so", dir, stem, hex);
	logpath = hb_sprintf("%s/%s-%s.log", dir, stem, hex);
	tmp = hb_sprintf("%s/%s-%s.tmp%ld.so", dir, stem, hex, (long)getpid());
	free(argv[lib_idx]);
	argv[lib_idx] = hb_strdup(res->library);
	res->command = S_quote_join(argv);

	if (hb_is_file(res->library)) {
		hb_buf log = { 0 };
		if (hb_file_read(&log, logpath) == 0)
			res->log = (char *)log.data;
	} else {
		free(argv[lib_idx]);
		argv[lib_idx] = hb_strdup(tmp);
		status = hb_run_capture(&output, argv, COMPILE_TIME_LIMIT);
		if (status != 0) {
			unlink(tmp);
			if (status > 0)
				hb_error_set("%s (%s): the build failed (%s exit status %d):\n%s",
					inst->name, inst->impl, res->cc, status, output ? output : "");
			else
				hb_error_prefix("%s (%s): ", inst->name, inst->impl);
			goto out;
		}
		if (hb_file_write_atomic(logpath, output, strlen(output)) != 0 ||
			rename(tmp, res->library) != 0) {
			unlink(tmp);
			hb_error_prefix("%s (%s): ", inst->name, inst->impl);
			goto out;
		}
		res->log = output;
		output = NULL;
	}
	if (!res->log)
		res->log = hb_strdup("");
	if (hb_sha256_file(res->library_sha256, res->library) != 0)
		goto out;
	rc = 0;
out:
	free(output);
	hb_buf_free(&conf);
	free(stem);
	free(dir);
	free(logpath);
	free(tmp);
	free(copy);
	for (i = 0; flagv && flagv[i]; i++)
		free(flagv[i]);
	free(flagv);
	for (i = 0; argv && i < argc; i++)
		free(argv[i]);
	free(argv);
	if (rc != 0) {
		hb_build_result_free(res);
		return rc;
	}
	*out = res;
	return 0;
}
