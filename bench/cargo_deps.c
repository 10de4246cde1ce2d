/* cargo_deps.c — a Cargo.toml read as far as hashbench needs it: the package's name, and whether
 * Debian's packaged crates (the local registry /usr/share/cargo/registry) hold a version of each
 * dependency that its requirement accepts, so that Cargo can build it offline. */
#define _GNU_SOURCE
#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hbpackage.h"

/* Cargo.toml's [section] lines as "key" and its value without quotes (or the version of an
 * inline table { version = "…" }), each call passing one line to fn. */
static void S_section(const char *toml, const char *section, void (*fn)(void *, const char *,
	const char *), void *ctx)
{
	hb_buf b;
	char *line, *save = NULL, *text;
	int in = 0;
	if (hb_file_read_raw(&b, toml) != 0)
		return;
	text = strndup((const char *)b.data, b.len);
	hb_buf_free(&b);
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char key[128], *eq, *v, *q;
		size_t n;
		while (isspace((unsigned char)*line))
			line++;
		if (*line == '[') {
			in = strncmp(line + 1, section, strlen(section)) == 0 &&
				line[1 + strlen(section)] == ']';
			continue;
		}
		if (!in || *line == '#' || !(eq = strchr(line, '=')))
			continue;
		n = strcspn(line, " \t=");
		if (n == 0 || n >= sizeof(key))
			continue;
		memcpy(key, line, n);
		key[n] = 0;
		v = eq + 1;
		if ((q = strstr(v, "version")) != NULL && strchr(v, '{'))
			v = strchr(q, '=') ? strchr(q, '=') + 1 : q;
		v = strchr(v, '"');
		if (!v || !(q = strchr(v + 1, '"')))
			continue;
		*q = 0;
		fn(ctx, key, v + 1);
	}
	free(text);
}

static void S_name(void *ctx, const char *key, const char *value)
{
	char **out = ctx;
	if (strcmp(key, "name") == 0 && !*out)
		*out = hb_strdup(value);
}

char *hb_cargo_package_name(const char *toml)
{
	char *name = NULL;
	S_section(toml, "package", S_name, &name);
	return name;
}

/* "1.2.3" into v[3] (missing parts 0); how many parts were given. */
static int S_version(unsigned long v[3], const char *s)
{
	int k = 0;
	v[0] = v[1] = v[2] = 0;
	while (k < 3 && isdigit((unsigned char)*s)) {
		char *end;
		v[k++] = strtoul(s, &end, 10);
		s = *end == '.' ? end + 1 : end;
		if (*end != '.')
			break;
	}
	return k;
}

/* Does version have accept (Cargo's rules for ^ (the default), ~, =, >= and *)? */
static int S_accepts(const char *req, const char *version)
{
	unsigned long r[3], v[3];
	int parts, ge;
	while (isspace((unsigned char)*req))
		req++;
	if (*req == '*')
		return 1;
	S_version(v, version);
	if (*req == '=') {
		S_version(r, req + 1);
		return v[0] == r[0] && v[1] == r[1] && v[2] == r[2];
	}
	if (strncmp(req, ">=", 2) == 0) {
		S_version(r, req + 2);
		return v[0] > r[0] || (v[0] == r[0] && (v[1] > r[1] || (v[1] == r[1] && v[2] >= r[2])));
	}
	if (*req == '~') {
		parts = S_version(r, req + 1);
		return v[0] == r[0] && (parts < 2 || (v[1] == r[1] && v[2] >= r[2]));
	}
	parts = S_version(r, req + (*req == '^'));
	ge = v[0] > r[0] || (v[0] == r[0] && (v[1] > r[1] || (v[1] == r[1] && v[2] >= r[2])));
	if (!ge)
		return 0;
	/* the leftmost non-zero part (or the last one given) may not change */
	if (r[0] > 0 || parts == 1)
		return v[0] == r[0];
	if (r[1] > 0 || parts == 2)
		return v[0] == 0 && v[1] == r[1];
	return v[0] == 0 && v[1] == 0 && v[2] == r[2];
}

typedef struct {
	const char *registry;
	char *why;
} S_deps_ctx;

/* One dependency: a folder <name>-<version> of the registry whose version it accepts. */
static void S_dep(void *ctx, const char *name, const char *req)
{
	S_deps_ctx *c = ctx;
	DIR *d;
	struct dirent *de;
	char *found = NULL;
	size_t n = strlen(name);
	if (c->why || !(d = opendir(c->registry))) {
		if (!c->why)
			c->why = hb_sprintf("needs the crate %s %s, and there is no local registry of "
				"Debian's crates (%s: install its librust-*-dev package)", name, req, c->registry);
		return;
	}
	while ((de = readdir(d)) != NULL) {
		if (strncmp(de->d_name, name, n) != 0 || de->d_name[n] != '-' ||
			!isdigit((unsigned char)de->d_name[n + 1]))
			continue;
		if (S_accepts(req, de->d_name + n + 1)) {
			free(found);
			found = NULL;
			break;
		}
		if (!found)
			found = hb_strdup(de->d_name + n + 1);
	}
	if (!de)
		c->why = found ? hb_sprintf("needs the crate %s %s, and Debian packages only %s here (%s)",
			name, req, found, c->registry) : hb_sprintf("needs the crate %s %s, which Debian "
			"does not package here (none in %s)", name, req, c->registry);
	free(found);
	closedir(d);
}

char *hb_cargo_unmet(const char *toml, const char *registry)
{
	S_deps_ctx c = { registry, NULL };
	S_section(toml, "dependencies", S_dep, &c);
	return c.why;
}

int hb_on_path(const char *program)
{
	const char *path = getenv("PATH");
	char *copy, *dir, *save = NULL;
	int found = 0;
	if (!path)
		return 0;
	copy = hb_strdup(path);
	for (dir = strtok_r(copy, ":", &save); dir && !found; dir = strtok_r(NULL, ":", &save)) {
		char *p = hb_path_join(dir, program);
		found = hb_is_file(p) && access(p, X_OK) == 0;
		free(p);
	}
	free(copy);
	return found;
}
