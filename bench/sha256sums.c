/* sha256sums.c — SHA256SUMS of an evidence folder: a sha256sum line for every other file under
 * it, in path order, temporary files and the system's history of campaigns left out. */
#define _GNU_SOURCE
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "hbutil.h"

static int S_collect(char ***list, size_t *n, const char *root, const char *rel)
{
	char *dir = rel[0] ? hb_path_join(root, rel) : hb_strdup(root);
	DIR *d = opendir(dir);
	struct dirent *de;
	int rc = 0;
	if (!d) {
		free(dir);
		return 0;
	}
	while (rc == 0 && (de = readdir(d)) != NULL) {
		char *sub_rel, *sub;
		struct stat st;
		if (de->d_name[0] == '.' || strstr(de->d_name, ".tmp."))
			continue;
		sub_rel = rel[0] ? hb_sprintf("%s/%s", rel, de->d_name) : hb_strdup(de->d_name);
		sub = hb_path_join(root, sub_rel);
		if (lstat(sub, &st) == 0 && S_ISDIR(st.st_mode)) {
			rc = S_collect(list, n, root, sub_rel);
			free(sub_rel);
		} else if (S_ISREG(st.st_mode) && strcmp(sub_rel, "SHA256SUMS") != 0 &&
			strcmp(sub_rel, "history.json") != 0) {
			/* history.json is the system's state across campaigns, rewritten by each, not
			 * this campaign's evidence (what it drew from it is in system.json) */
			char **g = realloc(*list, (*n + 1) * sizeof(char *));
			if (!g) {
				rc = hb_error_set("out of memory");
				free(sub_rel);
			} else {
				*list = g;
				(*list)[(*n)++] = sub_rel;
			}
		} else {
			free(sub_rel);
		}
		free(sub);
	}
	closedir(d);
	free(dir);
	return rc;
}

int hb_write_sha256sums(const char *sysdir)
{
	char **files = NULL, *text = NULL, *path;
	size_t n = 0, len = 0, i;
	FILE *f;
	int rc = S_collect(&files, &n, sysdir, "");

	hb_strv_sort(files, n);
	f = open_memstream(&text, &len);
	for (i = 0; i < n && rc == 0; i++) {
		char hex[65], *full = hb_path_join(sysdir, files[i]);
		rc = hb_sha256_file(hex, full);
		if (rc == 0)
			fprintf(f, "%s  %s\n", hex, files[i]);
		free(full);
	}
	fclose(f);
	path = hb_path_join(sysdir, "SHA256SUMS");
	if (rc == 0)
		rc = hb_file_write_atomic(path, text, len);
	for (i = 0; i < n; i++)
		free(files[i]);
	free(files);
	free(text);
	free(path);
	return rc;
}
