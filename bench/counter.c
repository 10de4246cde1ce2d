/* counter.c — cycle counters: hardware core cycles through perf_event_open when allowed, else
 * the x86-64 time-stamp counter (serialised reads), else the AArch64 virtual counter. */
#define _GNU_SOURCE
#include <linux/perf_event.h>
#include <math.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "hbtiming.h"

uint64_t hb_now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static int S_perf_open(void)
{
	struct perf_event_attr attr;
	uint64_t v;
	int fd;

	memset(&attr, 0, sizeof(attr));
	attr.type = PERF_TYPE_HARDWARE;
	attr.size = sizeof(attr);
	attr.config = PERF_COUNT_HW_CPU_CYCLES;
	attr.exclude_kernel = 1;
	attr.exclude_hv = 1;
	fd = (int)syscall(SYS_perf_event_open, &attr, 0, -1, -1, 0);
	if (fd < 0)
		return -1;
	/* a counter that opens but never counts (some VMs) is no counter */
	if (read(fd, &v, sizeof(v)) != sizeof(v)) {
		close(fd);
		return -1;
	}
	return fd;
}

#if defined(__x86_64__)
static inline uint64_t S_tsc_read(void)
{
	uint32_t lo, hi;
	/* lfence keeps earlier work from drifting past the read */
	__asm__ __volatile__("lfence\n\trdtsc\n\tlfence" : "=a"(lo), "=d"(hi)::"memory");
	return (uint64_t)hi << 32 | lo;
}
#endif

#if defined(__aarch64__)
static inline uint64_t S_cntvct_read(void)
{
	uint64_t v;
	__asm__ __volatile__("isb\n\tmrs %0, cntvct_el0" : "=r"(v)::"memory");
	return v;
}

static inline uint64_t S_cntfrq(void)
{
	uint64_t v;
	__asm__ __volatile__("mrs %0, cntfrq_el0" : "=r"(v));
	return v;
}
#endif

int hb_counter_open(hb_counter *c, const char *name)
{
	int any = !name || strcmp(name, "auto") == 0;

	memset(c, 0, sizeof(*c));
	c->fd = -1;
	c->kind = HB_COUNTER_NONE;
	if (any || strcmp(name, "perf-cycles") == 0) {
		c->fd = S_perf_open();
		if (c->fd >= 0) {
			c->kind = HB_COUNTER_PERF;
			return 0;
		}
		if (!any)
			return -1;
	}
#if defined(__x86_64__)
	if (any || strcmp(name, "tsc") == 0) {
		c->kind = HB_COUNTER_TSC;
		return 0;
	}
#endif
#if defined(__aarch64__)
	if (any || strcmp(name, "cntvct") == 0) {
		c->kind = HB_COUNTER_CNTVCT;
		c->hz = (double)S_cntfrq();
		return 0;
	}
#endif
	return -1;
}

void hb_counter_close(hb_counter *c)
{
	if (c->fd >= 0)
		close(c->fd);
	c->fd = -1;
}

/* perf-cycles counts the core's cycles; the time-stamp counter has always been taken for them
 * (its rate is the nominal clock, which the warning of system.json says); cntvct and the
 * monotonic clock tick at a rate of their own, whatever the core's clock. */
int hb_counter_counts_cycles(const hb_counter *c)
{
	return c->kind == HB_COUNTER_PERF || c->kind == HB_COUNTER_TSC;
}

const char *hb_counter_name(const hb_counter *c)
{
	switch (c->kind) {
	case HB_COUNTER_PERF: return "perf-cycles";
	case HB_COUNTER_TSC: return "tsc";
	case HB_COUNTER_CNTVCT: return "cntvct";
	default: return "none";
	}
}

uint64_t hb_counter_read(const hb_counter *c)
{
	uint64_t v = 0;
	switch (c->kind) {
	case HB_COUNTER_PERF:
		if (read(c->fd, &v, sizeof(v)) != sizeof(v))
			v = 0;
		return v;
#if defined(__x86_64__)
	case HB_COUNTER_TSC:
		return S_tsc_read();
#endif
#if defined(__aarch64__)
	case HB_COUNTER_CNTVCT:
		return S_cntvct_read();
#endif
	default:
		return hb_now_ns();
	}
}

double hb_counter_calibrate_hz(const hb_counter *c, unsigned ms)
{
	uint64_t t0, t1, c0, c1;
	if (c->kind == HB_COUNTER_PERF)
		return 0;
	if (c->kind == HB_COUNTER_CNTVCT)
		return c->hz;
	t0 = hb_now_ns();
	c0 = hb_counter_read(c);
	do
		t1 = hb_now_ns();
	while (t1 - t0 < (uint64_t)ms * 1000000u);
	c1 = hb_counter_read(c);
	return (double)(c1 - c0) * 1e9 / (double)(t1 - t0);
}

uint64_t hb_calls_per_round(double per_call_ns, double round_ns, uint64_t max_calls)
{
	double calls;
	if (max_calls == 0)
		max_calls = 1;
	if (!(per_call_ns > 0))
		return max_calls;
	calls = ceil(round_ns / per_call_ns);
	if (calls < 1)
		return 1;
	if (calls > (double)max_calls)
		return max_calls;
	return (uint64_t)calls;
}
