/* duet.c — two timing drivers pinned to one CPU taking turns block by block (Duet benchmarking:
 * Bulej et al., ICPE 2020), each library in a sandbox of its own, so that the two blocks of a
 * pair see the same state of the host and a ratio of them cancels what the host did to both. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "hbsandbox.h"

/* In a helper process of one side: run its driver with the baton on the CPU both share, then send
 * the outcome as hb_driver_run gives it, one JSON object, and end. */
static void S_side(int out_fd, int baton, const hb_driver_setup *setup, const hb_duet_lib *lib,
	const char *bytes, unsigned long long order_seed, unsigned limit_s)
{
	hb_driver_cmd drv;
	hb_child run;
	json_t *result = NULL, *msg, *cmd = json_array();
	char *detail = NULL, *text;
	const char *status;
	size_t off = 0, len;
	int i;

	hb_driver_cmd_init(&drv, setup, lib->library, bytes, NULL, order_seed, lib->digest_bits);
	json_array_append_new(cmd, json_string("hashbench-measure"));
	for (i = 1; drv.argv[i]; i++)
		json_array_append_new(cmd, json_string(drv.argv[i]));
	memset(&run, 0, sizeof(run));
	status = hb_driver_run_baton(&run, &result, &detail, &drv, lib->library, limit_s, baton);
	close(baton);
	msg = json_pack("{s:s, s:s?, s:o*, s:o, s:s?}", "status", status, "detail", detail,
		"result", result, "command", cmd, "output", run.output_len ? run.output : NULL);
	text = msg ? json_dumps(msg, JSON_COMPACT) : NULL;
	len = text ? strlen(text) : 0;
	while (off < len) {
		ssize_t n = write(out_fd, text + off, len - off);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			_exit(1);
		off += (size_t)n;
	}
	_exit(text ? 0 : 1);
}

static void S_take(hb_duet_side *s, char *text)
{
	json_t *msg = text && *text ? json_loads(text, 0, NULL) : NULL;
	const char *status = json_string_value(json_object_get(msg, "status"));
	static const char *const names[] = { "ok", "error", "timeout", "crash", "violation", NULL };
	size_t i;

	s->status = "error";
	for (i = 0; status && names[i]; i++)
		if (strcmp(status, names[i]) == 0)
			s->status = names[i];
	if (!msg) {
		s->detail = hb_strdup("the helper running this side's driver gave no outcome");
		return;
	}
	if (json_is_string(json_object_get(msg, "detail")))
		s->detail = hb_strdup(json_string_value(json_object_get(msg, "detail")));
	if (json_is_string(json_object_get(msg, "output")))
		s->output = hb_strdup(json_string_value(json_object_get(msg, "output")));
	s->command = json_incref(json_object_get(msg, "command"));
	if (strcmp(s->status, "ok") == 0)
		s->result = json_incref(json_object_get(msg, "result"));
	if (strcmp(s->status, "ok") == 0 && !json_is_object(s->result)) {
		s->status = "error";
		s->detail = hb_strdup("the driver's result did not come back");
	}
	json_decref(msg);
}

int hb_duet_run(hb_duet_side out[2], const hb_driver_setup *setup, const hb_duet_lib lib[2],
	const char *bytes, unsigned long long order_seed, unsigned limit_s)
{
	int sv[2] = { -1, -1 }, res[2][2] = { { -1, -1 }, { -1, -1 } }, rc = 0, i;
	pid_t pid[2] = { -1, -1 };

	memset(out, 0, 2 * sizeof(*out));
	out[0].status = out[1].status = "error";
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0)
		return hb_error_set("socketpair: %s", strerror(errno));
	fflush(NULL);
	for (i = 0; i < 2; i++) {
		hb_driver_setup s = *setup;
		s.placement_seed = lib[i].placement_seed;
		s.baton = i == 0 ? 2 : 1; /* the first side leads */
		if (pipe2(res[i], O_CLOEXEC) != 0) {
			rc = hb_error_set("pipe: %s", strerror(errno));
			goto out;
		}
		pid[i] = fork();
		if (pid[i] < 0) {
			rc = hb_error_set("starting a side of the duet: %s", strerror(errno));
			goto out;
		}
		if (pid[i] == 0) {
			close(sv[1 - i]);
			close(res[i][0]);
			S_side(res[i][1], sv[i], &s, &lib[i], bytes, order_seed, limit_s);
		}
		close(res[i][1]);
		res[i][1] = -1;
	}
	/* each side's end only in its own helper: a side that ends ends the other's wait */
	close(sv[0]);
	close(sv[1]);
	sv[0] = sv[1] = -1;
	for (i = 0; i < 2; i++) {
		FILE *f = fdopen(res[i][0], "r");
		hb_buf text = { NULL, 0 };
		if (f)
			res[i][0] = -1; /* the stream's now */
		if (!f || hb_stream_read(&text, f, "a side of the duet") != 0)
			text.data = NULL;
		S_take(&out[i], (char *)text.data);
		hb_buf_free(&text);
		if (f)
			fclose(f);
	}
out:
	for (i = 0; i < 2; i++) {
		if (pid[i] > 0) {
			if (rc != 0)
				kill(pid[i], SIGKILL);
			while (waitpid(pid[i], NULL, 0) < 0 && errno == EINTR)
				;
		}
		if (res[i][0] >= 0)
			close(res[i][0]);
		if (res[i][1] >= 0)
			close(res[i][1]);
		if (sv[i] >= 0)
			close(sv[i]);
	}
	return rc;
}

void hb_duet_side_clear(hb_duet_side *s)
{
	if (!s)
		return;
	free(s->detail);
	free(s->output);
	json_decref(s->result);
	json_decref(s->command);
	memset(s, 0, sizeof(*s));
}
