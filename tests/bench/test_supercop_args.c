/* test_supercop_args.c — a --supercop folder that is not a SUPERCOP tree (missing, or without
 * crypto_hash/): list, kat-check and run refuse it in one line naming it, and write nothing. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support.h"

static void S_expect_refused(const char *command, const char *dir, const char *why,
	const char *data, const char *work)
{
	const char *args[] = { command, "--supercop", dir, "--work", work, NULL, NULL, NULL,
		NULL, NULL };
	char *out, *err, *want = hb_sprintf("hashbench: --supercop %s: %s\n", dir, why);
	int status;
	if (strcmp(command, "run") == 0) {
		args[5] = "--system";
		args[6] = "t";
		args[7] = "--data";
		args[8] = data;
	}
	status = hbt_cli(&out, &err, NULL, args);
	cr_expect_eq(status, 1, "%s --supercop %s: exit %d", command, dir, status);
	cr_expect_str_eq(out, "", "%s", command);
	cr_expect_str_eq(err, want, "%s: one line naming the folder", command);
	cr_expect(!hb_is_dir(data), "%s: nothing written", command);
	free(want);
	free(out);
	free(err);
}

Test(supercop_tree, a_missing_folder_or_one_without_crypto_hash_is_refused_in_one_line,
	.timeout = HBT_TIMEOUT(60))
{
	static const char *const commands[] = { "list", "kat-check", "run", NULL };
	char *tmp = hbt_tmpdir("supercop-not-a-tree"), *tree = hb_path_join(tmp, "tree");
	char *inside = hb_path_join(tree, "crypto_hashblocks"), *data = hb_path_join(tmp, "data");
	char *locks = hb_path_join(tmp, "locks"), *work = hb_path_join(tmp, "work");
	size_t i;

	cr_assert_eq(hb_mkdir_p(inside), 0);
	/* CPU locks of our own: run reads --supercop before it takes its lock, but should that
	 * order change, a lab's campaign timing on this machine must not make the test wait */
	cr_assert_eq(hb_mkdir_p(locks), 0);
	setenv("HASHBENCH_LOCK_DIR", locks, 1);
	for (i = 0; commands[i]; i++) {
		S_expect_refused(commands[i], "/nonexistent", "no such folder", data, work);
		S_expect_refused(commands[i], tree, "no crypto_hash folder in it (is it a SUPERCOP "
			"tree?)", data, work);
	}
	unsetenv("HASHBENCH_LOCK_DIR");
	free(locks);
	free(work);
	free(data);
	free(inside);
	free(tree);
	free(tmp);
}

