/* digest.c — `hashbench digest`: one file hashed by an implementation in a sandboxed child, its
 * digest printed as sha256sum prints one. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hbcommands.h"
#include "hbsandbox.h"

typedef struct {
	int bits;
	const unsigned char *msg;
	unsigned long long msg_bits;
} S_digest_job;

/* In the sandboxed child: one digest, as hex, on the result channel. */
static int S_digest_child(const hb_impl *impl, void *arg, int result_fd)
{
	const S_digest_job *job = arg;
	size_t outlen = ((size_t)job->bits + 7) / 8;
	unsigned char *digest = malloc(outlen);
	char *hex = malloc(2 * outlen + 2);
	int rc = HB_ERROR;

	if (!digest || !hex)
		hb_error_set("out of memory");
	else if (hb_impl_hash(impl, job->bits, job->msg, job->msg_bits, digest) == 0) {
		hb_hex(hex, digest, outlen, 0);
		strcat(hex, "\n");
		rc = write(result_fd, hex, strlen(hex)) == (ssize_t)strlen(hex) ? 0 :
			hb_error_set("writing the result: %s", strerror(errno));
	}
	free(digest);
	free(hex);
	return rc;
}

int hb_digest_print(const hb_instance *inst, const char *library, const char *file,
	long long bits, long length)
{
	const char *name = strcmp(file, "-") ? file : "standard input";
	S_digest_job job;
	hb_buf in;
	hb_child c;
	char *why = NULL;
	int failed = 0;

	if (hb_file_read_raw(&in, file) != 0) {
		fprintf(stderr, "hashbench: %s\n", hb_error_last());
		return 1;
	}
	job.bits = length ? (int)length : inst->digest_bits;
	job.msg = in.data;
	job.msg_bits = 8ULL * in.len;
	if (bits >= 0) {
		if ((unsigned long long)bits > job.msg_bits) {
			fprintf(stderr, "hashbench: --bits %lld: %s has only %llu bits\n", bits, name,
				job.msg_bits);
			hb_buf_free(&in);
			return 1;
		}
		job.msg_bits = (unsigned long long)bits;
		/* the bits after the message in its last byte are zero, as NGCC requires */
		if (job.msg_bits % 8)
			in.data[job.msg_bits / 8] &= (unsigned char)(0xff << (8 - job.msg_bits % 8));
	}
	if (hb_sandbox_call(&c, library, 0, S_digest_child, &job) != 0) {
		fprintf(stderr, "hashbench: %s: %s\n", inst->name, hb_error_last());
		hb_buf_free(&in);
		return 1;
	}
	if (c.output_len)
		fprintf(stderr, "hashbench: %s printed (%zu %s%s):\n%s\n", inst->name,
			c.output_len, hb_plural(c.output_len, "byte", "bytes"), c.output_truncated ? ", the rest dropped" : "", c.output);
	why = hb_child_describe(&c);
	if (why) {
		if (length && c.status == HB_CHILD_FAILED)
			fprintf(stderr, "hashbench: --length %ld: %s refused a %ld-bit output: %s\n",
				length, inst->name, length, why);
		else
			fprintf(stderr, "hashbench: %s: %s: %s\n", inst->name, name, why);
		failed = 1;
	} else {
		const char *hex = c.result.data ? (const char *)c.result.data : "";
		printf("%.*s  %s\n", (int)strcspn(hex, "\n"), hex, file);
		fflush(stdout);
	}
	free(why);
	hb_child_clear(&c);
	hb_buf_free(&in);
	return failed;
}
